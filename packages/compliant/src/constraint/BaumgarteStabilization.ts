import { Real, sofaComponent, type BaseMechanicalState } from '@sofa-ts/core';
import { ConstraintValue } from './ConstraintValue.js';

/**
 * The Compliant plugin's BaumgarteStabilization: the dynamics asks the constraint velocity to
 * relax the violation with rate α (in 1/s), J·v = −α·φ; no correction pass.
 */
@sofaComponent({
  name: 'BaumgarteStabilization',
  category: 'ConstraintValue',
  module: 'Compliant',
  description: 'Constraint value for Baumgarte stabilization: -alpha·violation.',
})
export class BaumgarteStabilization extends ConstraintValue {
  readonly alpha = this.initData({ name: 'alpha', type: Real, default: 0, unit: '1/s', help: 'the constraint violation coefficient' });

  override dynamics(out: Float64Array, offset: number, state: BaseMechanicalState, _stabilization?: boolean, _dt?: number): void {
    const x = state.x;
    const a = this.alpha.value;
    const n = state.size * state.stateType.derivSize;
    for (let i = 0; i < n; i++) out[offset + i] = -a * x[i];
  }
}
