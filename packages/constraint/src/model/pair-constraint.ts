import { contextMechanicalState, BaseLagrangianConstraint, isMechanicalState, type BaseMechanicalState } from '@sofa-ts/core';

/**
 * SOFA's PairInteractionConstraint: a Lagrangian constraint between two states, object1 and
 * object2 (both default to the state of the constraint's node; the same state twice is allowed).
 */
export abstract class PairLagrangianConstraint extends BaseLagrangianConstraint {
  readonly object1 = this.initLink<BaseMechanicalState>({
    name: 'object1',
    help: 'first object of the interaction (default: the state of this node)',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
    aliases: ['mstate1'],
  });
  readonly object2 = this.initLink<BaseMechanicalState>({
    name: 'object2',
    help: 'second object of the interaction (default: object1)',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
    aliases: ['mstate2'],
  });

  private states: BaseMechanicalState[] = [];

  /** Set the two states from code (contact responses). */
  setStates(s1: BaseMechanicalState, s2: BaseMechanicalState): void {
    this.object1.set(s1);
    this.object2.set(s2);
    this.states = s1 === s2 ? [s1] : [s1, s2];
  }

  override init(): void {
    const s1 = this.object1.get() ?? contextMechanicalState(this.context);
    if (!s1) throw this.error('no mechanical state: set object1 and object2, or put a MechanicalObject in the node or an ancestor');
    const s2 = this.object2.get() ?? s1;
    this.setStates(s1, s2);
    if (!this.template) this.template = s1.stateType.name;
  }

  get state1(): BaseMechanicalState {
    return this.object1.get()!;
  }

  get state2(): BaseMechanicalState {
    return this.object2.get()!;
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }
}
