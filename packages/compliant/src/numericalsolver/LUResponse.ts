import { BaseResponse, Bool, sofaComponent, type SparseMatrixLike } from '@sofa-ts/core';
import { SingularMatrixError, SparseLU, amdOrdering, type CsrMatrix } from '@sofa-ts/linalg';
import { PatternTracker } from './sparse-pattern.js';

/**
 * The Compliant plugin's LUResponse: a sparse LU factorization (partial pivoting, minimum degree
 * preordering) of the dynamics matrix H, for non-symmetric H. `constant` keeps the first
 * factorization.
 */
@sofaComponent({
  name: 'LUResponse',
  category: 'LinearSolver',
  module: 'Compliant',
  description: 'A sparse LU factorization of the response matrix.',
})
export class LUResponse extends BaseResponse {
  readonly constant = this.initData({ name: 'constant', type: Bool, default: false, help: 'reuse the first factorization' });

  private readonly lu = new SparseLU();
  private readonly pattern = new PatternTracker();
  private factorized = false;

  override get isSymmetric(): boolean {
    return false;
  }

  factor(H: SparseMatrixLike, _semidefinite: boolean): void {
    if (this.constant.value && this.factorized) return;
    const A = H as CsrMatrix;
    if (this.pattern.changed(H)) this.lu.analyze(A, amdOrdering(A.rows, A.rowPtr, A.colInd));
    try {
      this.lu.factorize(A);
    } catch (e) {
      if (e instanceof SingularMatrixError)
        throw this.error(`the dynamics matrix H is singular (step ${e.column}): give every dof a mass or fix it`);
      throw e;
    }
    this.factorized = true;
  }

  solve(out: Float64Array, rhs: Float64Array): void {
    this.lu.solve(out, rhs);
  }

  reinit(): void {
    this.factorized = false;
  }

  override reset(): void {
    this.factorized = false;
  }
}
