import { sofaComponent } from '@sofa-ts/core';
import { SupernodalLDLT, type CsrMatrix } from '@sofa-ts/linalg';
import { DirectSparseSolver, crsTemplates } from './matrix-linear-solver.js';

/**
 * SOFA's EigenSimplicialLDLT (Eigen's SimplicialLDLT): A(p, p) = L·D·Lᵀ for a symmetric A, with
 * the fill-reducing permutation p of the ordering component; the pattern is analysed once and
 * every new matrix refactorised. No pivoting: A must be symmetric with nonzero pivots in that order.
 */
@sofaComponent({
  name: 'EigenSimplicialLDLT',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Direct',
  description: 'Sparse LDLᵀ direct solver for symmetric matrices, with a fill-reducing ordering.',
  templates: crsTemplates,
  defaultTemplate: 'CompressedRowSparseMatrixd',
})
export class EigenSimplicialLDLT extends DirectSparseSolver {
  private readonly ldlt = new SupernodalLDLT();

  protected invert(A: CsrMatrix, patternChanged: boolean): void {
    if (patternChanged) this.ldlt.analyze(A, this.permutation(A));
    this.ldlt.factorize(A);
  }

  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    this.ldlt.solve(out, rhs);
  }
}
