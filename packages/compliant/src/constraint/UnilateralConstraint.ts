import { BaseConstraintProjector, sofaComponent } from '@sofa-ts/core';

/**
 * The Compliant plugin's UnilateralConstraint: the rows of its node's compliant state push only,
 * λ_i ← max(0, λ_i) (the constraint keeps φ ≥ 0).
 */
@sofaComponent({
  name: 'UnilateralConstraint',
  aliases: ['UnilateralProjector'],
  category: 'ConstraintProjector',
  module: 'Compliant',
  description: 'Unilateral constraint: non-negative multipliers.',
})
export class UnilateralConstraint extends BaseConstraintProjector {
  project(lambda: Float64Array, offset: number, dim: number): void {
    for (let i = offset; i < offset + dim; i++) if (!(lambda[i] > 0)) lambda[i] = 0;
  }
}
