import {
  BaseObject,
  Bool,
  Enum,
  Real,
  RealArray,
  Str,
  Indices,
  contextMeshTopology,
  nonNegative,
  sofaComponent,
  type BaseMechanicalState,
  type BaseMeshTopology,
} from '@sofa-ts/core';
import type { BeamSection } from '../fem/beam/beam-kernels.js';
import { mstateLink } from '../state-link.js';
import { SplineScratch, controlPoints, localEndVector, splineLength } from './beam-frames.js';
import { middleFrameOfEnds } from './beam-middle-frame.js';
import type { BeamSet } from './beam-set.js';

/**
 * SOFA's BeamInterpolation (BeamAdapter plugin): the beams of an AdaptiveBeamForceFieldAndMass, one
 * per edge of the node's topology between two frames of its Rigid3d state, and the geometry they
 * share. Each beam's centre line is the cubic Bézier curve of its end frames (control points
 * p0, p0 + x̂0·L/3, p1 − x̂1·L/3, p1, x̂ the frames' x axes) and its frame is the one that curve
 * interpolates at its middle (beam-frames.ts, with SOFA's frame algebra, which differs from this
 * for frames whose quaternions are not unit).
 *   Rest length L: the arc length of that curve at the initial positions, iterated three times from
 *     the distance between the frames (as BeamAdapter; the distance itself for straight beams along x).
 *   Section (constant): circular A = π(r² − r_i²), I_y = I_z = π(r⁴ − r_i⁴)/4, J = I_y + I_z;
 *     rectangular A = L_y·L_z, I_y = L_y·L_z³/12, I_z = L_z·L_y³/12, J = I_y + I_z; no shear areas.
 *   Material per beam: defaultYoungModulus / defaultPoissonRatio, one value per edge, or the first
 *     value for every edge when the list has another length (as BeamAdapter).
 *   Rest shape: straight (the end frames at ∓L/2 along the beam frame's x), or the rest positions'
 *     frames seen from the beam frame the rest positions interpolate (straight="false").
 * The DOF-to-node transforms (DOF0TransformNode0, DOF1TransformNode1) and the instrument path
 * (WireRestShape, InterventionalRadiologyController) are not implemented: setting them is an error.
 */
@sofaComponent({
  name: 'BeamInterpolation',
  category: 'FiniteElement',
  module: 'BeamAdapter',
  description:
    'The beams of AdaptiveBeamForceFieldAndMass: Bézier centre lines between Rigid3d frames, their rest lengths, sections and materials.',
  templates: ['Rigid3d'],
})
export class BeamInterpolation extends BaseObject implements BeamSet {
  readonly mstate = this.initLink(mstateLink('the Rigid3d state whose frames are the beam ends'));
  readonly crossSectionShape = this.initData({
    name: 'crossSectionShape',
    type: Enum(['circular', 'elliptic (not available)', 'rectangular']),
    default: 'circular',
    help: 'shape of the cross-section: circular (radius, innerRadius) or rectangular (lengthY, lengthZ); elliptic is not available (as in BeamAdapter)',
  });
  readonly radius = this.initData({
    name: 'radius',
    type: Real,
    default: 1,
    unit: 'm',
    range: nonNegative,
    help: 'radius of a circular section',
  });
  readonly innerRadius = this.initData({
    name: 'innerRadius',
    type: Real,
    default: 0,
    unit: 'm',
    range: nonNegative,
    help: 'inner radius of a hollow circular section',
  });
  readonly sideLength = this.initData({
    name: 'sideLength',
    type: Real,
    default: 1,
    unit: 'm',
    help: 'side of a square section: BeamAdapter declares it and reads it nowhere (a warning when set)',
  });
  readonly smallRadius = this.initData({
    name: 'smallRadius',
    type: Real,
    default: 1,
    unit: 'm',
    help: 'small radius of an elliptic section (not available; a warning when set)',
  });
  readonly largeRadius = this.initData({
    name: 'largeRadius',
    type: Real,
    default: 1,
    unit: 'm',
    help: 'large radius of an elliptic section (not available; a warning when set)',
  });
  readonly lengthY = this.initData({
    name: 'lengthY',
    type: Real,
    default: 1,
    unit: 'm',
    range: nonNegative,
    help: "side of a rectangular section along the beam frame's y",
  });
  readonly lengthZ = this.initData({
    name: 'lengthZ',
    type: Real,
    default: 1,
    unit: 'm',
    range: nonNegative,
    help: "side of a rectangular section along the beam frame's z",
  });
  readonly dofsAndBeamsAligned = this.initData({
    name: 'dofsAndBeamsAligned',
    type: Bool,
    default: true,
    help: 'if false, each beam end is placed by a transformation of its frame (DOF0TransformNode0, DOF1TransformNode1; the identity, as BeamAdapter sizes them, since they are not implemented here)',
  });
  readonly defaultYoungModulus = this.initData({
    name: 'defaultYoungModulus',
    type: RealArray(1),
    default: new Float64Array([1e5]),
    unit: 'Pa',
    help: 'Young modulus per beam (one value per edge, or the first value for all)',
  });
  readonly defaultPoissonRatio = this.initData({
    name: 'defaultPoissonRatio',
    type: RealArray(1),
    default: new Float64Array([0.4]),
    help: 'Poisson ratio per beam (one value per edge, or the first value for all)',
  });
  readonly straight = this.initData({
    name: 'straight',
    type: Bool,
    default: true,
    help: 'if true, the rest shape of every beam is straight; else it is the shape of the rest positions',
  });
  readonly edgeList = this.initData({
    name: 'edgeList',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'the edges of the topology that are beams (written at init: every edge, as BeamAdapter does without DOF-to-node transforms)',
  });
  readonly lengthList = this.initData({
    name: 'lengthList',
    type: RealArray(1),
    default: new Float64Array(0),
    output: true,
    unit: 'm',
    help: 'rest length of each beam (written at init: the arc length of its centre line)',
  });
  readonly DOF0TransformNode0 = this.initData({
    name: 'DOF0TransformNode0',
    type: Str,
    default: '',
    help: 'transformations from the first frame of each beam to its first node: not implemented (an error when set)',
  });
  readonly DOF1TransformNode1 = this.initData({
    name: 'DOF1TransformNode1',
    type: Str,
    default: '',
    help: 'transformations from the second frame of each beam to its second node: not implemented (an error when set)',
  });
  readonly curvAbsList = this.initData({
    name: 'curvAbsList',
    type: Str,
    default: '',
    help: 'curvilinear abscissae of the beams, set by an instrument controller: not implemented (an error when set)',
  });
  readonly InterpolationInputs = this.initData({
    name: 'InterpolationInputs',
    type: Str,
    default: '',
    help: 'frames to interpolate as an engine (beam, abscissa): not implemented (an error when set)',
  });

  private state: BaseMechanicalState | undefined;
  private ready = false;
  /** Section shared by every beam. */
  section: BeamSection = { A: 0, Iy: 0, Iz: 0, J: 0, Asy: 0, Asz: 0 };
  /** End frames of each beam, indices into the state (nB × 2). */
  nodes = new Uint32Array(0);
  /** Rest length of each beam (nB), m. */
  lengths = new Float64Array(0);
  /** Young modulus and Poisson ratio of each beam (nB). */
  young: Float64Array = new Float64Array(0);
  poisson: Float64Array = new Float64Array(0);
  /** Rest local end vectors of each beam (nB × 12): node 0 (translation, rotation vector), then node 1. */
  restLocal = new Float64Array(0);
  /** The force field's massDensity for every beam. */
  densities = new Float64Array(0);
  /** Bumped when a controller changes the rest lengths (setLength). */
  revision = 0;
  private readonly w = new SplineScratch();

  override init(): void {
    this.prepare();
  }

  /** The state of the beam frames, valid after prepare(). */
  getState(): BaseMechanicalState {
    return this.state!;
  }

  get beamCount(): number {
    return this.nodes.length / 2;
  }

  /** The sum of the rest lengths. */
  get restTotalLength(): number {
    let s = 0;
    for (const L of this.lengths) s += L;
    return s;
  }

  /** Reads the section, the edges, the materials and the rest shape (once; callers may come before this component's init). */
  prepare(): void {
    if (this.ready) return;
    for (const d of [this.DOF0TransformNode0, this.DOF1TransformNode1]) {
      if (d.isSet && d.value.trim() !== '')
        throw this.dataError(
          d,
          'DOF-to-node transformations are not implemented in sofa-ts: keep the beam nodes on the frames (dofsAndBeamsAligned="true")',
        );
    }
    if (this.curvAbsList.isSet && this.curvAbsList.value.trim() !== '')
      throw this.dataError(
        this.curvAbsList,
        'curvilinear abscissae come from an instrument controller (WireRestShape, InterventionalRadiologyController), which sofa-ts does not implement',
      );
    if (this.InterpolationInputs.isSet && this.InterpolationInputs.value.trim() !== '')
      throw this.dataError(
        this.InterpolationInputs,
        'BeamInterpolation as an interpolation engine (InterpolationInputs → InterpolatedPos) is not implemented in sofa-ts',
      );
    for (const d of [this.sideLength, this.smallRadius, this.largeRadius])
      if (d.isSet)
        this.warnAbout(
          d,
          `'${d.name}' is not read: BeamAdapter's sections are circular (radius, innerRadius) or rectangular (lengthY, lengthZ)`,
        );
    this.section = this.computeSection();

    const s = this.mstate.require();
    if (s.stateType.name !== 'Rigid3d') throw this.error(`needs a Rigid3d state (the beam frames); ${s.describe()} is ${s.stateType.name}`);
    this.state = s;
    if (!this.template) this.template = 'Rigid3d';
    const topo: BaseMeshTopology | undefined = contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: put an edge topology (MeshTopology lines="…") in the node');
    const edges = topo.getEdges();
    const n = edges.length / 2;
    if (n === 0) throw this.error(`the topology ${topo.describe()} has no edges`);
    if (this.edgeList.isSet || this.lengthList.isSet)
      this.warn(
        'edgeList and lengthList are recomputed from the topology and the positions, as BeamAdapter does when the DOF-to-node transforms are not given',
      );
    this.nodes = new Uint32Array(2 * n);
    for (let b = 0; b < 2 * n; b++) {
      if (edges[b] >= s.size)
        throw this.error(`edge ${b >> 1} (${edges[b & ~1]} ${edges[b | 1]}) names a frame beyond the ${s.size} frames of ${s.describe()}`);
      this.nodes[b] = edges[b];
    }
    for (const d of [this.defaultYoungModulus, this.defaultPoissonRatio])
      if (d.value.length === 0)
        this.warnAbout(d, `'${d.name}' is empty: the default ${d === this.defaultYoungModulus ? 1e5 : 0.4} is used for every beam`);
    this.young = perBeam(this.defaultYoungModulus.value, n, 1e5);
    this.poisson = perBeam(this.defaultPoissonRatio.value, n, 0.4);
    for (let b = 0; b < n; b++) {
      if (!(this.young[b] > 0))
        throw this.dataError(this.defaultYoungModulus, `the Young modulus of beam ${b} must be > 0 (got ${this.young[b]})`);
      if (!(this.poisson[b] > -1 && this.poisson[b] < 0.5))
        throw this.dataError(this.defaultPoissonRatio, `the Poisson ratio of beam ${b} must be in (-1, 0.5) (got ${this.poisson[b]})`);
    }
    this.lengths = new Float64Array(n);
    const x = s.x,
      P = this.w.P;
    for (let b = 0; b < n; b++) {
      const o0 = 7 * this.nodes[2 * b],
        o1 = 7 * this.nodes[2 * b + 1];
      // the distance between the frames, then three arc lengths of the spline this length draws
      let L = Math.hypot(x[o1] - x[o0], x[o1 + 1] - x[o0 + 1], x[o1 + 2] - x[o0 + 2]);
      for (let it = 0; it < 3; it++) {
        controlPoints(P, x, o0, o1, L, this.w.R);
        L = splineLength(P);
      }
      if (!(L > 0)) throw this.error(`beam ${b} (frames ${this.nodes[2 * b]} ${this.nodes[2 * b + 1]}) has a zero rest length`);
      this.lengths[b] = L;
    }
    this.edgeList.value = Uint32Array.from({ length: n }, (_, i) => i);
    this.lengthList.value = Float64Array.from(this.lengths);
    this.restLocal = new Float64Array(12 * n);
    this.densities = new Float64Array(n).fill(NaN);
    this.computeRestShape(s.x0);
    this.ready = true;
  }

  /** Section properties from crossSectionShape. */
  private computeSection(): BeamSection {
    const shape = this.crossSectionShape.value;
    if (shape === 'elliptic (not available)')
      throw this.dataError(
        this.crossSectionShape,
        'elliptic sections are not available in BeamAdapter (its section would be zero); use circular or rectangular',
      );
    if (shape === 'rectangular') {
      const ly = this.lengthY.value,
        lz = this.lengthZ.value;
      const Iy = (ly * lz ** 3) / 12,
        Iz = (lz * ly ** 3) / 12;
      if (!(ly > 0 && lz > 0))
        throw this.dataError(ly > 0 ? this.lengthZ : this.lengthY, 'a rectangular section needs lengthY > 0 and lengthZ > 0');
      return { A: ly * lz, Iy, Iz, J: Iy + Iz, Asy: 0, Asz: 0 };
    }
    const r = this.radius.value,
      ri = this.innerRadius.value;
    if (!(r > ri)) throw this.dataError(this.radius, `the radius (${r}) must exceed the inner radius (${ri})`);
    const I = (Math.PI * (r ** 4 - ri ** 4)) / 4;
    return { A: Math.PI * (r * r - ri * ri), Iy: I, Iz: I, J: 2 * I, Asy: 0, Asz: 0 };
  }

  /** restLocal: ∓L/2 along x for straight beams, else the rest frames seen from the frame they interpolate. */
  private computeRestShape(x0: Float64Array): void {
    const n = this.beamCount,
      out = this.restLocal;
    if (this.straight.value) {
      for (let b = 0; b < n; b++) {
        out[12 * b] = -this.lengths[b] / 2;
        out[12 * b + 6] = this.lengths[b] / 2;
      }
      return;
    }
    const pm = new Float64Array(3),
      qm = new Float64Array(4),
      Rm = new Float64Array(9),
      E = new Float64Array(14),
      tmp = new Float64Array(8);
    for (let b = 0; b < n; b++) {
      this.endFrames(E, x0, b);
      middleFrameOfEnds(pm, 0, qm, 0, Rm, 0, E, this.lengths[b], this.w);
      localEndVector(out, 12 * b, E, 0, pm, 0, qm, 0, tmp);
      localEndVector(out, 12 * b + 6, E, 7, pm, 0, qm, 0, tmp);
    }
  }

  /**
   * Sets the rest length of beam b (an AdaptiveBeamController resampling the beams); a straight
   * rest shape follows (∓L/2), a rest shape from the positions keeps its end vectors.
   */
  setLength(b: number, L: number): void {
    this.lengths[b] = L;
    if (this.straight.value) {
      this.restLocal[12 * b] = -L / 2;
      this.restLocal[12 * b + 6] = L / 2;
    }
    this.revision++;
  }

  sectionOf(_b: number, out: BeamSection): BeamSection {
    const s = this.section;
    out.A = s.A;
    out.Iy = s.Iy;
    out.Iz = s.Iz;
    out.J = s.J;
    out.Asy = s.Asy;
    out.Asz = s.Asz;
    return out;
  }

  /** The frames of the state at the ends of beam b (no DOF-to-node transformation). */
  endFrames(E: Float64Array, x: ArrayLike<number>, b: number): void {
    const o0 = 7 * this.nodes[2 * b],
      o1 = 7 * this.nodes[2 * b + 1];
    for (let c = 0; c < 7; c++) {
      E[c] = x[o0 + c];
      E[7 + c] = x[o1 + c];
    }
  }
}

/** One value per beam: the list itself when it has n values, else its first value (or `fallback` when empty) for all. */
function perBeam(values: Float64Array, n: number, fallback: number): Float64Array {
  if (values.length === n) return Float64Array.from(values);
  return new Float64Array(n).fill(values.length > 0 ? values[0] : fallback);
}
