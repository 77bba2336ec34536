import { BaseConstraintValue, RealArray, sofaComponent, type BaseMechanicalState } from '@sofa-ts/core';

/**
 * The Compliant plugin's VelocityConstraintValue: the rows enforce given constraint velocities,
 * J·v = `velocities` (one value per row); no correction pass.
 */
@sofaComponent({
  name: 'VelocityConstraintValue',
  category: 'ConstraintValue',
  module: 'Compliant',
  description: 'Enforce the constraint velocities to the given values.',
})
export class VelocityConstraintValue extends BaseConstraintValue {
  readonly velocities = this.initData({
    name: 'velocities',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'the velocities to enforce, one per constraint row',
  });

  dynamics(out: Float64Array, offset: number, state: BaseMechanicalState, _stabilization?: boolean, _dt?: number): void {
    const n = state.size * state.stateType.derivSize;
    const v = this.velocities.value;
    if (v.length !== n) throw this.error(`velocities has ${v.length} values, the constraint has ${n} rows`);
    out.set(v, offset);
  }

  correction(out: Float64Array, offset: number, state: BaseMechanicalState, _dt?: number): void {
    out.fill(0, offset, offset + state.size * state.stateType.derivSize);
  }
}
