import { componentCall } from '../component-call.js';
import type { Node } from '../node.js';
import { isBaseMapping } from './mapping.js';

/**
 * SOFA's UpdateMappingVisitor: every mapping of the active part of the tree applies, visual ones
 * included, in visit order (a node's objects before its children): positions, and the velocities
 * of non-mechanical states (MappedObject). Animation loops call it at the
 * end of a step, so that visual models and collision states follow the states the solvers moved.
 */
export function updateMappings(root: Node): void {
  const caller = componentCall.current;
  root.visit((n) => {
    if (!n.activated.value) return false;
    for (const o of n.objects) {
      if (!isBaseMapping(o)) continue;
      componentCall.current = o;
      o.apply();
      o.applyVelocity();
    }
    return true;
  });
  componentCall.current = caller;
}
