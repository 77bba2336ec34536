import { Bool, Real, RealArray, sofaComponent, type ConstraintResolution } from '@sofa-ts/core';
import type { InverseConstraint, InverseRows } from '../inverse-rows.js';
import { PositionModel } from '../position-model.js';

/**
 * SoftRobots' PositionEffector: points of a Vec3 or Rigid3 state brought towards `effectorGoal` by
 * the inverse problem, along the used directions (see PositionModel), in the least-squares sense
 * with `weight`. Each row's goal may be brought closer (see PositionModel: an intermediate goal at
 * most L from the current position along the row's direction):
 *   - limitShiftToTarget: L = maxShiftToTarget (the effector aims at a point on the way);
 *   - maxSpeed > 0: L = maxSpeed·dt (the goal is approached at most at that speed).
 * `delta` gives δ = δ_free + W·λ of every row after the solve (the remaining shift the solver
 * predicts). The goal follows a linked Data (e.g. effectorGoal="@../goal/goalMO.position").
 */
@sofaComponent({
  name: 'PositionEffector',
  category: 'SoftRobots.Inverse',
  module: 'SoftRobots.Inverse',
  description: 'Points of a soft robot brought to goal positions by the inverse problem (effector).',
  templates: ['Vec3d', 'Rigid3d'],
})
export class PositionEffector extends PositionModel implements InverseConstraint {
  readonly inverseRole = 'effector';
  readonly effectorGoal = this.initData({
    name: 'effectorGoal',
    type: RealArray(0),
    default: new Float64Array(0),
    help: 'goal coordinates, one per index (default: the initial positions)',
  });
  readonly weight = this.initData({
    name: 'weight',
    type: Real,
    default: 1,
    help: 'weight of this effector in the least-squares objective',
  });
  readonly limitShiftToTarget = this.initData({
    name: 'limitShiftToTarget',
    type: Bool,
    default: false,
    help: 'limit the shift to the goal of each row to maxShiftToTarget',
  });
  readonly maxShiftToTarget = this.initData({
    name: 'maxShiftToTarget',
    type: Real,
    default: 1,
    help: 'largest shift to the goal aimed at in one step, per row (with limitShiftToTarget)',
  });
  readonly maxSpeed = this.initData({
    name: 'maxSpeed',
    type: Real,
    default: 0,
    unit: 'm/s',
    help: 'largest speed at which the goal is approached, per row (0: no limit)',
  });
  readonly delta = this.initData({
    name: 'delta',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'shift to the goal per row predicted by the solver in the last step',
    output: true,
  });

  override init(): void {
    super.init();
    this.checkGoals('effectorGoal');
    this.delta.setValue(new Float64Array(this.nbRows));
  }

  protected goals(): Float64Array {
    return this.effectorGoal.value;
  }

  protected override get singleGoalAllowed(): boolean {
    return true;
  }

  protected override shiftLimit(dt: number): number {
    let limit = Infinity;
    if (this.limitShiftToTarget.value) limit = Math.abs(this.maxShiftToTarget.value);
    if (this.maxSpeed.value > 0) limit = Math.min(limit, this.maxSpeed.value * dt);
    return limit;
  }

  getInverseRows(rows: InverseRows): void {
    for (let r = 0; r < this.nbRows; r++) rows.setEffector(this.row + r, this.weight.value);
  }

  storeResults(_lambda: Float64Array, delta: Float64Array): void {
    this.storeRows(this.delta, delta);
  }

  getConstraintResolution(_out: Array<ConstraintResolution | undefined>): void {
    throw this.error('an effector is solved by an inverse problem solver', 'add a QPInverseProblemSolver');
  }
}
