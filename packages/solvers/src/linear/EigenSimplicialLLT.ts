import { sofaComponent } from '@sofa-ts/core';
import type { CsrMatrix } from '@sofa-ts/linalg';
import { SparseCholesky } from './cholesky.js';
import { DirectSparseSolver, crsTemplates } from './matrix-linear-solver.js';

/**
 * SOFA's EigenSimplicialLLT (Eigen's SimplicialLLT): Cholesky A(p, p) = L·Lᵀ of a symmetric
 * positive definite A with the fill-reducing permutation p; fails on a matrix that is not
 * positive definite.
 */
@sofaComponent({
  name: 'EigenSimplicialLLT',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Direct',
  description: 'Sparse Cholesky (LLᵀ) direct solver for symmetric positive definite matrices.',
  templates: crsTemplates,
  defaultTemplate: 'CompressedRowSparseMatrixd',
})
export class EigenSimplicialLLT extends DirectSparseSolver {
  private readonly chol = new SparseCholesky();

  protected invert(A: CsrMatrix, patternChanged: boolean): void {
    if (patternChanged) this.chol.analyze(A, this.permutation(A));
    this.chol.factorize(A);
  }

  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    this.chol.solve(out, rhs);
  }
}
