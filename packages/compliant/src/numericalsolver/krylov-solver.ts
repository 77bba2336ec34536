import { BaseKKTSolver, Bool, nonNegative, Real, UInt, type BaseResponse, type KKTSystem } from '@sofa-ts/core';
import type { LinearOperator } from '@sofa-ts/linalg';
import { findResponse, symmetricRhs } from './kkt-support.js';
import type { KrylovResult } from './minres.js';

/**
 * Shared part of the Compliant plugin's iterative KKT solvers (MinresSolver, CgSolver): with a
 * Response in the node they iterate on the Schur complement of the constraints,
 *   (J·R⁻¹·Jᵀ + C + damping·I)·λ = b − J·v₀,   v₀ = R⁻¹·P·c,   v = v₀ + R⁻¹·Jᵀ·λ
 * (J standing for J·P), matrix-free (one response solve per product); without one they iterate
 * on the whole symmetric KKT system [H −Jᵀ; −J −C − damping·I]·[v; λ] = [P·c; −b]. The unknowns
 * start from x (warm start). They stop when the residual norm is below `precision` (times the
 * right-hand side's norm when `relative`) or after `iterations`.
 */
export abstract class KrylovKKTSolver extends BaseKKTSolver {
  readonly iterations = this.initData({ name: 'iterations', type: UInt, default: 10, help: 'iteration bound' });
  readonly precision = this.initData({ name: 'precision', type: Real, default: 1e-3, range: nonNegative, help: 'residual norm threshold' });
  readonly relative = this.initData({ name: 'relative', type: Bool, default: false, help: 'use relative precision' });
  readonly verbose = this.initData({
    name: 'verbose',
    type: Bool,
    default: false,
    help: 'print the iterations and residual of each solve',
  });
  readonly restart = this.initData({
    name: 'restart',
    type: UInt,
    default: 0,
    help: 'restart every n steps (not provided: every solve starts from the previous solution; a warning says so when set)',
  });
  readonly parallel = this.initData({
    name: 'parallel',
    type: Bool,
    default: false,
    help: 'parallel products (accepted; products are sequential)',
  });

  protected response: BaseResponse | undefined;
  private sys!: KKTSystem;
  private damping = 0;
  /** Work vectors: (m) tmpM, tmpM2; (n) tmpN; (m + n) rhs. */
  private tmpM = new Float64Array(0);
  private tmpM2 = new Float64Array(0);
  private tmpN = new Float64Array(0);
  private rhsBuf = new Float64Array(0);
  protected readonly result: KrylovResult = { iterations: 0, residual: 0 };
  private readonly schurOp: LinearOperator = (out, lambda) => this.applySchur(out, lambda);
  private readonly kktOp: LinearOperator = (out, x) => this.applyKKT(out, x);

  /** Runs the method on A·x = b from x's content, with the given stopping rule. */
  protected abstract iterate(
    apply: LinearOperator,
    b: Float64Array,
    x: Float64Array,
    maxIterations: number,
    tolerance: number,
    out: KrylovResult,
  ): void;

  /** The method's name for messages. */
  protected abstract get method(): string;

  override init(): void {
    this.response = findResponse(this.context);
    if (this.restart.value !== 0)
      this.warnAbout(
        this.restart,
        `restart=${this.restart.value} is not honoured: every solve starts from the previous solution (warm start)`,
      );
  }

  factor(sys: KKTSystem): void {
    if (this.response) this.response.factor(sys.H, !sys.isPIdentity);
  }

  solve(x: Float64Array, sys: KKTSystem, rhs: Float64Array): void {
    this.run(x, sys, rhs, 0);
  }

  override correct(x: Float64Array, sys: KKTSystem, rhs: Float64Array, damping: number): void {
    this.run(x, sys, rhs, damping);
  }

  private run(x: Float64Array, sys: KKTSystem, rhs: Float64Array, damping: number): void {
    const t0 = performance.now();
    const { m, n } = sys;
    this.sys = sys;
    this.damping = damping;
    if (this.tmpM.length < m) {
      this.tmpM = new Float64Array(m);
      this.tmpM2 = new Float64Array(m);
    }
    if (this.tmpN.length < n) this.tmpN = new Float64Array(n);
    if (this.rhsBuf.length < m + n) this.rhsBuf = new Float64Array(m + n);
    this.result.iterations = 0;
    this.result.residual = 0;
    if (this.response) this.solveSchur(x, sys, rhs);
    else this.solveKKT(x, sys, rhs);
    if (this.verbose.value)
      console.log(
        `${this.describe()}: ${this.method} (${this.response ? 'schur' : 'kkt'}) - iterations: ${this.result.iterations}, residual: ${this.result.residual}`,
      );
    this.lastStats = { iterations: this.result.iterations, residual: this.result.residual, timeMs: performance.now() - t0 };
  }

  private tolerance(b: Float64Array): number {
    let p = this.precision.value;
    if (this.relative.value) {
      let s = 0;
      for (let i = 0; i < b.length; i++) s += b[i] * b[i];
      p *= Math.sqrt(s);
    }
    return p;
  }

  private solveSchur(x: Float64Array, sys: KKTSystem, rhs: Float64Array): void {
    const { m, n } = sys;
    const v = x.subarray(0, m);
    // v₀ = R⁻¹·P·c
    this.response!.solve(v, rhs.subarray(0, m));
    if (n === 0) return;
    // b' = b − J·v₀
    const b = this.rhsBuf.subarray(0, n);
    const JP = sys.JP;
    for (let i = 0; i < n; i++) {
      let s = rhs[m + i];
      for (let q = JP.rowPtr[i]; q < JP.rowPtr[i + 1]; q++) s -= JP.values[q] * v[JP.colInd[q]];
      b[i] = s;
    }
    const lambda = x.subarray(m, m + n);
    this.iterate(this.schurOp, b, lambda, this.iterations.value, this.tolerance(b), this.result);
    // v = v₀ + R⁻¹·Jᵀ·λ
    const t = this.tmpM.subarray(0, m),
      y = this.tmpM2.subarray(0, m);
    jtProduct(t, sys, lambda);
    this.response!.solve(y, t);
    for (let i = 0; i < m; i++) v[i] += y[i];
  }

  private solveKKT(x: Float64Array, sys: KKTSystem, rhs: Float64Array): void {
    const N = sys.m + sys.n;
    const b = this.rhsBuf.subarray(0, N);
    symmetricRhs(b, rhs, sys.m, sys.n);
    this.iterate(this.kktOp, b, x.subarray(0, N), this.iterations.value, this.tolerance(b), this.result);
  }

  /** out = (J·R⁻¹·Jᵀ + C + damping·I)·λ */
  private applySchur(out: Float64Array, lambda: Float64Array): void {
    const sys = this.sys;
    const { m, n, JP, C } = sys;
    const t = this.tmpM.subarray(0, m),
      y = this.tmpM2.subarray(0, m);
    jtProduct(t, sys, lambda);
    this.response!.solve(y, t);
    for (let i = 0; i < n; i++) {
      let s = this.damping * lambda[i];
      for (let q = JP.rowPtr[i]; q < JP.rowPtr[i + 1]; q++) s += JP.values[q] * y[JP.colInd[q]];
      for (let q = C.rowPtr[i]; q < C.rowPtr[i + 1]; q++) s += C.values[q] * lambda[C.colInd[q]];
      out[i] = s;
    }
  }

  /** out = [H·v − Jᵀ·λ; −J·v − (C + damping·I)·λ] */
  private applyKKT(out: Float64Array, x: Float64Array): void {
    const { m, n, H, JP, C } = this.sys;
    for (let r = 0; r < m; r++) {
      let s = 0;
      for (let q = H.rowPtr[r]; q < H.rowPtr[r + 1]; q++) s += H.values[q] * x[H.colInd[q]];
      out[r] = s;
    }
    for (let i = 0; i < n; i++) {
      const li = x[m + i];
      let s = -this.damping * li;
      for (let q = JP.rowPtr[i]; q < JP.rowPtr[i + 1]; q++) {
        const k = JP.colInd[q],
          jv = JP.values[q];
        out[k] -= jv * li;
        s -= jv * x[k];
      }
      for (let q = C.rowPtr[i]; q < C.rowPtr[i + 1]; q++) s -= C.values[q] * x[m + C.colInd[q]];
      out[m + i] = s;
    }
  }
}

/** out (m) = (J·P)ᵀ·λ */
export function jtProduct(out: Float64Array, sys: KKTSystem, lambda: Float64Array): void {
  out.fill(0);
  const JP = sys.JP;
  for (let i = 0; i < sys.n; i++) {
    const l = lambda[i];
    if (l === 0) continue;
    for (let q = JP.rowPtr[i]; q < JP.rowPtr[i + 1]; q++) out[JP.colInd[q]] += JP.values[q] * l;
  }
}
