import { BaseConstraintProjector, sofaComponent } from '@sofa-ts/core';

/**
 * The Compliant plugin's NegativeUnilateralConstraint: the rows pull only, λ_i ← min(0, λ_i)
 * (the constraint keeps φ ≤ 0).
 */
@sofaComponent({
  name: 'NegativeUnilateralConstraint',
  category: 'ConstraintProjector',
  module: 'Compliant',
  description: 'Negative unilateral constraint: non-positive multipliers.',
})
export class NegativeUnilateralConstraint extends BaseConstraintProjector {
  project(lambda: Float64Array, offset: number, dim: number): void {
    for (let i = offset; i < offset + dim; i++) if (!(lambda[i] < 0)) lambda[i] = 0;
  }
}
