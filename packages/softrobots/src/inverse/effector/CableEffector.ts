import { Real, sofaComponent, type ConstraintOrder, type ConstraintResolution } from '@sofa-ts/core';
import { CableModel } from '../../constraint/cable-model.js';
import type { InverseConstraint, InverseRows } from '../inverse-rows.js';

/**
 * SoftRobots' CableEffector: the length of a cable (see CableModel; no force acts along it) is an
 * effector of the inverse problem, driven towards `desiredLength`. Its row is δ = L − desiredLength
 * at the free positions, J = ∂L/∂x.
 */
@sofaComponent({
  name: 'CableEffector',
  category: 'SoftRobots.Inverse',
  module: 'SoftRobots.Inverse',
  description: 'The length of a cable, brought by the inverse problem to a desired length (effector).',
  templates: ['Vec3d'],
})
export class CableEffector extends CableModel implements InverseConstraint {
  readonly inverseRole = 'effector';
  readonly desiredLength = this.initData({
    name: 'desiredLength',
    type: Real,
    default: 0,
    help: 'the cable length to reach (default: the initial length)',
  });
  readonly weight = this.initData({
    name: 'weight',
    type: Real,
    default: 1,
    help: 'weight of this effector in the least-squares objective',
  });
  readonly delta = this.initData({
    name: 'delta',
    type: Real,
    default: 0,
    help: 'L − desiredLength predicted by the solver in the last step',
    output: true,
  });

  override init(): void {
    super.init();
    if (!this.desiredLength.isSet) this.desiredLength.setValue(this.cableInitialLength.value);
  }

  protected override get rowSign(): number {
    return -1;
  }

  override getConstraintViolation(out: Float64Array, order: ConstraintOrder): void {
    out[this.row] = this.cableInitialLength.value - this.freeShortening(order) - this.desiredLength.value;
  }

  getInverseRows(rows: InverseRows): void {
    rows.setEffector(this.row, this.weight.value);
  }

  storeResults(_lambda: Float64Array, delta: Float64Array): void {
    this.delta.setValue(delta[this.row]);
  }

  getConstraintResolution(_out: Array<ConstraintResolution | undefined>): void {
    throw this.error('an effector is solved by an inverse problem solver', 'add a QPInverseProblemSolver');
  }
}
