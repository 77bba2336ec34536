import { sofaComponent, type BaseMechanicalState } from '@sofa-ts/core';
import { Stabilization } from './Stabilization.js';

/**
 * The Compliant plugin's HolonomicConstraintValue: as Stabilization, but the dynamics always
 * cancels the constraint velocity of the stabilized blocks, whether or not the solver runs a
 * stabilization pass (the violation is then left to drift):
 *   dynamics = 0 on stabilized blocks (all when no mask), −φ/h elsewhere.
 */
@sofaComponent({
  name: 'HolonomicConstraintValue',
  category: 'ConstraintValue',
  module: 'Compliant',
  description: 'Holonomic constraint: the dynamics cancels the constraint velocity.',
})
export class HolonomicConstraintValue extends Stabilization {
  override dynamics(out: Float64Array, offset: number, state: BaseMechanicalState, _stabilization: boolean, dt: number): void {
    super.dynamics(out, offset, state, true, dt);
  }
}
