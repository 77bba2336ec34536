import { BaseResponse, Bool, Real, sofaComponent, type SparseMatrixLike } from '@sofa-ts/core';
import { SupernodalLDLT, ZeroPivotError, type CsrMatrix } from '@sofa-ts/linalg';
import { DiagonalShift, PatternTracker } from './sparse-pattern.js';

/**
 * The Compliant plugin's LDLTResponse: a sparse LDLᵀ factorization of the dynamics matrix H
 * (approximate minimum degree ordering, analysed once per pattern), R⁻¹ = H⁻¹. When H may be
 * singular (projected dofs) `regularize`·I is added before factoring; `constant` keeps the first
 * factorization for the whole simulation.
 */
@sofaComponent({
  name: 'LDLTResponse',
  category: 'LinearSolver',
  module: 'Compliant',
  description: 'A sparse Cholesky (LDL^T) factorization of the response matrix.',
})
export class LDLTResponse extends BaseResponse {
  readonly regularize = this.initData({
    name: 'regularize',
    type: Real,
    default: Number.EPSILON,
    help: 'add identity*regularize to H to make it definite',
  });
  readonly constant = this.initData({ name: 'constant', type: Bool, default: false, help: 'reuse the first factorization' });

  private readonly ldlt = new SupernodalLDLT();
  private readonly pattern = new PatternTracker();
  private readonly shift = new DiagonalShift();
  private factorized = false;

  factor(H: SparseMatrixLike, semidefinite: boolean): void {
    if (this.constant.value && this.factorized) return;
    const reg = this.regularize.value;
    const A = (reg !== 0 && semidefinite ? this.shift.apply(H, reg) : H) as CsrMatrix;
    if (this.pattern.changed(H)) this.ldlt.analyze(A, 'amd');
    try {
      this.ldlt.factorize(A);
    } catch (e) {
      if (e instanceof ZeroPivotError)
        throw this.error(`the dynamics matrix H is singular (zero pivot at dof ${e.index}): give every dof a mass or fix it`);
      throw e;
    }
    this.factorized = true;
  }

  solve(out: Float64Array, rhs: Float64Array): void {
    this.ldlt.solve(out, rhs);
  }

  reinit(): void {
    this.factorized = false;
  }

  override reset(): void {
    this.factorized = false;
  }
}
