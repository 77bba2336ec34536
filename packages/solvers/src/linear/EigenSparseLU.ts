import { sofaComponent } from '@sofa-ts/core';
import { SparseLU, type CsrMatrix } from '@sofa-ts/linalg';
import { DirectSparseSolver, crsTemplates } from './matrix-linear-solver.js';

/**
 * SOFA's EigenSparseLU (Eigen's SparseLU): P·A(q, q) = L·U with partial pivoting (Eigen's default
 * diagonal pivot threshold 1, i.e. the largest entry of the column), q the fill-reducing ordering.
 * Works for unsymmetric matrices.
 */
@sofaComponent({
  name: 'EigenSparseLU',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Direct',
  description: 'Sparse LU direct solver with partial pivoting, for unsymmetric matrices.',
  templates: crsTemplates,
  defaultTemplate: 'CompressedRowSparseMatrixd',
})
export class EigenSparseLU extends DirectSparseSolver {
  private readonly lu = new SparseLU();

  protected invert(A: CsrMatrix, patternChanged: boolean): void {
    if (patternChanged) this.lu.analyze(A, this.permutation(A), { pivotThreshold: 1 });
    this.lu.factorize(A);
  }

  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    this.lu.solve(out, rhs);
  }
}
