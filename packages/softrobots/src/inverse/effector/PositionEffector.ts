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
  readonly effectorGoal = this.initData({ name: 'effectorGoal', type: RealArray(0), default: new Float64Array(0), help: 'goal coordinates, one per index (default: the initial positions)' });
  readonly weight = this.initData({ name: 'weight', type: Real, default: 1, help: 'weight of this effector in the least-squares objective' });
  readonly limitShiftToTarget = this.initData({ name: 'limitShiftToTarget', type: Bool, default: false, help: 'limit the shift to the goal of each row to maxShiftToTarget' });
  readonly maxShiftToTarget = this.initData({ name: 'maxShiftToTarget', type: Real, default: 1, help: 'largest shift to the goal aimed at in one step, per row (with limitShiftToTarget)' });
  readonly maxSpeed = this.initData({ name: 'maxSpeed', type: Real, default: 0, unit: 'm/s', help: 'largest speed at which the goal is approached, per row (0: no limit)' });
  readonly delta = this.initData({ name: 'delta', type: RealArray(1), default: new Float64Array(0), help: 'shift to the goal per row predicted by the solver in the last step', output: true });

  private initialGoal = new Float64Array(0);

  override init(): void {
    super.init();
    const s = this.states[0]!, c = s.stateType.coordSize, idx = this.indices.value;
    this.initialGoal = new Float64Array(c * idx.length);
    for (let p = 0; p < idx.length; p++) for (let a = 0; a < c; a++) this.initialGoal[p * c + a] = s.x[c * idx[p]! + a]!;
    const g = this.effectorGoal.value;
    if (g.length !== 0 && g.length !== c * idx.length && g.length !== c) {
      throw this.error(`effectorGoal holds ${g.length} numbers: expected ${c} per index (${idx.length} indices) or one goal for all`);
    }
    this.delta.setValue(new Float64Array(this.nbRows));
  }

  protected goal(p: number): ArrayLike<number> {
    const c = this.states[0]!.stateType.coordSize;
    const g = this.effectorGoal.value;
    if (g.length === 0) return this.initialGoal.subarray(p * c, p * c + c);
    if (g.length === c) return g;
    return g.subarray(p * c, p * c + c);
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
    const out = this.delta.value;
    const m = this.nbRows;
    const arr = out.length === m ? out : new Float64Array(m);
    arr.set(delta.subarray(this.row, this.row + m));
    this.delta.setValue(arr);
  }

  getConstraintResolution(_out: Array<ConstraintResolution | undefined>): void {
    throw this.error('an effector is solved by an inverse problem solver', 'add a QPInverseProblemSolver');
  }
}
