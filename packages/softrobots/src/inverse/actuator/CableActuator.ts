import { Real, sofaComponent, type ConstraintResolution } from '@sofa-ts/core';
import { CableModel } from '../../constraint/cable-model.js';
import { optional, type InverseConstraint, type InverseRows } from '../inverse-rows.js';

/**
 * SoftRobots' CableActuator: a cable (see CableModel) whose tension λ is an unknown of the inverse
 * problem (QPInverseProblemSolver, GaussSeidelInverseProblemSolver), bounded by minForce/maxForce,
 * its shortening δ by maxPositiveDisp / −maxNegativeDisp and, per step, by maxDispVariation around
 * the last displacement. λ is SOFA's impulse (force·dt); `physicalForce` = λ/dt beside it.
 * `displacement` is the shortening the solver gave the cable (δ = δ_free + W·λ, on which the
 * bounds hold exactly); `cableLength` is measured on the positions at the end of the step (the
 * two differ by the cable's non-linearity within one step).
 */
@sofaComponent({
  name: 'CableActuator',
  category: 'SoftRobots.Inverse',
  module: 'SoftRobots.Inverse',
  description: 'A cable whose tension is found by the inverse problem solver (cable actuation of a soft robot).',
  templates: ['Vec3d'],
})
export class CableActuator extends CableModel implements InverseConstraint {
  readonly inverseRole = 'actuator';
  readonly minForce = this.initData({
    name: 'minForce',
    type: Real,
    default: 0,
    help: 'lower bound on λ (unbounded when not set; 0 makes a cable that only pulls)',
  });
  readonly maxForce = this.initData({ name: 'maxForce', type: Real, default: 0, help: 'upper bound on λ (unbounded when not set)' });
  readonly maxPositiveDisp = this.initData({
    name: 'maxPositiveDisp',
    type: Real,
    default: 0,
    help: 'largest shortening (unbounded when not set)',
  });
  readonly maxNegativeDisp = this.initData({
    name: 'maxNegativeDisp',
    type: Real,
    default: 0,
    help: 'largest lengthening (unbounded when not set)',
  });
  readonly maxDispVariation = this.initData({
    name: 'maxDispVariation',
    type: Real,
    default: 0,
    help: 'largest change of the shortening in one step (unbounded when not set)',
  });
  readonly epsilon = this.initData({
    name: 'epsilon',
    type: Real,
    default: 0,
    help: "this actuator's weight of the deformation energy in the QP (the solver's epsilon when not set)",
  });
  readonly initForce = this.initData({ name: 'initForce', type: Real, default: 0, help: 'λ reported before the first step' });
  readonly initDisplacement = this.initData({
    name: 'initDisplacement',
    type: Real,
    default: 0,
    help: 'displacement before the first step (the reference of maxDispVariation at the first step)',
  });

  readonly force = this.initData({
    name: 'force',
    type: Real,
    default: 0,
    help: 'λ of the last step (SOFA impulse, force·dt)',
    output: true,
  });
  readonly physicalForce = this.initData({
    name: 'physicalForce',
    type: Real,
    default: 0,
    unit: 'N',
    help: 'cable tension of the last step, λ/dt (sofa-ts)',
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
    this.force.setValue(this.initForce.value);
    this.displacement.setValue(this.initDisplacement.value);
  }

  getInverseRows(rows: InverseRows): void {
    const i = this.row;
    rows.setActuator(i, optional(this.epsilon, NaN));
    rows.boundForce(i, optional(this.minForce, -Infinity), optional(this.maxForce, Infinity));
    rows.boundDisplacement(
      i,
      this.maxNegativeDisp.isSet ? -this.maxNegativeDisp.value : -Infinity,
      optional(this.maxPositiveDisp, Infinity),
      this.displacement.value,
      optional(this.maxDispVariation, Infinity),
    );
  }

  storeResults(lambda: Float64Array, delta: Float64Array, dt: number): void {
    this.force.setValue(lambda[this.row]);
    this.physicalForce.setValue(lambda[this.row] / dt);
    this.displacement.setValue(delta[this.row]);
  }

  getConstraintResolution(_out: Array<ConstraintResolution | undefined>): void {
    throw this.error(
      'an actuator is solved by an inverse problem solver',
      'add a QPInverseProblemSolver (or GaussSeidelInverseProblemSolver), or use CableConstraint for direct actuation',
    );
  }
}
