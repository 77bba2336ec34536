import { RealArray, sofaComponent, type ConstraintResolution } from '@sofa-ts/core';
import type { InverseConstraint, InverseRows } from '../inverse-rows.js';
import { PositionModel } from '../position-model.js';

/**
 * A position held exactly in the inverse problem: points of a Vec3 or Rigid3 state, along the used
 * directions (see PositionModel), must end the step at `eqPosition`; a force on each row, an
 * unknown of the QP, holds them (the hard counterpart of PositionEffector). `force` gives the λ
 * per row, `delta` the remaining shift (0 within the QP tolerance).
 */
@sofaComponent({
  name: 'PositionEquality',
  category: 'SoftRobots.Inverse',
  module: 'SoftRobots.Inverse',
  description: 'Points of a soft robot held at given positions by unknown forces of the inverse problem (equality constraint).',
  templates: ['Vec3d', 'Rigid3d'],
})
export class PositionEquality extends PositionModel implements InverseConstraint {
  readonly inverseRole = 'equality';
  readonly eqPosition = this.initData({
    name: 'eqPosition',
    type: RealArray(0),
    default: new Float64Array(0),
    help: 'positions to hold, one per index (default: the initial positions)',
  });
  readonly force = this.initData({
    name: 'force',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'λ per row in the last step (SOFA impulse, force·dt)',
    output: true,
  });
  readonly delta = this.initData({
    name: 'delta',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'remaining shift per row after the last solve',
    output: true,
  });

  override init(): void {
    super.init();
    this.checkGoals('eqPosition');
    this.force.setValue(new Float64Array(this.nbRows));
    this.delta.setValue(new Float64Array(this.nbRows));
  }

  protected goals(): Float64Array {
    return this.eqPosition.value;
  }

  getInverseRows(rows: InverseRows): void {
    for (let r = 0; r < this.nbRows; r++) rows.setEqualityOnDisplacement(this.row + r, 0);
  }

  storeResults(lambda: Float64Array, delta: Float64Array): void {
    this.storeRows(this.force, lambda);
    this.storeRows(this.delta, delta);
  }

  getConstraintResolution(_out: Array<ConstraintResolution | undefined>): void {
    throw this.error('an equality of the inverse problem is solved by QPInverseProblemSolver');
  }
}
