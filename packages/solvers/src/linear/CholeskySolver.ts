import { sofaComponent } from '@sofa-ts/core';
import { denseCholeskyFactor, denseCholeskySolve, type CsrMatrix } from '@sofa-ts/linalg';
import { MatrixLinearSolver } from './matrix-linear-solver.js';

/**
 * SOFA's CholeskySolver: dense Cholesky factorisation A = L·Lᵀ of the (symmetric positive
 * definite) system matrix, copied into a full matrix, then two triangular solves. O(n³) per
 * factorisation: meant for small systems (SparseLDLSolver for large ones).
 */
@sofaComponent({
  name: 'CholeskySolver',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Direct',
  description: 'Direct linear solver based on a dense Cholesky factorization (small SPD systems).',
  templates: ['FullMatrix', 'SparseMatrix', 'CompressedRowSparseMatrixd'],
  defaultTemplate: 'FullMatrix',
})
export class CholeskySolver extends MatrixLinearSolver {
  /** (n·n) the full matrix, then its factor L (row-major). */
  private L: Float64Array = new Float64Array(0);
  private n = 0;

  protected invert(A: CsrMatrix): void {
    const n = (this.n = A.rows);
    if (this.L.length !== n * n) this.L = new Float64Array(n * n);
    const L = this.L;
    L.fill(0);
    for (let i = 0; i < n; i++) for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) L[i * n + A.colInd[k]] = A.values[k];
    denseCholeskyFactor(L, n);
  }

  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    denseCholeskySolve(out, this.L, this.n, rhs);
  }
}
