import { Real, sofaComponent, type ConstraintResolution } from '@sofa-ts/core';
import { CableModel } from '../../constraint/cable-model.js';
import type { InverseConstraint, InverseRows } from '../inverse-rows.js';

/**
 * SoftRobots' CableEquality: a cable whose tension is an unknown of the inverse problem, under an
 * equality: its shortening equals `eqDisplacement` (when set), or else its λ equals `eqForce`.
 */
@sofaComponent({
  name: 'CableEquality',
  category: 'SoftRobots.Inverse',
  module: 'SoftRobots.Inverse',
  description: 'A cable of the inverse problem held at a given displacement or force (equality constraint).',
  templates: ['Vec3d'],
})
export class CableEquality extends CableModel implements InverseConstraint {
  readonly inverseRole = 'equality';
  readonly eqDisplacement = this.initData({
    name: 'eqDisplacement',
    type: Real,
    default: 0,
    help: 'the cable shortening to hold (takes precedence over eqForce)',
  });
  readonly eqForce = this.initData({
    name: 'eqForce',
    type: Real,
    default: 0,
    help: 'the λ to hold when eqDisplacement is not set (SOFA impulse, force·dt)',
  });
  readonly force = this.initData({
    name: 'force',
    type: Real,
    default: 0,
    help: 'λ of the last step (SOFA impulse, force·dt)',
    output: true,
  });
  readonly displacement = this.initData({
    name: 'displacement',
    type: Real,
    default: 0,
    help: 'cable shortening given by the solver in the last step',
    output: true,
  });

  override init(): void {
    super.init();
    if (!this.eqDisplacement.isSet && !this.eqForce.isSet)
      throw this.error('neither eqDisplacement nor eqForce is set: give the value to hold');
  }

  getInverseRows(rows: InverseRows): void {
    if (this.eqDisplacement.isSet) rows.setEqualityOnDisplacement(this.row, this.eqDisplacement.value);
    else rows.setEqualityOnForce(this.row, this.eqForce.value);
  }

  storeResults(lambda: Float64Array, delta: Float64Array): void {
    this.force.setValue(lambda[this.row]);
    this.displacement.setValue(delta[this.row]);
  }

  getConstraintResolution(_out: Array<ConstraintResolution | undefined>): void {
    throw this.error('an equality of the inverse problem is solved by QPInverseProblemSolver', 'use CableConstraint for direct actuation');
  }
}
