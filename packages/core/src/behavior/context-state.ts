import type { LinkSpec } from '../link.js';
import type { Node } from '../node.js';
import { isMechanicalState, type BaseMechanicalState } from './mechanical-state.js';

/**
 * The mechanical state of a node's context, as SOFA's Node::getMechanicalState gives it: the state
 * of the node itself, else (SearchParents) the first state of the nearest ancestor that has one.
 * Force fields, masses, projective and Lagrangian constraints, constraint corrections and collision
 * models without an `mstate` link act on it (SOFA's SingleStateAccessor and CollisionModel init),
 * so a child node holding only a topology and a force field works on its parent's points.
 */
export function contextMechanicalState(node: Node): BaseMechanicalState | undefined {
  return node.getObject(isMechanicalState, 'up');
}

/**
 * The `mstate` link of a component acting on one state (SOFA SingleStateAccessor): when the scene
 * does not set it, the context's state (contextMechanicalState: this node, else its ancestors).
 */
export function contextStateLink(
  help = 'the mechanical state this component acts on (default: the one of its node, else of the nearest ancestor that has one)',
  expected = 'a MechanicalObject',
): LinkSpec<BaseMechanicalState> {
  return { name: 'mstate', help, accepts: isMechanicalState, expected, search: 'up', required: true };
}
