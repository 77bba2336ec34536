import {
  contextStateLink,
  BaseLagrangianConstraint,
  UInt,
  type BaseMechanicalState,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
} from '@sofa-ts/core';

const ONE = Float64Array.of(1);

/**
 * What the joint components share (JointConstraint, JointActuator): the coordinate `index` of a Vec1
 * state (a joint angle or slide, e.g. the input of an articulated-chain mapping) and one constraint
 * row, J = 1 on that coordinate, whose violation is read from its free value. The coordinate at init
 * is kept (`initialCoordinate`); the subclasses say what the row imposes.
 */
export abstract class JointModel extends BaseLagrangianConstraint {
  readonly index = this.initData({ name: 'index', type: UInt, default: 0, help: 'the actuated coordinate of the state' });
  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the Vec1 state of the joint coordinates (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec1d)',
    ),
  );

  protected states: BaseMechanicalState[] = [];
  /** The (only) row of the joint in the last problem. */
  protected row = 0;
  /** The coordinate's value at init. */
  protected initialCoordinate = 0;

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Vec1d') throw this.error(`a Vec1d state is needed (got ${s.stateType.name})`);
    this.template = 'Vec1d';
    const i = this.index.value;
    if (i >= s.size) throw this.error(`index ${i} is out of range (${s.describe()} has ${s.size} coordinates)`);
    this.states = [s];
    this.initialCoordinate = s.x[i];
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    this.row = firstRow;
    J.add(this.states[0], firstRow, this.index.value, ONE);
    return 1;
  }

  /** The coordinate at the free positions (the joint's rows are posed on positions). */
  protected freeCoordinate(order: ConstraintOrder): number {
    if (order === 'vel')
      throw this.error('velocity constraints (solveVelocityConstraintFirst) are not supported: pose the problem on positions');
    return this.states[0].xFree[this.index.value];
  }

  /** The coordinate at the current positions. */
  protected coordinate(): number {
    return this.states[0].x[this.index.value];
  }
}
