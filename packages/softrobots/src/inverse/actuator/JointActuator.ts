import { Real, sofaComponent, type ConstraintOrder, type ConstraintResolution } from '@sofa-ts/core';
import { JointModel } from '../../constraint/joint-model.js';
import { optional, type InverseConstraint, type InverseRows } from '../inverse-rows.js';

/**
 * SoftRobots' JointActuator: the coordinate `index` of a Vec1 state (a joint angle, e.g. the input
 * of an articulated-chain mapping) driven by an effort λ found by the inverse problem. One row at
 * the free positions,
 *
 *   δ = q_free (the angle itself),   J = 1 on that coordinate,
 *
 * so that minAngle/maxAngle are the joint's limits in the state's own values (not relative to the
 * initial angle, as the direct JointConstraint's displacement is; the two agree for a joint that
 * starts at 0). Bounds: λ in [minForce, maxForce]; q in [minAngle, maxAngle] and within
 * maxAngleVariation of the last step's angle (the initial angle at the first step); unset bounds
 * are absent, and a joint that starts beyond a limit is brought back at maxAngleVariation per step
 * (variation-window.ts). λ is SOFA's impulse (effort·dt), `physicalForce` = λ/dt; `angle` is the angle the
 * solver gave (exact: the row is linear). SoftRobots.Inverse's own Data are not known to sofa-ts:
 * the names are sofa-ts' choice, after JointConstraint's (index, minForce, maxForce, force) and
 * CableActuator's (epsilon).
 */
@sofaComponent({
  name: 'JointActuator',
  category: 'SoftRobots.Inverse',
  module: 'SoftRobots.Inverse',
  description: 'A joint coordinate (Vec1 state) driven by an effort found by the inverse problem solver.',
  templates: ['Vec1d'],
})
export class JointActuator extends JointModel implements InverseConstraint {
  readonly inverseRole = 'actuator';
  readonly minAngle = this.initData({
    name: 'minAngle',
    type: Real,
    default: 0,
    help: 'lower limit of the angle (unbounded when not set)',
  });
  readonly maxAngle = this.initData({
    name: 'maxAngle',
    type: Real,
    default: 0,
    help: 'upper limit of the angle (unbounded when not set)',
  });
  readonly maxAngleVariation = this.initData({
    name: 'maxAngleVariation',
    type: Real,
    default: 0,
    help: 'largest change of the angle in one step (unbounded when not set)',
  });
  readonly minForce = this.initData({ name: 'minForce', type: Real, default: 0, help: 'lower bound on λ (unbounded when not set)' });
  readonly maxForce = this.initData({ name: 'maxForce', type: Real, default: 0, help: 'upper bound on λ (unbounded when not set)' });
  readonly epsilon = this.initData({
    name: 'epsilon',
    type: Real,
    default: 0,
    help: "this actuator's weight of the deformation energy in the QP (the solver's epsilon when not set)",
  });

  readonly force = this.initData({
    name: 'force',
    type: Real,
    default: 0,
    help: 'λ of the last step (SOFA impulse, effort·dt)',
    output: true,
  });
  readonly physicalForce = this.initData({
    name: 'physicalForce',
    type: Real,
    default: 0,
    help: 'effort of the last step, λ/dt (sofa-ts)',
    output: true,
  });
  readonly angle = this.initData({
    name: 'angle',
    type: Real,
    default: 0,
    help: 'angle given by the solver in the last step (the initial angle before the first step)',
    output: true,
  });

  override init(): void {
    super.init();
    this.reset();
  }

  override reset(): void {
    this.force.setValue(0);
    this.physicalForce.setValue(0);
    this.angle.setValue(this.initialCoordinate);
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder): void {
    out[this.row] = this.freeCoordinate(order);
  }

  getInverseRows(rows: InverseRows): void {
    const i = this.row;
    rows.setActuator(i, optional(this.epsilon, NaN));
    rows.boundForce(i, optional(this.minForce, -Infinity), optional(this.maxForce, Infinity));
    rows.boundDisplacement(
      i,
      optional(this.minAngle, -Infinity),
      optional(this.maxAngle, Infinity),
      this.angle.value,
      optional(this.maxAngleVariation, Infinity),
    );
  }

  storeResults(lambda: Float64Array, delta: Float64Array, dt: number): void {
    this.force.setValue(lambda[this.row]);
    this.physicalForce.setValue(lambda[this.row] / dt);
    this.angle.setValue(delta[this.row]);
  }

  getConstraintResolution(_out: Array<ConstraintResolution | undefined>): void {
    throw this.error(
      'an actuator is solved by an inverse problem solver',
      'add a QPInverseProblemSolver (or GaussSeidelInverseProblemSolver), or use JointConstraint for direct actuation',
    );
  }
}
