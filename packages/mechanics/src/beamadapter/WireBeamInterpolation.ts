import {
  BaseObject,
  RealArray,
  Indices,
  contextMeshTopology,
  sofaComponent,
  type BaseMechanicalState,
  type BaseMeshTopology,
} from '@sofa-ts/core';
import type { BeamSection } from '../fem/beam/beam-kernels.js';
import { mstateLink } from '../state-link.js';
import { localEndVector } from './beam-frames.js';
import type { BeamSet } from './beam-set.js';
import { WireRestShape } from './WireRestShape.js';

/**
 * SOFA's WireBeamInterpolation (BeamAdapter plugin): the beams of one instrument (guidewire,
 * catheter, coil) whose deployed part an InterventionalRadiologyController writes at each step, on
 * edges of the node's topology between frames of its Rigid3d state. Beam b covers the instrument's
 * curvilinear abscissae [s0, s1] (rest length L = s1 − s0), and from the WireRestShape:
 *   section, Young modulus, Poisson ratio and density: those of the section at s1 (as BeamAdapter);
 *   rest shape: the rest frames H(s0), H(s1) seen from H((s0 + s1)/2) (local_H_local0_rest =
 *     H_m⁻¹·H_0), as translation and rotation vector;
 *   end frames: the state's frames turned about their x axis by the instrument's rotation θ
 *     (DOF-to-node transformation (0, q_x(θ)), same origin: forces and torques on the frames are
 *     those on the beam ends).
 */
@sofaComponent({
  name: 'WireBeamInterpolation',
  category: 'FiniteElement',
  module: 'BeamAdapter',
  description:
    'The beams of an interventional radiology instrument, deployed along its WireRestShape by an InterventionalRadiologyController.',
  templates: ['Rigid3d'],
})
export class WireBeamInterpolation extends BaseObject implements BeamSet {
  readonly mstate = this.initLink(mstateLink('the Rigid3d state whose frames are the beam ends'));
  readonly WireRestShape = this.initLink<WireRestShape>({
    name: 'WireRestShape',
    help: 'the rest shape of the instrument (sections, materials, sampling)',
    accepts: (o): o is WireRestShape => o instanceof WireRestShape,
    expected: 'a WireRestShape',
    search: 'none',
  });
  readonly edgeList = this.initData({
    name: 'edgeList',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'the edges of the topology that are beams of this instrument (written by the controller)',
  });
  readonly lengthList = this.initData({
    name: 'lengthList',
    type: RealArray(1),
    default: new Float64Array(0),
    output: true,
    unit: 'm',
    help: 'rest length of each beam (written by the controller)',
  });
  readonly curvAbsList = this.initData({
    name: 'curvAbsList',
    type: RealArray(2),
    default: new Float64Array(0),
    output: true,
    unit: 'm',
    help: "curvilinear abscissae of each beam's ends on the instrument (written by the controller)",
  });
  readonly beamCollision = this.initData({
    name: 'beamCollision',
    type: Indices,
    default: new Uint32Array(0),
    output: true,
    help: 'beams of this instrument that collide (written by the controller)',
  });

  private state: BaseMechanicalState | undefined;
  private shape: WireRestShape | undefined;
  private ready = false;
  /** Set by the InterventionalRadiologyController that drives this instrument. */
  controlled = false;
  beamCount = 0;
  revision = 0;
  nodes = new Uint32Array(0);
  lengths = new Float64Array(0);
  young = new Float64Array(0);
  poisson = new Float64Array(0);
  densities = new Float64Array(0);
  restLocal = new Float64Array(0);
  /** (A, Iy, Iz, J) per beam. */
  private sections = new Float64Array(0);
  /** Curvilinear abscissae of the ends (2 per beam), twist θ and edge of each beam. */
  curvAbs = new Float64Array(0);
  private twist = new Float64Array(0);
  edges = new Uint32Array(0);
  /** Beams that collide (indices into this instrument's beams), count. */
  collisionBeams = new Uint32Array(0);
  collisionCount = 0;
  private topo: BaseMeshTopology | undefined;
  private readonly F = new Float64Array(21);
  private readonly tmp = new Float64Array(8);

  override init(): void {
    this.prepare();
  }

  override bwdInit(): void {
    if (!this.controlled)
      this.warn(
        'no InterventionalRadiologyController drives this instrument: it has no beams (list it in a controller\'s instruments="…")',
      );
  }

  prepare(): void {
    if (this.ready) return;
    const shape = this.WireRestShape.get();
    if (!shape) throw this.error('no WireRestShape: set WireRestShape="@path/to/restShape"');
    shape.prepare();
    this.shape = shape;
    const s = this.mstate.require();
    if (s.stateType.name !== 'Rigid3d') throw this.error(`needs a Rigid3d state (the beam frames); ${s.describe()} is ${s.stateType.name}`);
    this.state = s;
    if (!this.template) this.template = 'Rigid3d';
    const topo = contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: put the edge topology of the instruments (RegularGridTopology nx="…") in the node');
    this.topo = topo;
    const cap = topo.getEdges().length / 2;
    this.nodes = new Uint32Array(2 * cap);
    this.lengths = new Float64Array(cap);
    this.young = new Float64Array(cap);
    this.poisson = new Float64Array(cap);
    this.densities = new Float64Array(cap);
    this.restLocal = new Float64Array(12 * cap);
    this.sections = new Float64Array(4 * cap);
    this.curvAbs = new Float64Array(2 * cap);
    this.twist = new Float64Array(cap);
    this.edges = new Uint32Array(cap);
    this.collisionBeams = new Uint32Array(cap);
    this.ready = true;
  }

  getState(): BaseMechanicalState {
    return this.state!;
  }

  get restShape(): WireRestShape {
    return this.shape!;
  }

  /** Total rest length of the instrument. */
  get restTotalLength(): number {
    return this.shape!.totalLength;
  }

  /** Room for beams (the edges of the topology). */
  get capacity(): number {
    return this.lengths.length;
  }

  /** Starts a new list of beams (the controller's clear()). */
  clearBeams(): void {
    this.beamCount = 0;
  }

  /**
   * Appends beam (edge e, instrument abscissae s0 < s1, twist θ): its nodes, rest length s1 − s0,
   * material and section at s1, rest shape from the WireRestShape.
   */
  addBeam(e: number, s0: number, s1: number, theta: number): void {
    const b = this.beamCount;
    if (b >= this.capacity) throw this.error(`more beams than the ${this.capacity} edges of the topology`);
    const edges = this.topo!.getEdges();
    this.edges[b] = e;
    this.nodes[2 * b] = edges[2 * e];
    this.nodes[2 * b + 1] = edges[2 * e + 1];
    this.lengths[b] = s1 - s0;
    this.curvAbs[2 * b] = s0;
    this.curvAbs[2 * b + 1] = s1;
    this.twist[b] = theta;
    const shape = this.shape!,
      sec = shape.sectionAt(shape.sectionIndexAt(s1));
    this.young[b] = sec.youngModulus.value;
    this.poisson[b] = sec.poissonRatio.value;
    this.densities[b] = sec.massDensity.value;
    const S = sec.section;
    this.sections.set([S.A, S.Iy, S.Iz, S.J], 4 * b);
    // H_m⁻¹·H_0 and H_m⁻¹·H_1 of the rest frames
    const F = this.F;
    shape.restFrame(F, 0, s0);
    shape.restFrame(F, 7, s1);
    shape.restFrame(F, 14, (s0 + s1) / 2);
    localEndVector(this.restLocal, 12 * b, F, 0, F, 14, F, 17, this.tmp);
    localEndVector(this.restLocal, 12 * b + 6, F, 7, F, 14, F, 17, this.tmp);
    this.beamCount = b + 1;
  }

  /** Ends a list of beams: the outputs are written and the force fields rebuild their matrices. */
  commitBeams(): void {
    const n = this.beamCount;
    this.revision++;
    // views of the beams in use (no copy per step)
    this.edgeList.value = this.edges.subarray(0, n);
    this.lengthList.value = this.lengths.subarray(0, n);
    this.curvAbsList.value = this.curvAbs.subarray(0, 2 * n);
  }

  /** The first n entries of collisionBeams, written by the controller, are the beams that collide (its activateBeamListForCollision). */
  setCollisionCount(n: number): void {
    this.collisionCount = n;
    this.beamCollision.value = this.collisionBeams.subarray(0, n);
  }

  sectionOf(b: number, out: BeamSection): BeamSection {
    const S = this.sections;
    out.A = S[4 * b];
    out.Iy = S[4 * b + 1];
    out.Iz = S[4 * b + 2];
    out.J = S[4 * b + 3];
    out.Asy = 0;
    out.Asz = 0;
    return out;
  }

  /** A wire's beam ends are at its frames (its DOF-to-node twist only turns them about x: endFrames). */
  readonly dofToNode: Float64Array | undefined = undefined;

  /** The state's frames at the ends of beam b, turned about their x axis by θ: q ← q ⊗ q_x(θ). */
  endFrames(E: Float64Array, x: ArrayLike<number>, b: number): void {
    const o0 = 7 * this.nodes[2 * b],
      o1 = 7 * this.nodes[2 * b + 1];
    for (let c = 0; c < 7; c++) {
      E[c] = x[o0 + c];
      E[7 + c] = x[o1 + c];
    }
    const th = this.twist[b];
    if (th === 0) return;
    const s = Math.sin(th / 2),
      w = Math.cos(th / 2);
    for (const o of [3, 10]) {
      const qx = E[o],
        qy = E[o + 1],
        qz = E[o + 2],
        qw = E[o + 3];
      // (q ⊗ (s, 0, 0, w))
      E[o] = qw * s + qx * w;
      E[o + 1] = qy * w + qz * s;
      E[o + 2] = qz * w - qy * s;
      E[o + 3] = qw * w - qx * s;
    }
  }
}
