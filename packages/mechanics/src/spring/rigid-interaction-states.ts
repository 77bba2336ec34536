import { contextMechanicalState, type BaseMechanicalState, type BaseObject, type Link } from '@sofa-ts/core';

/**
 * The two Rigid3d states of an interaction between frames (JointSpringForceField,
 * GearSpringForceField): object1, else the state of the component's node; object2, else object1.
 * Both links are set to what was found; the component's template becomes Rigid3d. Returns the
 * states the component acts on (one when both sides are the same state).
 */
export function rigidInteractionStates(
  owner: BaseObject,
  object1: Link<BaseMechanicalState>,
  object2: Link<BaseMechanicalState>,
): BaseMechanicalState[] {
  const s1 = object1.get() ?? contextMechanicalState(owner.context);
  if (!s1) throw owner.error('no mechanical state: set object1 or put a MechanicalObject in the node');
  const s2 = object2.get() ?? s1;
  object1.set(s1);
  object2.set(s2);
  if (s1.stateType.name !== 'Rigid3d' || s2.stateType.name !== 'Rigid3d')
    throw owner.error(`Rigid3d states are needed (got ${s1.stateType.name} and ${s2.stateType.name})`);
  owner.template = 'Rigid3d';
  return s1 === s2 ? [s1] : [s1, s2];
}
