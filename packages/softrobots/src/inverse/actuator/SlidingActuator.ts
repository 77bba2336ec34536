import {
  contextStateLink,
  BaseLagrangianConstraint,
  Bool,
  Indices,
  Real,
  RealArray,
  sofaComponent,
  type BaseMechanicalState,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
  type ConstraintResolution,
} from '@sofa-ts/core';
import { optional, type InverseConstraint, type InverseRows } from '../inverse-rows.js';
import { rotationDifference } from '../rotation-difference.js';

/**
 * SoftRobots' SlidingActuator: a force of unknown magnitude λ along `direction` (a unit vector of
 * the state's derivative space: 3 numbers on Vec3, 6 on Rigid3 — a translation and a rotation
 * part) shared by the points `indices` (default: every point of the state), found by the inverse
 * problem. One row, as SoftRobots' SlidingModel builds it:
 *
 *   J = direction / N on each of the N points,   δ = (1/N) Σ_i direction · (x_free,i ⊖ x_rest,i),
 *
 * δ the mean displacement along the direction from the rest positions (on a Rigid3 frame the
 * rotation part of x ⊖ x_rest is the rotation vector of q·q_rest⁻¹, exact to first order about the
 * rest). Each point gets the force λ·direction/N: λ is the total force (SOFA impulse, force·dt),
 * `physicalForce` = λ/dt. Bounds: λ in [minForce, maxForce]; δ in [−maxNegativeDisp,
 * maxPositiveDisp] and within maxDispVariation of the last step's δ; unset bounds are absent.
 * `displacement` is the δ the solver gave (bounds hold on it exactly).
 * Departure: SoftRobots measures δ on the first index only (with the same J = direction/N); the
 * mean is what J is the gradient of, and the two agree when the points move together (one index,
 * a rigid frame, points of a rigid part).
 */
@sofaComponent({
  name: 'SlidingActuator',
  category: 'SoftRobots.Inverse',
  module: 'SoftRobots.Inverse',
  description: 'A force along a direction on a set of points (a sliding actuator), its magnitude found by the inverse problem solver.',
  templates: ['Vec3d', 'Rigid3d'],
})
export class SlidingActuator extends BaseLagrangianConstraint implements InverseConstraint {
  readonly inverseRole = 'actuator';
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'points the force acts on (default: every point of the state)',
  });
  readonly direction = this.initData({
    name: 'direction',
    type: RealArray(0, 'Deriv'),
    default: new Float64Array(0),
    help: 'direction of the actuation, a vector of the derivative space (3 numbers on Vec3, 6 on Rigid3), normalised at init (default: the x axis)',
  });
  readonly minForce = this.initData({ name: 'minForce', type: Real, default: 0, help: 'lower bound on λ (unbounded when not set)' });
  readonly maxForce = this.initData({ name: 'maxForce', type: Real, default: 0, help: 'upper bound on λ (unbounded when not set)' });
  readonly maxPositiveDisp = this.initData({
    name: 'maxPositiveDisp',
    type: Real,
    default: 0,
    help: 'largest displacement along the direction (unbounded when not set)',
  });
  readonly maxNegativeDisp = this.initData({
    name: 'maxNegativeDisp',
    type: Real,
    default: 0,
    help: 'largest displacement against the direction (unbounded when not set)',
  });
  readonly maxDispVariation = this.initData({
    name: 'maxDispVariation',
    type: Real,
    default: 0,
    help: 'largest change of the displacement in one step (unbounded when not set)',
  });
  readonly epsilon = this.initData({
    name: 'epsilon',
    type: Real,
    default: 0,
    help: "this actuator's weight of the deformation energy in the QP (the solver's epsilon when not set)",
  });
  readonly showDirection = this.initData({
    name: 'showDirection',
    type: Bool,
    default: false,
    help: 'draw the direction',
    group: 'Visualization',
  });
  readonly showVisuScale = this.initData({
    name: 'showVisuScale',
    type: Real,
    default: 0.001,
    help: 'scale of the drawing',
    group: 'Visualization',
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
    help: 'force of the last step, λ/dt (sofa-ts)',
    output: true,
  });
  readonly displacement = this.initData({
    name: 'displacement',
    type: Real,
    default: 0,
    help: 'displacement along the direction from the rest positions given by the solver in the last step',
    output: true,
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the state of the points (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec3d or Rigid3d)',
    ),
  );

  private states: BaseMechanicalState[] = [];
  private row = 0;
  /** The unit direction (derivSize numbers) and the state's sizes. */
  private dir = new Float64Array(3);
  private d = 3;
  private c = 3;
  private readonly rot = new Float64Array(3);

  override init(): void {
    const s = this.mstate.require();
    const name = s.stateType.name;
    if (name !== 'Vec3d' && name !== 'Rigid3d') throw this.error(`a Vec3d or Rigid3d state is needed (got ${name})`);
    this.template = name;
    this.states = [s];
    this.d = s.stateType.derivSize;
    this.c = s.stateType.coordSize;
    if (this.indices.value.length === 0) this.indices.setValue(Uint32Array.from({ length: s.size }, (_, i) => i));
    if (this.indices.value.length === 0) throw this.error(`${s.describe()} has no point to actuate`);
    for (const i of this.indices.value)
      if (i >= s.size) throw this.error(`index ${i} is out of range (${s.describe()} has ${s.size} points)`);
    const given = this.direction.value;
    const dir = new Float64Array(this.d);
    if (given.length === 0) dir[0] = 1;
    else if (given.length !== this.d)
      throw this.error(`direction holds ${given.length} numbers: expected ${this.d} (a vector of the ${name} derivative space)`);
    else dir.set(given);
    const norm = Math.hypot(...dir);
    if (!(norm > 0)) throw this.error('direction is zero');
    for (let a = 0; a < this.d; a++) dir[a] /= norm;
    this.dir = dir;
    this.direction.setValue(Float64Array.from(dir));
    this.force.setValue(0);
    this.displacement.setValue(0);
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const s = this.states[0],
      idx = this.indices.value;
    this.row = firstRow;
    const w = 1 / idx.length;
    for (let p = 0; p < idx.length; p++) J.add(s, firstRow, idx[p], this.dir, w);
    return 1;
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder): void {
    if (order === 'vel')
      throw this.error('velocity constraints (solveVelocityConstraintFirst) are not supported: pose the problem on positions');
    const s = this.states[0],
      idx = this.indices.value,
      u = this.dir,
      c = this.c;
    const x = s.xFree,
      x0 = s.x0;
    // δ = (1/N) Σ direction · (x_free ⊖ x_rest)
    let sum = 0;
    for (let p = 0; p < idx.length; p++) {
      const o = c * idx[p];
      sum += u[0] * (x[o] - x0[o]) + u[1] * (x[o + 1] - x0[o + 1]) + u[2] * (x[o + 2] - x0[o + 2]);
      if (this.d === 6) {
        rotationDifference(this.rot, x, o + 3, x0, o + 3);
        sum += u[3] * this.rot[0] + u[4] * this.rot[1] + u[5] * this.rot[2];
      }
    }
    out[this.row] = sum / idx.length;
  }

  getInverseRows(rows: InverseRows): void {
    const i = this.row;
    rows.setActuator(i, optional(this.epsilon, NaN));
    rows.boundForce(i, optional(this.minForce, -Infinity), optional(this.maxForce, Infinity));
    const lo = this.maxNegativeDisp.isSet ? -this.maxNegativeDisp.value : -Infinity;
    rows.boundDisplacement(
      i,
      lo,
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

  override reset(): void {
    this.force.setValue(0);
    this.physicalForce.setValue(0);
    this.displacement.setValue(0);
  }

  getConstraintResolution(_out: Array<ConstraintResolution | undefined>): void {
    throw this.error(
      'an actuator is solved by an inverse problem solver',
      'add a QPInverseProblemSolver (or GaussSeidelInverseProblemSolver)',
    );
  }
}
