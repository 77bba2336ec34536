import { Int, Real, sofaComponent } from '@sofa-ts/core';
import type { CsrMatrix } from '@sofa-ts/linalg';
import { DenseSvdWorkspace, isSymmetric, jacobiSvd, symmetricSvd } from './dense-svd.js';
import { MatrixLinearSolver } from './matrix-linear-solver.js';

/**
 * SOFA's SVDLinearSolver: singular value decomposition A = U·Σ·Vᵀ of the (dense) system matrix and
 * the pseudo-inverse solve x = V·Σ⁺·Uᵀ·b, where singular values below minSingularValue count as
 * zero: a singular or ill-conditioned system gets its least-norm least-squares solution.
 * The SVD (dense-svd.ts): for a symmetric matrix (the usual mechanical system) its
 * eigendecomposition by Householder tridiagonalisation and implicit QL, σ = |λ|; otherwise
 * one-sided Jacobi. O(n³) per matrix, as SOFA's dense Eigen SVD: meant for small systems.
 */
@sofaComponent({
  name: 'SVDLinearSolver',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Direct',
  description: 'Linear system solver using a singular value decomposition (pseudo-inverse; small dense systems).',
  templates: ['FullMatrix', 'CompressedRowSparseMatrixd', 'CompressedRowSparseMatrixMat3x3d'],
  defaultTemplate: 'FullMatrix',
})
export class SVDLinearSolver extends MatrixLinearSolver {
  readonly minSingularValue = this.initData({
    name: 'minSingularValue',
    type: Real,
    default: 1e-6,
    help: 'singular values below this are set to 0 (stabilises ill-conditioned systems)',
  });
  readonly conditionNumber = this.initData({
    name: 'conditionNumber',
    type: Real,
    default: 0,
    output: true,
    help: 'condition number σ_max/σ_min of the last matrix',
  });
  readonly maxSweeps = 60;
  readonly sweepsData = this.initData({
    name: 'sweeps',
    type: Int,
    default: 0,
    output: true,
    help: 'Jacobi sweeps of the last decomposition of an unsymmetric matrix, 0 for a symmetric one (sofa-ts)',
  });

  /** (n·n) the dense copy of A, row-major; the decomposition's rows U_j, V_j and σ. */
  private a: Float64Array = new Float64Array(0);
  private ws = new DenseSvdWorkspace(0);

  protected invert(A: CsrMatrix): void {
    const n = A.rows;
    if (this.ws.n !== n) {
      this.ws = new DenseSvdWorkspace(n);
      this.a = new Float64Array(n * n);
    }
    const a = this.a;
    a.fill(0);
    for (let i = 0; i < n; i++) for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) a[i * n + A.colInd[k]] = A.values[k];
    if (isSymmetric(a, n, 1e-14)) {
      if (!symmetricSvd(this.ws, a)) throw this.error('the symmetric eigendecomposition (implicit QL) did not converge');
      this.sweepsData.value = 0;
    } else {
      const sweeps = jacobiSvd(this.ws, a, this.maxSweeps);
      if (sweeps === this.maxSweeps) this.warn(`the Jacobi SVD did not converge in ${this.maxSweeps} sweeps`);
      this.sweepsData.value = sweeps;
    }
    let smax = 0;
    let smin = Number.POSITIVE_INFINITY;
    for (const s of this.ws.sigma) {
      smax = Math.max(smax, s);
      smin = Math.min(smin, s);
    }
    this.conditionNumber.value = smin > 0 ? smax / smin : Number.POSITIVE_INFINITY;
  }

  /** out = V·Σ⁺·Uᵀ·rhs = Σ_j [σ_j > minSingularValue] V_j·(U_j·rhs)/σ_j */
  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    this.ws.solve(out, rhs, this.minSingularValue.value);
  }
}
