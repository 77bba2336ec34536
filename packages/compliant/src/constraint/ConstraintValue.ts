import { BaseConstraintValue, sofaComponent, type BaseMechanicalState } from '@sofa-ts/core';

/**
 * The Compliant plugin's ConstraintValue: elastic constraint rows, the violation φ (the state's
 * positions) is cancelled by the dynamics alone, with no correction pass:
 *   dynamics = −φ/h,   correction = 0.
 * It is the default value of compliant (C ≠ 0) rows.
 */
@sofaComponent({
  name: 'ConstraintValue',
  category: 'ConstraintValue',
  module: 'Compliant',
  description: 'Constraint value of elastic constraints: -violation/dt, no correction.',
})
export class ConstraintValue extends BaseConstraintValue {
  dynamics(out: Float64Array, offset: number, state: BaseMechanicalState, _stabilization: boolean, dt: number): void {
    const x = state.x;
    const n = state.size * state.stateType.derivSize;
    for (let i = 0; i < n; i++) out[offset + i] = -x[i] / dt;
  }

  correction(out: Float64Array, offset: number, state: BaseMechanicalState, _dt?: number): void {
    out.fill(0, offset, offset + state.size * state.stateType.derivSize);
  }
}
