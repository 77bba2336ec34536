import { Int, Real, sofaComponent } from '@sofa-ts/core';
import type { CsrMatrix } from '@sofa-ts/linalg';
import { MatrixLinearSolver } from './matrix-linear-solver.js';

/**
 * SOFA's SVDLinearSolver: singular value decomposition A = U·Σ·Vᵀ of the (dense) system matrix and
 * the pseudo-inverse solve x = V·Σ⁺·Uᵀ·b, where singular values below minSingularValue count as
 * zero: a singular or ill-conditioned system gets its least-norm least-squares solution.
 * The SVD is one-sided Jacobi (Hestenes): columns of A are rotated pairwise until orthogonal
 * (|a_pᵀa_q| <= ε·|a_p|·|a_q|), the rotations accumulating V; then σ_j = |a_j| and U_j = a_j/σ_j.
 * O(n³) per sweep: meant for small systems.
 */
@sofaComponent({
  name: 'SVDLinearSolver',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Direct',
  description: 'Linear system solver using a singular value decomposition (pseudo-inverse; small dense systems).',
  templates: ['FullMatrix', 'CompressedRowSparseMatrixd'],
  defaultTemplate: 'FullMatrix',
})
export class SVDLinearSolver extends MatrixLinearSolver {
  readonly minSingularValue = this.initData({ name: 'minSingularValue', type: Real, default: 1e-6, help: 'singular values below this are set to 0 (stabilises ill-conditioned systems)' });
  readonly conditionNumber = this.initData({ name: 'conditionNumber', type: Real, default: 0, output: true, help: 'condition number σ_max/σ_min of the last matrix' });
  readonly maxSweeps = 60;
  readonly sweepsData = this.initData({ name: 'sweeps', type: Int, default: 0, output: true, help: 'Jacobi sweeps of the last decomposition (sofa-ts)' });

  /** (n·n) U (row-major, columns U_j), V; (n) σ; (n) scratch. */
  private Um: Float64Array = new Float64Array(0);
  private Vm: Float64Array = new Float64Array(0);
  private sigma: Float64Array = new Float64Array(0);
  private t: Float64Array = new Float64Array(0);
  private n = 0;

  protected invert(A: CsrMatrix): void {
    const n = (this.n = A.rows);
    if (this.Um.length !== n * n) {
      this.Um = new Float64Array(n * n);
      this.Vm = new Float64Array(n * n);
      this.sigma = new Float64Array(n);
      this.t = new Float64Array(n);
    }
    const { Um: a, Vm: v, sigma } = this;
    a.fill(0);
    v.fill(0);
    for (let i = 0; i < n; i++) {
      v[i * n + i] = 1;
      for (let k = A.rowPtr[i]!; k < A.rowPtr[i + 1]!; k++) a[i * n + A.colInd[k]!] = A.values[k]!;
    }
    const eps = 1e-15;
    let sweep = 0;
    for (; sweep < this.maxSweeps; sweep++) {
      let rotated = false;
      for (let p = 0; p < n - 1; p++) {
        for (let q = p + 1; q < n; q++) {
          let al = 0;
          let be = 0;
          let ga = 0;
          for (let i = 0; i < n; i++) {
            const x = a[i * n + p]!;
            const y = a[i * n + q]!;
            al += x * x;
            be += y * y;
            ga += x * y;
          }
          if (Math.abs(ga) <= eps * Math.sqrt(al * be) || ga === 0) continue;
          rotated = true;
          // rotation angle making columns p and q orthogonal
          const zeta = (be - al) / (2 * ga);
          const tt = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
          const c = 1 / Math.sqrt(1 + tt * tt);
          const s = c * tt;
          for (let i = 0; i < n; i++) {
            const x = a[i * n + p]!;
            const y = a[i * n + q]!;
            a[i * n + p] = c * x - s * y;
            a[i * n + q] = s * x + c * y;
            const vx = v[i * n + p]!;
            const vy = v[i * n + q]!;
            v[i * n + p] = c * vx - s * vy;
            v[i * n + q] = s * vx + c * vy;
          }
        }
      }
      if (!rotated) break;
    }
    if (sweep === this.maxSweeps) this.warn(`the Jacobi SVD did not converge in ${this.maxSweeps} sweeps`);
    this.sweepsData.value = sweep;
    let smax = 0;
    let smin = Number.POSITIVE_INFINITY;
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += a[i * n + j]! ** 2;
      s = Math.sqrt(s);
      sigma[j] = s;
      if (s > 0) for (let i = 0; i < n; i++) a[i * n + j]! /= s;
      smax = Math.max(smax, s);
      smin = Math.min(smin, s);
    }
    this.conditionNumber.value = smin > 0 ? smax / smin : Number.POSITIVE_INFINITY;
  }

  /** out = V·Σ⁺·Uᵀ·rhs */
  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    const { n, Um: u, Vm: v, sigma, t } = this;
    const thr = this.minSingularValue.value;
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += u[i * n + j]! * rhs[i]!;
      t[j] = sigma[j]! > thr ? s / sigma[j]! : 0;
    }
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += v[i * n + j]! * t[j]!;
      out[i] = s;
    }
  }
}
