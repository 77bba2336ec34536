import { BaseObject, integratingSolverNode, sofaComponent, type Node } from '@sofa-ts/core';
import { isCollisionModel, type CollisionModel } from '../model/CollisionModel.js';

/**
 * SOFA's DefaultCollisionGroupManager (SofaMiscCollision): for each contact between objects
 * integrated by different ODE solvers, SOFA moves both into one "integration group" node under a
 * merged solver, so that the contact is solved implicitly with both. Objects already under one
 * solver need no group: the manager changes nothing, which is all sofa-ts does. sofa-ts does not
 * build merged groups: at bwdInit, when the simulated collision models below this node are
 * integrated by more than one solver, a located warning says that contacts between them are not
 * merged into one group (each response acts as an interaction between two solvers' states).
 */
@sofaComponent({
  name: 'DefaultCollisionGroupManager',
  aliases: ['CollisionGroupManager', 'CollisionGroup'],
  category: 'CollisionAlgorithm',
  module: 'SofaMiscCollision',
  description: 'Merges the ODE solvers of colliding objects into integration groups (a no-op when one solver integrates them all).',
})
export class DefaultCollisionGroupManager extends BaseObject {
  override bwdInit(): void {
    const solvers = new Map<Node | undefined, CollisionModel>();
    this.context.visit((n) => {
      for (const o of n.objects) if (isCollisionModel(o) && o.isSimulated && o.isActive) solvers.set(solverNode(n), o);
    });
    if (solvers.size > 1) {
      const names = [...solvers.values()].map((m) => m.describe()).join(', ');
      this.warn(
        `the collision models ${names} are integrated by different ODE solvers: sofa-ts does not merge colliding objects into one integration group (their contacts couple the solvers' states as interactions)`,
      );
    }
  }
}

/** The node whose ODE solver integrates n (core's integratingSolverNode; undefined: none). */
function solverNode(n: Node): Node | undefined {
  return integratingSolverNode(n);
}
