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
import { SplineScratch, controlPoints, localEndVector, quatToMatrix, splineLength } from './beam-frames.js';
import { quatMultiplyAt } from '@sofa-ts/linalg';
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
 *   DOF-to-node transformations (dofsAndBeamsAligned="false"): beam b's ends are the frames of the
 *     state composed with DOF0TransformNode0[b] and DOF1TransformNode1[b] (p + M(q)·t, q ⊗ q_t;
 *     BeamAdapter sizes both lists to the edges, the missing ones the identity, the extra ones
 *     dropped); the rest lengths are measured between the transformed ends, and the force field
 *     moves each end's force to its frame by the lever arm M(q)·t (beam-dof-lever.ts).
 * Curvilinear abscissae and the interpolation engine (curvAbsList, InterpolationInputs) are not
 * implemented: setting them is an error.
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
    help: 'if false, each beam end is placed by a transformation of its frame (DOF0TransformNode0, DOF1TransformNode1; the identity where a list is short, as BeamAdapter sizes them)',
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
    type: RealArray(7, 'vector<Rigid3dTypes::Coord>'),
    default: new Float64Array(0),
    help: 'rigid transformation (x y z qx qy qz qw, in the frame) from the first frame of each beam to its first node; read when dofsAndBeamsAligned is false',
  });
  readonly DOF1TransformNode1 = this.initData({
    name: 'DOF1TransformNode1',
    type: RealArray(7, 'vector<Rigid3dTypes::Coord>'),
    default: new Float64Array(0),
    help: 'rigid transformation (x y z qx qy qz qw, in the frame) from the second frame of each beam to its second node; read when dofsAndBeamsAligned is false',
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
  /** DOF-to-node transformations (14 per beam: t_0, q_0, t_1, q_1), undefined when the beams are aligned with the frames. */
  dofToNode: Float64Array | undefined;
  /** Bumped when a controller changes the rest lengths (setLength). */
  revision = 0;
  private readonly w = new SplineScratch();
  private readonly q = new Float64Array(4);

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
    this.dofToNode = this.readTransforms(n);
    this.young = perBeam(this.defaultYoungModulus.value, n, 1e5);
    this.poisson = perBeam(this.defaultPoissonRatio.value, n, 0.4);
    for (let b = 0; b < n; b++) {
      if (!(this.young[b] > 0))
        throw this.dataError(this.defaultYoungModulus, `the Young modulus of beam ${b} must be > 0 (got ${this.young[b]})`);
      if (!(this.poisson[b] > -1 && this.poisson[b] < 0.5))
        throw this.dataError(this.defaultPoissonRatio, `the Poisson ratio of beam ${b} must be in (-1, 0.5) (got ${this.poisson[b]})`);
    }
    this.lengths = new Float64Array(n);
    const P = this.w.P,
      E = new Float64Array(14);
    for (let b = 0; b < n; b++) {
      // the distance between the beam's ends, then three arc lengths of the spline this length draws
      this.endFrames(E, s.x, b);
      let L = Math.hypot(E[7] - E[0], E[8] - E[1], E[9] - E[2]);
      for (let it = 0; it < 3; it++) {
        controlPoints(P, E, 0, 7, L, this.w.R);
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

  /**
   * The two ends of beam b at positions x: the frames of the state, composed with the beam's
   * DOF-to-node transformations when it has them (p + M(q)·t, q ⊗ q_t).
   */
  endFrames(E: Float64Array, x: ArrayLike<number>, b: number): void {
    const o0 = 7 * this.nodes[2 * b],
      o1 = 7 * this.nodes[2 * b + 1];
    for (let c = 0; c < 7; c++) {
      E[c] = x[o0 + c];
      E[7 + c] = x[o1 + c];
    }
    const T = this.dofToNode;
    if (!T) return;
    const M = this.w.R;
    for (let e = 0; e < 2; e++) {
      const eo = 7 * e,
        to = 14 * b + 7 * e;
      quatToMatrix(M, 0, E, eo + 3);
      const tx = T[to],
        ty = T[to + 1],
        tz = T[to + 2];
      E[eo] += M[0] * tx + M[1] * ty + M[2] * tz;
      E[eo + 1] += M[3] * tx + M[4] * ty + M[5] * tz;
      E[eo + 2] += M[6] * tx + M[7] * ty + M[8] * tz;
      quatMultiplyAt(this.q, 0, E, eo + 3, T, to + 3);
      for (let c = 0; c < 4; c++) E[eo + 3 + c] = this.q[c];
    }
  }

  /**
   * The DOF-to-node transformations, one per beam for each end (BeamAdapter resizes both lists to the
   * edges: a missing one is the identity, an extra one dropped; said), or undefined when the beams are
   * aligned with the frames (lists given then are not read: said).
   */
  private readTransforms(n: number): Float64Array | undefined {
    const lists = [this.DOF0TransformNode0, this.DOF1TransformNode1];
    if (this.dofsAndBeamsAligned.value) {
      for (const d of lists)
        if (d.value.length > 0) this.warnAbout(d, `'${d.name}' is not read: dofsAndBeamsAligned is true (the beam ends are the frames)`);
      return undefined;
    }
    const T = new Float64Array(14 * n);
    for (let b = 0; b < n; b++) {
      T[14 * b + 6] = 1;
      T[14 * b + 13] = 1;
    }
    lists.forEach((d, e) => {
      const v = d.value,
        given = v.length / 7;
      if (given !== n)
        this.warnAbout(
          d,
          given < n
            ? `'${d.name}' has ${given} transformations for ${n} beams: the last ${n - given} are the identity (as BeamAdapter resizes it)`
            : `'${d.name}' has ${given} transformations for ${n} beams: the last ${given - n} are not read (as BeamAdapter resizes it)`,
        );
      for (let b = 0; b < Math.min(n, given); b++) {
        for (let c = 0; c < 7; c++) T[14 * b + 7 * e + c] = v[7 * b + c];
        const o = 7 * b,
          q = Math.hypot(v[o + 3], v[o + 4], v[o + 5], v[o + 6]);
        if (!(q > 0) || !Number.isFinite(q) || ![0, 1, 2].every((c) => Number.isFinite(v[o + c])))
          throw this.dataError(
            d,
            `transformation ${b} (${Array.from(v.subarray(o, o + 7)).join(' ')}) is not a rigid transformation: its quaternion must be non-zero and its numbers finite`,
          );
      }
    });
    return T;
  }
}

/** One value per beam: the list itself when it has n values, else its first value (or `fallback` when empty) for all. */
function perBeam(values: Float64Array, n: number, fallback: number): Float64Array {
  if (values.length === n) return Float64Array.from(values);
  return new Float64Array(n).fill(values.length > 0 ? values[0] : fallback);
}
