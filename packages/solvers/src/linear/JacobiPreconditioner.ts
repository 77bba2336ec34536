import { sofaComponent } from '@sofa-ts/core';
import { csrDiagonal, type CsrMatrix } from '@sofa-ts/linalg';
import { MatrixLinearSolver } from './matrix-linear-solver.js';

/**
 * SOFA's JacobiPreconditioner: the diagonal D of the system matrix, z = D⁻¹·r. As a linear solver
 * of its own it solves D·x = b; linked as the preconditioner of a PCG it makes the iteration
 * invariant to a diagonal scaling of the system.
 */
@sofaComponent({
  name: 'JacobiPreconditioner',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Preconditioner',
  description: 'Diagonal (Jacobi) preconditioner: z = D⁻¹·r with D the diagonal of the system matrix.',
  templates: ['DiagonalMatrixd', 'DiagonalMatrix'],
  defaultTemplate: 'DiagonalMatrixd',
})
export class JacobiPreconditioner extends MatrixLinearSolver {
  /** (n) 1 / A_ii */
  private invDiag: Float64Array = new Float64Array(0);

  protected invert(A: CsrMatrix): void {
    if (this.invDiag.length !== A.rows) this.invDiag = new Float64Array(A.rows);
    const d = csrDiagonal(this.invDiag, A);
    for (let i = 0; i < d.length; i++) d[i] = 1 / d[i];
  }

  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    const d = this.invDiag;
    for (let i = 0; i < d.length; i++) out[i] = d[i] * rhs[i];
  }
}
