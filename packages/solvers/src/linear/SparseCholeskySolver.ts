import { sofaComponent } from '@sofa-ts/core';
import type { CsrMatrix } from '@sofa-ts/linalg';
import { SparseCholesky } from './cholesky.js';
import { LegacyPermutation, orderingOfPermutation } from './legacy-permutation.js';
import { DirectSparseSolver, crsTemplates } from './matrix-linear-solver.js';

/**
 * SOFA's SparseCholeskySolver (CSparse's cs_chol): A(p, p) = L·Lᵀ for a symmetric positive
 * definite A, p the fill-reducing ordering; analysed once per pattern.
 */
@sofaComponent({
  name: 'SparseCholeskySolver',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Direct',
  description: 'Sparse Cholesky direct solver for symmetric positive definite matrices.',
  templates: crsTemplates,
  defaultTemplate: 'CompressedRowSparseMatrixd',
})
export class SparseCholeskySolver extends DirectSparseSolver {
  readonly permutation_ = this.initData({
    name: 'permutation',
    type: LegacyPermutation,
    default: 'None',
    help: 'deprecated: type of fill reducing permutation when no ordering component is given',
  });

  private readonly chol = new SparseCholesky();

  protected override namedOrdering(): string | undefined {
    if (!this.orderingMethod.get() && this.permutation_.isSet && !this.ordering.isSet)
      return orderingOfPermutation(this.permutation_.value);
    return super.namedOrdering();
  }

  protected invert(A: CsrMatrix, patternChanged: boolean): void {
    if (patternChanged) this.chol.analyze(A, this.permutation(A));
    this.chol.factorize(A);
  }

  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    this.chol.solve(out, rhs);
  }
}
