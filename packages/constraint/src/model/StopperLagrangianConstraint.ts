import {
  contextStateLink,
  BaseLagrangianConstraint,
  Int,
  Real,
  sofaComponent,
  type BaseMechanicalState,
  type ConstraintJacobianBuilder,
  type ConstraintResolution,
} from '@sofa-ts/core';
import { StopperResolution } from './resolutions.js';

const ONE = Float64Array.of(1);

/**
 * SOFA's StopperLagrangianConstraint (Vec1): the value of dof `index` stays in [min, max].
 * One row, J = +1 on the dof, violation δ = x_free[index]; its resolution sets λ so that the
 * value is brought back to the nearer bound when the free value leaves the interval, 0 otherwise
 * (SOFA's StopperLagrangianConstraintResolution1Dof). At init the position is clamped into [min, max].
 */
@sofaComponent({
  name: 'StopperLagrangianConstraint',
  aliases: ['StopperConstraint'],
  category: 'LagrangianConstraint',
  module: 'Sofa.Component.Constraint.Lagrangian.Model',
  description: 'Keeps a 1D dof between a minimum and a maximum value (Lagrange multiplier).',
  templates: ['Vec1d'],
})
export class StopperLagrangianConstraint extends BaseLagrangianConstraint {
  readonly index = this.initData({ name: 'index', type: Int, default: 0, help: 'index of the stop constraint' });
  readonly min = this.initData({ name: 'min', type: Real, default: -100, help: 'minimum value accepted' });
  readonly max = this.initData({ name: 'max', type: Real, default: 100, help: 'maximum value accepted' });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the 1D state constrained (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec1d)',
    ),
  );

  private states: BaseMechanicalState[] = [];
  private row = 0;

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Vec1d') throw this.error(`a Vec1d state is needed (got ${s.stateType.name})`);
    this.template = 'Vec1d';
    this.states = [s];
    const i = this.index.value;
    if (i < 0) throw this.error(`index must be >= 0 (got ${i})`);
    if (i < s.size) {
      const x = s.x;
      if (x[i] < this.min.value) x[i] = this.min.value;
      if (x[i] > this.max.value) x[i] = this.max.value;
      s.touch();
    }
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const s = this.states[0];
    if (this.index.value >= s.size) throw this.error(`index ${this.index.value} is out of range (${s.describe()} has ${s.size} points)`);
    this.row = firstRow;
    J.add(s, firstRow, this.index.value, ONE);
    return 1;
  }

  getConstraintViolation(out: Float64Array): void {
    out[this.row] = this.states[0].xFree[this.index.value];
  }

  getConstraintResolution(out: Array<ConstraintResolution | undefined>): void {
    out[this.row] = new StopperResolution(this.min.value, this.max.value);
  }
}
