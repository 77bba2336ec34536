import { Bool, Real, RealArray, contextMeshTopology, isTopology, sofaComponent, type BaseMeshTopology } from '@sofa-ts/core';
import { createCsr } from '@sofa-ts/linalg';
import { DistanceDirections, DistanceLawMapping, GeometricStiffnessMethod } from './distance-law.js';

const templates = ['Vec3d,Vec1d', 'Rigid3d,Vec1d'];

/**
 * SOFA's DistanceMapping: each edge (a, b) of the topology gives the scalar
 *   e = ‖p_b − p_a‖ − l0,   J = (−uᵀ at a, +uᵀ at b),  u = (p_b − p_a)/‖p_b − p_a‖
 * (p the position, the centre for rigid frames; rotations do not enter). A compliance on e is a
 * stiff or hard distance constraint, a stiffness k on it a spring of force −k·e.
 * Geometric stiffness for the child force f_e (a scalar per edge): ∂(Jᵀf)/∂x is, per edge,
 *   K = (f_e/l)(I − uuᵀ) on the blocks (a,a) and (b,b), −K on (a,b) and (b,a).
 * `geometricStiffness`: None (ignored), Exact, or Stabilized (SOFA's default: only edges in
 * tension, f_e < 0, contribute, so that compression cannot make the system indefinite).
 * The law (directions, J products, geometric stiffness) is distance-law.ts's, with p = p_b, q = p_a.
 * Rest lengths: `restLengths` when it has one per edge, else the lengths at init (zero with
 * computeDistance). At a zero length u is arbitrary ((1, 1, 1)/√3 as in SOFA) and K_geo is
 * zero; an edge joining a point to itself has a zero J row. Named ExtensionMapping before 2014
 * (kept as an alias, as the Compliant plugin's older scenes use it).
 */
@sofaComponent({
  name: 'DistanceMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.NonLinear',
  description: 'Lengths of the edges of a topology, minus their rest lengths.',
  templates,
  aliases: ['ExtensionMapping'],
})
export class DistanceMapping extends DistanceLawMapping {
  readonly computeDistance = this.initData({
    name: 'computeDistance',
    type: Bool,
    default: false,
    help: 'if true, the rest lengths are zero (the output is the distance itself); otherwise they are the lengths at init',
  });
  readonly restLengths = this.initData({
    name: 'restLengths',
    type: RealArray(1, 'vector<double>'),
    default: new Float64Array(0),
    unit: 'length',
    help: 'rest lengths of the connections',
  });
  readonly showObjectScale = this.initData({
    name: 'showObjectScale',
    type: Real,
    default: 0,
    help: 'scale for object display',
    group: 'Visualization',
  });
  readonly showColor = this.initData({
    name: 'showColor',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(1, 1, 0, 1),
    help: 'color for object display',
    group: 'Visualization',
  });
  readonly geometricStiffness = this.initData({
    name: 'geometricStiffness',
    type: GeometricStiffnessMethod,
    default: 'Stabilized',
    help: 'method used to compute the geometric stiffness: None (not computed), Exact, Stabilized (only edges in tension, for stability)',
  });
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'link to the topology container (default: the topology of the context)',
    accepts: isTopology,
    expected: 'a topology',
  });

  /** (nE × 2) edges as read at init. */
  private edges = new Uint32Array(0);
  /** (nE) rest lengths as used. */
  private rest = new Float64Array(0);
  /** Coordinate and derivative sizes of the input. */
  private cIn = 3;
  private dIn = 3;

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(templates);
    this.cIn = this.inType().coordSize;
    this.dIn = this.inType().derivSize;
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: add an edge topology (e.g. MeshTopology) in this node or above, or set topology="@path"');
    this.topology.set(topo);
    const edges = Uint32Array.from(topo.getEdges());
    const nE = edges.length / 2;
    if (nE < 1) throw this.error(`topology ${topo.describe()} has no edges`);
    const nIn = this.from.size;
    for (let k = 0; k < edges.length; k++) {
      if (edges[k] >= nIn)
        throw this.error(`edge ${k >> 1} of ${topo.describe()} names point ${edges[k]}, but the input has ${nIn} points`);
    }
    this.edges = edges;
    // Rest lengths: the given ones, else the current lengths (or zero with computeDistance).
    if (this.restLengths.value.length !== nE) {
      const rest = new Float64Array(nE);
      if (!this.computeDistance.value) {
        const x = this.from.x;
        for (let i = 0; i < nE; i++) rest[i] = this.length(x, edges[2 * i], edges[2 * i + 1]);
      }
      this.restLengths.value = rest;
    }
    this.rest = Float64Array.from(this.restLengths.value);
    // Pairs p = p_b, q = p_a; u = (1, 1, 1)/√3 at a zero length.
    const fallback = 1 / Math.sqrt(3);
    this.law = new DistanceDirections(nE, 3, Number.EPSILON, [fallback, fallback, fallback]);
    for (let i = 0; i < nE; i++) {
      this.law.pOff[i] = edges[2 * i + 1] * this.dIn;
      this.law.qOff[i] = edges[2 * i] * this.dIn;
    }
    this.buildJPattern(nE, nIn);
    this.resizeOutput(nE);
    this.apply();
    const out = this.getTo();
    if (out) this.applyJ(out.v, [this.from.v]);
    if (this.applyRestPosition.value && out) {
      const x0 = this.from.x0;
      for (let i = 0; i < nE; i++) out.x0[i] = this.length(x0, edges[2 * i], edges[2 * i + 1]) - this.rest[i];
    }
  }

  /** ‖p_b − p_a‖ from coordinates x. */
  private length(x: Float64Array, a: number, b: number): number {
    const oa = a * this.cIn,
      ob = b * this.cIn;
    return Math.hypot(x[ob] - x[oa], x[ob + 1] - x[oa + 1], x[ob + 2] - x[oa + 2]);
  }

  /** J (nE × 3·nIn for Vec3): a row holds the 3 columns of each end point in increasing order. */
  private buildJPattern(nE: number, nIn: number): void {
    const d = this.dIn;
    const rowPtr = new Int32Array(nE + 1);
    const cols: number[] = [];
    for (let i = 0; i < nE; i++) {
      const a = this.edges[2 * i],
        b = this.edges[2 * i + 1];
      const lo = Math.min(a, b),
        hi = Math.max(a, b);
      for (let k = 0; k < 3; k++) cols.push(lo * d + k);
      if (hi !== lo) for (let k = 0; k < 3; k++) cols.push(hi * d + k);
      rowPtr[i + 1] = cols.length;
    }
    this.J = createCsr(nE, nIn * d, rowPtr, Int32Array.from(cols));
  }

  apply(): void {
    const x = this.from.x;
    const out = this.outputPositions();
    const e = this.edges,
      u = this.law.dirs,
      cIn = this.cIn;
    const { rowPtr, values } = this.J;
    for (let i = 0; i < this.rest.length; i++) {
      const a = e[2 * i],
        b = e[2 * i + 1];
      out[i] = this.law.update(i, x, b * cIn, x, a * cIn) - this.rest[i];
      // J row: the lower-indexed end first
      const p = rowPtr[i];
      const first = a < b ? -1 : a > b ? 1 : 0;
      for (let k = 0; k < 3; k++) {
        values[p + k] = first * u[3 * i + k];
        if (a !== b) values[p + 3 + k] = -first * u[3 * i + k];
      }
    }
    this.touchOutput();
  }
}
