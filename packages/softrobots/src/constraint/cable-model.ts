import {
  contextStateLink,
  AnimateEndEvent,
  BaseLagrangianConstraint,
  Bool,
  Indices,
  Real,
  Vec3,
  type BaseMechanicalState,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
  type SofaEvent,
} from '@sofa-ts/core';
import { cableGradient, cableLength } from './cable-geometry.js';

/**
 * What every cable component of SoftRobots shares (its CableModel): a cable from `pullPoint`
 * through the points `indices` of a Vec3 state, one constraint row whose violation is the cable's
 * shortening δ = L₀ − L at the free positions and whose row is J = ∂δ/∂x there (see
 * cable-geometry.ts), and the measured length at the end of each step. The direct CableConstraint,
 * the inverse CableActuator, CableEquality and CableEffector add what they impose on that row.
 */
export abstract class CableModel extends BaseLagrangianConstraint {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'points of the state the cable passes through, in order from the pull point (a point may repeat)',
  });
  readonly pullPoint = this.initData({
    name: 'pullPoint',
    type: Vec3,
    default: new Float64Array(3),
    help: 'fixed point from which the cable is pulled',
  });
  readonly hasPullPoint = this.initData({
    name: 'hasPullPoint',
    type: Bool,
    default: true,
    help: 'true: the cable starts at pullPoint; false: it starts at the first of indices',
  });
  readonly cableInitialLength = this.initData({
    name: 'cableInitialLength',
    type: Real,
    default: 0,
    help: 'rest length L₀ of the cable (computed from the positions at init unless given)',
  });
  readonly cableLength = this.initData({
    name: 'cableLength',
    type: Real,
    default: 0,
    help: 'cable length L at the end of the last step',
    output: true,
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the Vec3 state the cable runs through (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec3d)',
    ),
  );

  protected states: BaseMechanicalState[] = [];
  /** First (only) row of the cable in the last problem. */
  protected row = 0;
  private grad = new Float64Array(0);
  private readonly entry = new Float64Array(3);

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Vec3d') throw this.error(`a Vec3d state is needed (got ${s.stateType.name})`);
    this.template = 'Vec3d';
    this.states = [s];
    const idx = this.indices.value;
    if (idx.length === 0) throw this.error('indices is empty: give the points the cable runs through');
    for (const i of idx) if (i >= s.size) throw this.error(`index ${i} is out of range (${s.describe()} has ${s.size} points)`);
    if (!this.hasPullPoint.value && idx.length < 2) throw this.error('without a pull point the cable needs at least two indices');
    this.grad = new Float64Array(3 * idx.length);
    const L = cableLength(s.x, idx, this.pull());
    if (!this.cableInitialLength.isSet) this.cableInitialLength.setValue(L);
    this.cableLength.setValue(L);
  }

  protected pull(): Float64Array | undefined {
    return this.hasPullPoint.value ? this.pullPoint.value : undefined;
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  /** Sign of the row: +1 for the shortening δ = L₀ − L, −1 for the length L (CableEffector). */
  protected get rowSign(): number {
    return 1;
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const s = this.states[0];
    const idx = this.indices.value;
    if (this.grad.length !== 3 * idx.length) this.grad = new Float64Array(3 * idx.length);
    this.row = firstRow;
    // at the free positions, where SOFA's FreeMotionAnimationLoop builds the constraint rows
    cableGradient(this.grad, s.xFree, idx, this.pull());
    const g = this.grad,
      e = this.entry,
      sign = this.rowSign;
    for (let k = 0; k < idx.length; k++) {
      e[0] = sign * g[3 * k];
      e[1] = sign * g[3 * k + 1];
      e[2] = sign * g[3 * k + 2];
      J.add(s, firstRow, idx[k], e);
    }
    return 1;
  }

  /** The cable's shortening L₀ − L at the free positions. */
  protected freeShortening(order: ConstraintOrder): number {
    if (order === 'vel')
      throw this.error('velocity constraints (solveVelocityConstraintFirst) are not supported by the cable: pose the problem on positions');
    return this.cableInitialLength.value - cableLength(this.states[0].xFree, this.indices.value, this.pull());
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder): void {
    out[this.row] = this.freeShortening(order);
  }

  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateEndEvent) || this.states.length === 0) return;
    this.cableLength.setValue(cableLength(this.states[0].x, this.indices.value, this.pull()));
  }
}
