import { sofaComponent } from '@sofa-ts/core';
import { SparseQR, type CsrMatrix } from '@sofa-ts/linalg';
import { DirectSparseSolver, crsTemplates } from './matrix-linear-solver.js';

/**
 * SOFA's EigenSparseQR (Eigen's SparseQR): A(:, q) = Q·R by Givens rotations, q the column
 * ordering; x = q·R⁻¹·Qᵀb. Columns whose |R_jj| falls under Eigen's default threshold
 * 20·(m+n)·max‖A(:,j)‖·ε are treated as dependent (their unknowns set to 0).
 */
@sofaComponent({
  name: 'EigenSparseQR',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Direct',
  description: 'Sparse QR direct solver by Givens rotations (least squares for rank-deficient systems).',
  templates: crsTemplates,
  defaultTemplate: 'CompressedRowSparseMatrixd',
})
export class EigenSparseQR extends DirectSparseSolver {
  private readonly qr = new SparseQR();

  protected invert(A: CsrMatrix, patternChanged: boolean): void {
    if (patternChanged) this.qr.analyze(A, this.permutation(A));
    this.qr.factorize(A);
  }

  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    this.qr.solve(out, rhs);
  }
}
