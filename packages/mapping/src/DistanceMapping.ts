import {
  Bool,
  Enum,
  Real,
  RealArray,
  addBlock3,
  contextMeshTopology,
  isTopology,
  sofaComponent,
  type BaseMeshTopology,
  type MatrixAccumulator,
  type SparseMatrixLike,
} from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from './mapping-component.js';

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
export class DistanceMapping extends MappingComponent {
  readonly computeDistance = this.initData({ name: 'computeDistance', type: Bool, default: false, help: 'if true, the rest lengths are zero (the output is the distance itself); otherwise they are the lengths at init' });
  readonly restLengths = this.initData({ name: 'restLengths', type: RealArray(1, 'vector<double>'), default: new Float64Array(0), unit: 'length', help: 'rest lengths of the connections' });
  readonly showObjectScale = this.initData({ name: 'showObjectScale', type: Real, default: 0, help: 'scale for object display', group: 'Visualization' });
  readonly showColor = this.initData({ name: 'showColor', type: RealArray(0, 'RGBAColor'), default: Float64Array.of(1, 1, 0, 1), help: 'color for object display', group: 'Visualization' });
  readonly geometricStiffness = this.initData({ name: 'geometricStiffness', type: Enum(['None', 'Exact', 'Stabilized']), default: 'Stabilized', help: 'method used to compute the geometric stiffness: None (not computed), Exact, Stabilized (only edges in tension, for stability)' });
  readonly topology = this.initLink<BaseMeshTopology>({ name: 'topology', help: 'link to the topology container (default: the topology of the context)', accepts: isTopology, expected: 'a topology' });

  /** (nE × 2) edges as read at init. */
  private edges = new Uint32Array(0);
  /** (nE) rest lengths as used. */
  private rest = new Float64Array(0);
  /** (nE × 3) unit directions u and (nE) inverse lengths (0 for a zero length), at the last apply. */
  private dirs = new Float64Array(0);
  private invLengths = new Float64Array(0);
  /** (nE × 6·nIn) J; a row holds the 3 columns of each end point in increasing order. */
  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  /** Coordinate and derivative sizes of the input. */
  private cIn = 3;
  private dIn = 3;
  /** Scratch 3×3 block I − uuᵀ. */
  private readonly block = new Float64Array(9);

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
      if (edges[k]! >= nIn) throw this.error(`edge ${k >> 1} of ${topo.describe()} names point ${edges[k]}, but the input has ${nIn} points`);
    }
    this.edges = edges;
    // Rest lengths: the given ones, else the current lengths (or zero with computeDistance).
    if (this.restLengths.value.length !== nE) {
      const rest = new Float64Array(nE);
      if (!this.computeDistance.value) {
        const x = this.from.x;
        for (let i = 0; i < nE; i++) rest[i] = this.length(x, edges[2 * i]!, edges[2 * i + 1]!);
      }
      this.restLengths.value = rest;
    }
    this.rest = Float64Array.from(this.restLengths.value);
    this.dirs = new Float64Array(3 * nE);
    this.invLengths = new Float64Array(nE);
    this.buildJPattern(nE, nIn);
    this.resizeOutput(nE);
    this.apply();
    const out = this.getTo();
    if (out) this.applyJ(out.v, [this.from.v]);
    if (this.applyRestPosition.value && out) {
      const x0 = this.from.x0;
      for (let i = 0; i < nE; i++) out.x0[i] = this.length(x0, edges[2 * i]!, edges[2 * i + 1]!) - this.rest[i]!;
    }
  }

  /** ‖p_b − p_a‖ from coordinates x. */
  private length(x: Float64Array, a: number, b: number): number {
    const oa = a * this.cIn, ob = b * this.cIn;
    return Math.hypot(x[ob]! - x[oa]!, x[ob + 1]! - x[oa + 1]!, x[ob + 2]! - x[oa + 2]!);
  }

  private buildJPattern(nE: number, nIn: number): void {
    const d = this.dIn;
    const rowPtr = new Int32Array(nE + 1);
    const cols: number[] = [];
    for (let i = 0; i < nE; i++) {
      const a = this.edges[2 * i]!, b = this.edges[2 * i + 1]!;
      const lo = Math.min(a, b), hi = Math.max(a, b);
      for (let k = 0; k < 3; k++) cols.push(lo * d + k);
      if (hi !== lo) for (let k = 0; k < 3; k++) cols.push(hi * d + k);
      rowPtr[i + 1] = cols.length;
    }
    this.J = createCsr(nE, nIn * d, rowPtr, Int32Array.from(cols));
  }

  get isLinear(): boolean {
    return false;
  }

  apply(): void {
    const x = this.from.x;
    const out = this.outputPositions();
    const e = this.edges, u = this.dirs, cIn = this.cIn;
    const { rowPtr, values } = this.J;
    const fallback = 1 / Math.sqrt(3);
    for (let i = 0; i < this.rest.length; i++) {
      const a = e[2 * i]!, b = e[2 * i + 1]!;
      const oa = a * cIn, ob = b * cIn;
      const gx = x[ob]! - x[oa]!, gy = x[ob + 1]! - x[oa + 1]!, gz = x[ob + 2]! - x[oa + 2]!;
      const len = Math.sqrt(gx * gx + gy * gy + gz * gz);
      out[i] = len - this.rest[i]!;
      // u = gap / ‖gap‖, or an arbitrary unit vector for a zero length
      if (len > Number.EPSILON) {
        const inv = 1 / len;
        this.invLengths[i] = inv;
        u[3 * i] = gx * inv;
        u[3 * i + 1] = gy * inv;
        u[3 * i + 2] = gz * inv;
      } else {
        this.invLengths[i] = 0;
        u[3 * i] = u[3 * i + 1] = u[3 * i + 2] = fallback;
      }
      // J row: the lower-indexed end first
      const p = rowPtr[i]!;
      const first = a < b ? -1 : a > b ? 1 : 0;
      for (let k = 0; k < 3; k++) {
        values[p + k] = first * u[3 * i + k]!;
        if (a !== b) values[p + 3 + k] = -first * u[3 * i + k]!;
      }
    }
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const v = ins[0]!;
    const e = this.edges, u = this.dirs, d = this.dIn;
    for (let i = 0; i < this.rest.length; i++) {
      const oa = e[2 * i]! * d, ob = e[2 * i + 1]! * d;
      out[i] = u[3 * i]! * (v[ob]! - v[oa]!) + u[3 * i + 1]! * (v[ob + 1]! - v[oa + 1]!) + u[3 * i + 2]! * (v[ob + 2]! - v[oa + 2]!);
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const f = ins[0]!;
    const e = this.edges, u = this.dirs, d = this.dIn;
    for (let i = 0; i < this.rest.length; i++) {
      const oa = e[2 * i]! * d, ob = e[2 * i + 1]! * d;
      for (let k = 0; k < 3; k++) {
        const fk = u[3 * i + k]! * out[i]!;
        f[oa + k] -= fk;
        f[ob + k] += fk;
      }
    }
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }

  /** Scale s_i of edge i's block (f_i/l_i, or 0 when `stabilized` and the edge is compressed). */
  private blockScale(i: number, childForce: Float64Array, stabilized: boolean): number {
    const f = childForce[i]!;
    if (stabilized && !(f < 0)) return 0;
    return f * this.invLengths[i]!;
  }

  /** block ← I − uuᵀ for edge i. */
  private projector(i: number): Float64Array {
    const u = this.dirs, B = this.block;
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) B[3 * r + c] = (r === c ? 1 : 0) - u[3 * i + r]! * u[3 * i + c]!;
    return B;
  }

  override applyDJT(dfIns: readonly Float64Array[], dxIns: readonly Float64Array[], childForce: Float64Array, kFactor: number): void {
    const mode = this.geometricStiffness.value;
    if (mode === 'None') return;
    const stabilized = mode === 'Stabilized';
    const df = dfIns[0]!, dx = dxIns[0]!;
    const e = this.edges, u = this.dirs, d = this.dIn;
    for (let i = 0; i < this.rest.length; i++) {
      const s = kFactor * this.blockScale(i, childForce, stabilized);
      if (s === 0) continue;
      const oa = e[2 * i]! * d, ob = e[2 * i + 1]! * d;
      // δ = dx_b − dx_a;  g = s·(δ − u(u·δ));  df_a −= g, df_b += g
      const dX = dx[ob]! - dx[oa]!, dY = dx[ob + 1]! - dx[oa + 1]!, dZ = dx[ob + 2]! - dx[oa + 2]!;
      const ux = u[3 * i]!, uy = u[3 * i + 1]!, uz = u[3 * i + 2]!;
      const ud = ux * dX + uy * dY + uz * dZ;
      const gx = s * (dX - ux * ud), gy = s * (dY - uy * ud), gz = s * (dZ - uz * ud);
      df[oa] -= gx; df[oa + 1] -= gy; df[oa + 2] -= gz;
      df[ob] += gx; df[ob + 1] += gy; df[ob + 2] += gz;
    }
  }

  override addGeometricStiffness(acc: MatrixAccumulator, childForce: Float64Array, kFactor: number): void {
    const mode = this.geometricStiffness.value;
    if (mode === 'None') return;
    const stabilized = mode === 'Stabilized';
    const e = this.edges, d = this.dIn;
    // Four 3×3 blocks per edge, every edge every call (zeros included) to keep the pattern.
    for (let i = 0; i < this.rest.length; i++) {
      const s = kFactor * this.blockScale(i, childForce, stabilized);
      const B = this.projector(i);
      const oa = e[2 * i]! * d, ob = e[2 * i + 1]! * d;
      addBlock3(acc, oa, oa, B, 0, s);
      addBlock3(acc, oa, ob, B, 0, -s);
      addBlock3(acc, ob, oa, B, 0, -s);
      addBlock3(acc, ob, ob, B, 0, s);
    }
  }
}
