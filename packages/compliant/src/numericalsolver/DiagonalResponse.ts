import { BaseResponse, Bool, sofaComponent, type SparseMatrixLike } from '@sofa-ts/core';

/**
 * The Compliant plugin's DiagonalResponse: R⁻¹ = diag(H)⁻¹, exact for lumped masses without
 * stiffness. When H may be singular, dofs whose diagonal is below ε get a zero response.
 * `constant` keeps the first factorization.
 */
@sofaComponent({
  name: 'DiagonalResponse',
  category: 'LinearSolver',
  module: 'Compliant',
  description: 'A diagonal factorization of the response matrix.',
})
export class DiagonalResponse extends BaseResponse {
  readonly constant = this.initData({ name: 'constant', type: Bool, default: false, help: 'reuse the first factorization' });

  /** (m) inverse of H's diagonal */
  private inv = new Float64Array(0);
  private factorized = false;

  factor(H: SparseMatrixLike, semidefinite: boolean): void {
    if (this.constant.value && this.factorized) return;
    if (this.inv.length !== H.rows) this.inv = new Float64Array(H.rows);
    this.inv.fill(0);
    for (let r = 0; r < H.rows; r++) {
      let d = 0;
      for (let q = H.rowPtr[r]; q < H.rowPtr[r + 1]; q++) if (H.colInd[q] === r) d = H.values[q];
      if (semidefinite && Math.abs(d) < Number.EPSILON) this.inv[r] = 0;
      else if (d === 0) throw this.error(`the dynamics matrix H has a zero diagonal at dof ${r}`);
      else this.inv[r] = 1 / d;
    }
    this.factorized = true;
  }

  solve(out: Float64Array, rhs: Float64Array): void {
    const inv = this.inv;
    for (let i = 0; i < inv.length; i++) out[i] = inv[i] * rhs[i];
  }

  reinit(): void {
    this.factorized = false;
  }

  override reset(): void {
    this.factorized = false;
  }
}
