import {
  contextStateLink,
  BaseLagrangianConstraint,
  Bool,
  Indices,
  Real,
  Vec3,
  sofaComponent,
  type BaseMechanicalState,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
  type ConstraintResolution,
} from '@sofa-ts/core';
import { optional, type InverseConstraint, type InverseRows } from '../inverse-rows.js';

/**
 * SoftRobots' ForcePointActuator: a force of unknown magnitude λ along the unit `direction`,
 * applied to each of the points `indices` of a Vec3 state, found by the inverse problem. The
 * points share one row (one actuator: every point gets the same force λ·direction):
 *
 *   J = direction on each point,   δ = Σ_i direction · (x_free,i − x_rest,i)
 *
 * (δ, the displacement λ works on, is what J is the gradient of; it has no bound here). λ is SOFA's
 * impulse (force·dt) per point, `physicalForce` = λ/dt. Bounds: λ in [minForce, maxForce] and,
 * when maxForceVariation is set, within that much of the last step's λ; unset bounds are absent.
 * The Data follow SlidingActuator's (SoftRobots.Inverse's own are not known to sofa-ts); for one
 * force per point with its own magnitude, use one ForcePointActuator per point.
 */
@sofaComponent({
  name: 'ForcePointActuator',
  category: 'SoftRobots.Inverse',
  module: 'SoftRobots.Inverse',
  description: 'A force along a direction applied on points, its magnitude found by the inverse problem solver.',
  templates: ['Vec3d'],
})
export class ForcePointActuator extends BaseLagrangianConstraint implements InverseConstraint {
  readonly inverseRole = 'actuator';
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: Uint32Array.of(0),
    help: 'points the force is applied on (each gets the whole force)',
  });
  readonly direction = this.initData({
    name: 'direction',
    type: Vec3,
    default: Float64Array.of(1, 0, 0),
    help: 'direction of the force, normalised at init',
  });
  readonly minForce = this.initData({ name: 'minForce', type: Real, default: 0, help: 'lower bound on λ (unbounded when not set)' });
  readonly maxForce = this.initData({ name: 'maxForce', type: Real, default: 0, help: 'upper bound on λ (unbounded when not set)' });
  readonly maxForceVariation = this.initData({
    name: 'maxForceVariation',
    type: Real,
    default: 0,
    help: 'largest change of λ in one step (unbounded when not set)',
  });
  readonly epsilon = this.initData({
    name: 'epsilon',
    type: Real,
    default: 0,
    help: "this actuator's weight of the deformation energy in the QP (the solver's epsilon when not set)",
  });
  readonly showForce = this.initData({ name: 'showForce', type: Bool, default: false, help: 'draw the force', group: 'Visualization' });
  readonly visuScale = this.initData({ name: 'visuScale', type: Real, default: 0.1, help: 'scale of the drawing', group: 'Visualization' });

  readonly force = this.initData({
    name: 'force',
    type: Real,
    default: 0,
    help: 'λ of the last step, per point (SOFA impulse, force·dt)',
    output: true,
  });
  readonly physicalForce = this.initData({
    name: 'physicalForce',
    type: Real,
    default: 0,
    unit: 'N',
    help: 'force of the last step per point, λ/dt (sofa-ts)',
    output: true,
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the Vec3 state of the points (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec3d)',
    ),
  );

  private states: BaseMechanicalState[] = [];
  private row = 0;
  private readonly dir = new Float64Array(3);

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Vec3d') throw this.error(`a Vec3d state is needed (got ${s.stateType.name})`);
    this.template = 'Vec3d';
    this.states = [s];
    if (this.indices.value.length === 0) throw this.error('indices is empty: give the points the force is applied on');
    for (const i of this.indices.value)
      if (i >= s.size) throw this.error(`index ${i} is out of range (${s.describe()} has ${s.size} points)`);
    const u = this.direction.value,
      norm = Math.hypot(u[0], u[1], u[2]);
    if (!(norm > 0)) throw this.error('direction is zero');
    for (let a = 0; a < 3; a++) this.dir[a] = u[a] / norm;
    this.direction.setValue(Float64Array.from(this.dir));
    this.force.setValue(0);
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const s = this.states[0],
      idx = this.indices.value;
    this.row = firstRow;
    for (let p = 0; p < idx.length; p++) J.add(s, firstRow, idx[p], this.dir);
    return 1;
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder): void {
    if (order === 'vel')
      throw this.error('velocity constraints (solveVelocityConstraintFirst) are not supported: pose the problem on positions');
    const s = this.states[0],
      idx = this.indices.value,
      u = this.dir;
    const x = s.xFree,
      x0 = s.x0;
    // δ = Σ direction · (x_free − x_rest)
    let sum = 0;
    for (let p = 0; p < idx.length; p++) {
      const o = 3 * idx[p];
      sum += u[0] * (x[o] - x0[o]) + u[1] * (x[o + 1] - x0[o + 1]) + u[2] * (x[o + 2] - x0[o + 2]);
    }
    out[this.row] = sum;
  }

  getInverseRows(rows: InverseRows): void {
    const i = this.row;
    rows.setActuator(i, optional(this.epsilon, NaN));
    rows.boundForce(
      i,
      optional(this.minForce, -Infinity),
      optional(this.maxForce, Infinity),
      this.force.value,
      optional(this.maxForceVariation, Infinity),
    );
  }

  storeResults(lambda: Float64Array, _delta: Float64Array, dt: number): void {
    this.force.setValue(lambda[this.row]);
    this.physicalForce.setValue(lambda[this.row] / dt);
  }

  override reset(): void {
    this.force.setValue(0);
    this.physicalForce.setValue(0);
  }

  getConstraintResolution(_out: Array<ConstraintResolution | undefined>): void {
    throw this.error(
      'an actuator is solved by an inverse problem solver',
      'add a QPInverseProblemSolver (or GaussSeidelInverseProblemSolver)',
    );
  }
}
