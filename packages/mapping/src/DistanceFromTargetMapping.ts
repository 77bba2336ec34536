import {
  Enum,
  Indices,
  Real,
  RealArray,
  addBlock3,
  sofaComponent,
  type MatrixAccumulator,
  type SparseMatrixLike,
} from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from './mapping-component.js';

const templates = ['Vec3d,Vec1d', 'Vec1d,Vec1d', 'Rigid3d,Vec1d'];

/**
 * SOFA's DistanceFromTargetMapping: for each parent point p_{idx_i} (`indices`) and its target t_i
 * (`targetPositions`),
 *   e_i = ‖p_{idx_i} − t_i‖ − r_i,   J row i = uᵀ at point idx_i,  u = (p − t)/‖p − t‖
 * (p the position, the centre for rigid frames). With a compliance on e_i it pins a particle at a
 * distance r_i of a fixed point (a pendulum rod); with a stiffness, a spring to that point.
 * Geometric stiffness for the child force f_i: K = (f_i/l)(I − uuᵀ) on the block (idx_i, idx_i);
 * `geometricStiffness` None / Exact / Stabilized (default: only f_i < 0, points pulled back).
 * For Rigid3d parents the rotation block gets nothing (SOFA's block puts f/l·I there; sofa-ts keeps
 * the exact derivative). Unset rest distances (`restLengths`) are 0. Below a length of 1e-10,
 * u is the x axis and K is zero.
 */
@sofaComponent({
  name: 'DistanceFromTargetMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.NonLinear',
  description: 'Distances of parent points to target positions, minus rest distances.',
  templates,
})
export class DistanceFromTargetMapping extends MappingComponent {
  readonly indices = this.initData({ name: 'indices', type: Indices, default: new Uint32Array(0), help: 'indices of the parent points' });
  readonly targetPositions = this.initData({ name: 'targetPositions', type: RealArray(1, 'vector<Coord>'), default: new Float64Array(0), help: 'positions to compute the distances from (one coordinate of the input type per index)' });
  readonly restLengths = this.initData({ name: 'restLengths', type: RealArray(1, 'vector<double>'), default: new Float64Array(0), unit: 'length', help: 'rest lengths of the connections (0 when unset)' });
  readonly showObjectScale = this.initData({ name: 'showObjectScale', type: Real, default: 0, help: 'scale for object display', group: 'Visualization' });
  readonly showColor = this.initData({ name: 'showColor', type: RealArray(0, 'RGBAColor'), default: Float64Array.of(1, 1, 0, 1), help: 'color for object display', group: 'Visualization' });
  readonly geometricStiffness = this.initData({ name: 'geometricStiffness', type: Enum(['None', 'Exact', 'Stabilized']), default: 'Stabilized', help: 'method used to compute the geometric stiffness: None (not computed), Exact, Stabilized (only points pulled back, for stability)' });

  /** (n) parent point of each output, (n) rest distances. */
  private idx = new Uint32Array(0);
  private rest = new Float64Array(0);
  /** (n × sd) unit directions and (n) inverse lengths (0 below 1e-10) at the last apply. */
  private dirs = new Float64Array(0);
  private invLengths = new Float64Array(0);
  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  /** Spatial dimension, coordinate and derivative sizes of the input. */
  private sd = 3;
  private cIn = 3;
  private dIn = 3;
  /** Scratch sd×sd block I − uuᵀ. */
  private readonly block = new Float64Array(9);

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(templates);
    const tin = this.inType();
    this.sd = tin.spatialDimensions;
    this.cIn = tin.coordSize;
    this.dIn = tin.derivSize;
    const idx = this.indices.value;
    const n = idx.length;
    const nIn = this.from.size;
    for (let i = 0; i < n; i++) if (idx[i]! >= nIn) throw this.error(`index ${idx[i]} is not a point of the input (it has ${nIn})`);
    const nt = this.targetPositions.value.length;
    if (nt !== n * this.cIn) throw this.error(`${n} indices but targetPositions holds ${nt / this.cIn} ${tin.name} positions (${nt} numbers)`, 'give one target position per index');
    // Unset rest distances are zero.
    const given = this.restLengths.value;
    if (given.length !== n) {
      const r = new Float64Array(n);
      r.set(given.subarray(0, Math.min(n, given.length)));
      this.restLengths.value = r;
    }
    this.idx = Uint32Array.from(idx);
    this.rest = Float64Array.from(this.restLengths.value);
    this.dirs = new Float64Array(n * this.sd);
    this.invLengths = new Float64Array(n);
    // J: row i holds the sd spatial columns of point idx_i.
    const rowPtr = new Int32Array(n + 1);
    const colInd = new Int32Array(n * this.sd);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < this.sd; k++) colInd[i * this.sd + k] = this.idx[i]! * this.dIn + k;
      rowPtr[i + 1] = (i + 1) * this.sd;
    }
    this.J = createCsr(n, nIn * this.dIn, rowPtr, colInd);
    this.resizeOutput(n);
    this.apply();
    const out = this.getTo();
    if (out) this.applyJ(out.v, [this.from.v]);
    if (this.applyRestPosition.value && out) this.distances(out.x0, this.from.x0, false);
  }

  get isLinear(): boolean {
    return false;
  }

  /** out_i = ‖p − t‖ − r_i; with `update`, the directions, inverse lengths and J values too. */
  private distances(out: Float64Array, x: Float64Array, update: boolean): void {
    const t = this.targetPositions.value;
    const sd = this.sd, cIn = this.cIn;
    const u = this.dirs, J = this.J.values;
    for (let i = 0; i < this.idx.length; i++) {
      const op = this.idx[i]! * cIn, ot = i * cIn;
      let s = 0;
      for (let k = 0; k < sd; k++) s += (x[op + k]! - t[ot + k]!) ** 2;
      const len = Math.sqrt(s);
      out[i] = len - this.rest[i]!;
      if (!update) continue;
      const inv = len > 1e-10 ? 1 / len : 0;
      this.invLengths[i] = inv;
      for (let k = 0; k < sd; k++) u[i * sd + k] = inv > 0 ? (x[op + k]! - t[ot + k]!) * inv : k === 0 ? 1 : 0;
      for (let k = 0; k < sd; k++) J[i * sd + k] = u[i * sd + k]!;
    }
  }

  apply(): void {
    this.distances(this.outputPositions(), this.from.x, true);
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const v = ins[0]!;
    const sd = this.sd, d = this.dIn, u = this.dirs;
    for (let i = 0; i < this.idx.length; i++) {
      const o = this.idx[i]! * d;
      let s = 0;
      for (let k = 0; k < sd; k++) s += u[i * sd + k]! * v[o + k]!;
      out[i] = s;
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const f = ins[0]!;
    const sd = this.sd, d = this.dIn, u = this.dirs;
    for (let i = 0; i < this.idx.length; i++) {
      const o = this.idx[i]! * d;
      for (let k = 0; k < sd; k++) f[o + k] += u[i * sd + k]! * out[i]!;
    }
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }

  /** f_i/l_i, or 0 when `stabilized` and the point is pushed away (f_i ≥ 0). */
  private blockScale(i: number, childForce: Float64Array, stabilized: boolean): number {
    const f = childForce[i]!;
    if (stabilized && !(f < 0)) return 0;
    return f * this.invLengths[i]!;
  }

  /** block ← I − uuᵀ (sd × sd, row-major) for output i. */
  private projector(i: number): Float64Array {
    const sd = this.sd, u = this.dirs, B = this.block;
    for (let r = 0; r < sd; r++) for (let c = 0; c < sd; c++) B[sd * r + c] = (r === c ? 1 : 0) - u[i * sd + r]! * u[i * sd + c]!;
    return B;
  }

  override applyDJT(dfIns: readonly Float64Array[], dxIns: readonly Float64Array[], childForce: Float64Array, kFactor: number): void {
    const mode = this.geometricStiffness.value;
    if (mode === 'None') return;
    const stabilized = mode === 'Stabilized';
    const df = dfIns[0]!, dx = dxIns[0]!;
    const sd = this.sd, d = this.dIn, u = this.dirs;
    for (let i = 0; i < this.idx.length; i++) {
      const s = kFactor * this.blockScale(i, childForce, stabilized);
      if (s === 0) continue;
      const o = this.idx[i]! * d;
      // df += s·(dx − u(u·dx))
      let ud = 0;
      for (let k = 0; k < sd; k++) ud += u[i * sd + k]! * dx[o + k]!;
      for (let k = 0; k < sd; k++) df[o + k] += s * (dx[o + k]! - u[i * sd + k]! * ud);
    }
  }

  override addGeometricStiffness(acc: MatrixAccumulator, childForce: Float64Array, kFactor: number): void {
    const mode = this.geometricStiffness.value;
    if (mode === 'None') return;
    const stabilized = mode === 'Stabilized';
    const sd = this.sd, d = this.dIn;
    // One sd×sd block per output, every call (zeros included) to keep the pattern.
    for (let i = 0; i < this.idx.length; i++) {
      const s = kFactor * this.blockScale(i, childForce, stabilized);
      const B = this.projector(i);
      const o = this.idx[i]! * d;
      if (sd === 3) addBlock3(acc, o, o, B, 0, s);
      else for (let r = 0; r < sd; r++) for (let c = 0; c < sd; c++) acc.add(o + r, o + c, s * B[sd * r + c]!);
    }
  }
}
