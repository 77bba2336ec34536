/**
 * The law shared by DistanceMapping (p, q the two ends of an edge) and DistanceFromTargetMapping
 * (p a parent point, q a fixed target): one scalar output per pair,
 *   e = ‖p − q‖ − r,   u = (p − q)/‖p − q‖,   J row = (+uᵀ at p, −uᵀ at q)
 * (q fixed: no −uᵀ block), and the geometric stiffness for the child force λ, ∂(Jᵀλ)/∂x:
 *   K = λ/‖p − q‖·(I − uuᵀ) on the blocks (p, p) and (q, q), −K on (p, q) and (q, p).
 * `geometricStiffness`: None (ignored), Exact, or Stabilized (only λ < 0, pairs in tension /
 * points pulled back, so that compression cannot make the system indefinite).
 * Below the mapping's minimum length u is the mapping's fallback unit vector and K is zero.
 * DistanceDirections holds the per-pair numbers; DistanceLawMapping is the mapping side of it.
 */
import { Enum, addBlock3, type MatrixAccumulator, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from './mapping-component.js';

/** Data type of the `geometricStiffness` option of both mappings (the methods below take its value). */
export const GeometricStiffnessMethod = Enum(['None', 'Exact', 'Stabilized']);

/**
 * Directions u and inverse lengths of n pairs in sd spatial dimensions, with the derivative-space
 * offsets of their ends, and the Jacobian / geometric-stiffness products that follow from them.
 * Sized once (init); nothing is allocated by the per-step methods.
 */
export class DistanceDirections {
  /** (n × sd) unit directions u at the last update. */
  readonly dirs: Float64Array;
  /** (n) 1/‖p − q‖, 0 at or below minLength. */
  readonly invLengths: Float64Array;
  /** (n) derivative offset of p, (n) of q (−1 for a fixed target). */
  readonly pOff: Int32Array;
  readonly qOff: Int32Array;
  /** Scratch sd×sd block I − uuᵀ (row-major), and (sd) δ of applyDJT. */
  private readonly block = new Float64Array(9);
  private readonly delta = new Float64Array(3);

  /**
   * n pairs in sd (≤ 3) dimensions; lengths ≤ minLength take the direction `fallback` (sd numbers)
   * and a zero inverse length.
   */
  constructor(
    n: number,
    readonly sd: number,
    private readonly minLength: number,
    private readonly fallback: readonly number[],
  ) {
    this.dirs = new Float64Array(n * sd);
    this.invLengths = new Float64Array(n);
    this.pOff = new Int32Array(n);
    this.qOff = new Int32Array(n).fill(-1);
  }

  /** Number of pairs. */
  get size(): number {
    return this.invLengths.length;
  }

  /** ‖p − q‖ with p = x[op..op+sd), q = y[oq..oq+sd). */
  distance(x: Float64Array, op: number, y: Float64Array, oq: number): number {
    let s = 0;
    for (let k = 0; k < this.sd; k++) {
      const g = x[op + k] - y[oq + k];
      s += g * g;
    }
    return Math.sqrt(s);
  }

  /** ‖p − q‖ of pair i (p = x[op..), q = y[oq..)); sets u_i and 1/‖p − q‖. */
  update(i: number, x: Float64Array, op: number, y: Float64Array, oq: number): number {
    const sd = this.sd,
      u = this.dirs;
    const len = this.distance(x, op, y, oq);
    if (len > this.minLength) {
      const inv = 1 / len;
      this.invLengths[i] = inv;
      for (let k = 0; k < sd; k++) u[i * sd + k] = (x[op + k] - y[oq + k]) * inv;
    } else {
      this.invLengths[i] = 0;
      for (let k = 0; k < sd; k++) u[i * sd + k] = this.fallback[k];
    }
    return len;
  }

  /** out_i = u_i · (v_p − v_q) (v_q = 0 for a fixed target). */
  applyJ(out: Float64Array, v: Float64Array): void {
    const sd = this.sd,
      u = this.dirs,
      pOff = this.pOff,
      qOff = this.qOff;
    for (let i = 0; i < pOff.length; i++) {
      const op = pOff[i],
        oq = qOff[i];
      let s = 0;
      if (oq < 0) for (let k = 0; k < sd; k++) s += u[i * sd + k] * v[op + k];
      else for (let k = 0; k < sd; k++) s += u[i * sd + k] * (v[op + k] - v[oq + k]);
      out[i] = s;
    }
  }

  /** f_p += u_i λ_i, f_q −= u_i λ_i. */
  applyJT(f: Float64Array, lambda: Float64Array): void {
    const sd = this.sd,
      u = this.dirs,
      pOff = this.pOff,
      qOff = this.qOff;
    for (let i = 0; i < pOff.length; i++) {
      const op = pOff[i],
        oq = qOff[i];
      for (let k = 0; k < sd; k++) {
        const fk = u[i * sd + k] * lambda[i];
        if (oq >= 0) f[oq + k] -= fk;
        f[op + k] += fk;
      }
    }
  }

  /** Scale of pair i's block: λ_i/l_i, or 0 when `stabilized` and λ_i ≥ 0. */
  private blockScale(i: number, childForce: Float64Array, stabilized: boolean): number {
    const f = childForce[i];
    if (stabilized && !(f < 0)) return 0;
    return f * this.invLengths[i];
  }

  /** block ← I − uuᵀ (sd × sd, row-major) for pair i. */
  private projector(i: number): Float64Array {
    const sd = this.sd,
      u = this.dirs,
      B = this.block;
    for (let r = 0; r < sd; r++) for (let c = 0; c < sd; c++) B[sd * r + c] = (r === c ? 1 : 0) - u[i * sd + r] * u[i * sd + c];
    return B;
  }

  /** df += kFactor·K·dx: per pair, g = s·(δ − u(u·δ)) with δ = dx_p − dx_q;  df_p += g, df_q −= g. */
  applyDJT(df: Float64Array, dx: Float64Array, childForce: Float64Array, kFactor: number, method: string): void {
    if (method === 'None') return;
    const stabilized = method === 'Stabilized';
    const sd = this.sd,
      u = this.dirs,
      pOff = this.pOff,
      qOff = this.qOff;
    const delta = this.delta;
    for (let i = 0; i < pOff.length; i++) {
      const s = kFactor * this.blockScale(i, childForce, stabilized);
      if (s === 0) continue;
      const op = pOff[i],
        oq = qOff[i];
      let ud = 0;
      for (let k = 0; k < sd; k++) {
        delta[k] = oq < 0 ? dx[op + k] : dx[op + k] - dx[oq + k];
        ud += u[i * sd + k] * delta[k];
      }
      for (let k = 0; k < sd; k++) {
        const g = s * (delta[k] - u[i * sd + k] * ud);
        if (oq >= 0) df[oq + k] -= g;
        df[op + k] += g;
      }
    }
  }

  /**
   * kFactor·K into acc: per pair, the sd×sd blocks (q,q), (q,p), (p,q), (p,p) (only (p,p) for a
   * fixed target), every pair every call (zeros included) to keep the pattern.
   */
  addGeometricStiffness(acc: MatrixAccumulator, childForce: Float64Array, kFactor: number, method: string): void {
    if (method === 'None') return;
    const stabilized = method === 'Stabilized';
    const pOff = this.pOff,
      qOff = this.qOff;
    for (let i = 0; i < pOff.length; i++) {
      const s = kFactor * this.blockScale(i, childForce, stabilized);
      const B = this.projector(i);
      const op = pOff[i],
        oq = qOff[i];
      if (oq >= 0) {
        this.addBlock(acc, oq, oq, B, s);
        this.addBlock(acc, oq, op, B, -s);
        this.addBlock(acc, op, oq, B, -s);
      }
      this.addBlock(acc, op, op, B, s);
    }
  }

  private addBlock(acc: MatrixAccumulator, row: number, col: number, B: Float64Array, s: number): void {
    const sd = this.sd;
    if (sd === 3) addBlock3(acc, row, col, B, 0, s);
    else for (let r = 0; r < sd; r++) for (let c = 0; c < sd; c++) acc.add(row + r, col + c, s * B[sd * r + c]);
  }
}

/**
 * Base of the two distance mappings: once a subclass's init has sized `law` (with the end offsets)
 * and `J`, and its apply has updated the directions and J's values, the Jacobian products and the
 * geometric stiffness follow the law above.
 */
export abstract class DistanceLawMapping extends MappingComponent {
  /** The `geometricStiffness` Data of the subclass (None, Exact or Stabilized). */
  abstract readonly geometricStiffness: { readonly value: string };
  /** Directions, inverse lengths and end offsets of the pairs (sized by init). */
  protected law = new DistanceDirections(0, 3, 0, []);
  /** (n × nIn·dIn) J (pattern by init, values by apply). */
  protected J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));

  get isLinear(): boolean {
    return false;
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    this.law.applyJ(out, ins[0]);
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    this.law.applyJT(ins[0], out);
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }

  override applyDJT(dfIns: readonly Float64Array[], dxIns: readonly Float64Array[], childForce: Float64Array, kFactor: number): void {
    this.law.applyDJT(dfIns[0], dxIns[0], childForce, kFactor, this.geometricStiffness.value);
  }

  override addGeometricStiffness(acc: MatrixAccumulator, childForce: Float64Array, kFactor: number): void {
    this.law.addGeometricStiffness(acc, childForce, kFactor, this.geometricStiffness.value);
  }
}
