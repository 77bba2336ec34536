import { Int, nonNegative, Real, sofaComponent } from '@sofa-ts/core';
import { SparseLU, type CsrMatrix } from '@sofa-ts/linalg';
import { LegacyPermutation, orderingOfPermutation } from './legacy-permutation.js';
import { DirectSparseSolver, crsTemplates } from './matrix-linear-solver.js';

/**
 * SOFA's SparseLUSolver (CSparse's cs_lu): P·A(q, q) = L·U with threshold partial pivoting — the
 * diagonal entry stays the pivot when |a_kk| >= tolerance·max_i |a_ik|, which keeps the
 * fill-reducing ordering q for the nearly symmetric matrices of mechanics.
 */
@sofaComponent({
  name: 'SparseLUSolver',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Direct',
  description: 'Sparse LU direct solver keeping diagonal pivots above a threshold.',
  templates: crsTemplates,
  defaultTemplate: 'CompressedRowSparseMatrixd',
})
export class SparseLUSolver extends DirectSparseSolver {
  readonly tolerance = this.initData({
    name: 'tolerance',
    type: Real,
    default: 0.001,
    range: nonNegative,
    help: 'diagonal pivot threshold in [0, 1]: the diagonal entry stays the pivot when at least this fraction of the largest one',
  });
  readonly permutation_ = this.initData({
    name: 'permutation',
    type: LegacyPermutation,
    default: 'None',
    help: 'deprecated: type of fill reducing permutation when no ordering component is given',
  });
  readonly nnzL = this.initData({
    name: 'L_nnz',
    type: Int,
    default: 0,
    help: 'entries of L below its diagonal after the last factorization',
    output: true,
  });

  private readonly lu = new SparseLU();

  protected override namedOrdering(): string | undefined {
    if (!this.orderingMethod.get() && this.permutation_.isSet && !this.ordering.isSet)
      return orderingOfPermutation(this.permutation_.value);
    return super.namedOrdering();
  }

  override init(): void {
    const t = this.tolerance.value;
    if (!(t >= 0 && t <= 1)) throw this.error(`tolerance must be in [0, 1] (got ${t})`);
  }

  protected invert(A: CsrMatrix, patternChanged: boolean): void {
    if (patternChanged) this.lu.analyze(A, this.permutation(A), { pivotThreshold: this.tolerance.value });
    this.lu.factorize(A);
    this.nnzL.value = this.lu.nnzL;
  }

  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    this.lu.solve(out, rhs);
  }
}
