import { BaseObject } from '../base-object.js';
import { componentCall } from '../component-call.js';
import type { Node } from '../node.js';

/**
 * A collision pipeline (SOFA core::collision::Pipeline): at each step, before the solvers, it
 * clears the contact responses of the previous step, detects the new contacts (broad phase, narrow
 * phase) and creates their responses (contact force fields, constraints).
 */
export abstract class BaseCollisionPipeline extends BaseObject {
  readonly isCollisionPipeline = true;
  /** Prepares a new detection (SOFA computeCollisionReset). */
  abstract computeCollisionReset(): void;
  /** Bounding trees, broad phase, narrow phase (SOFA computeCollisionDetection). */
  abstract computeCollisionDetection(): void;
  /** Contacts from the detection outputs, and their responses in the graph (SOFA computeCollisionResponse). */
  abstract computeCollisionResponse(): void;
}

export function isCollisionPipeline(o: unknown): o is BaseCollisionPipeline {
  return typeof o === 'object' && o !== null && (o as { isCollisionPipeline?: unknown }).isCollisionPipeline === true;
}

/**
 * SOFA's CollisionVisitor: every valid pipeline of the active part of the tree, in visit order, runs
 * reset, detection and response. Animation loops call it after the begin event, before solving.
 */
export function runCollisionPipelines(root: Node): void {
  const caller = componentCall.current;
  root.visit((n) => {
    if (!n.activated.value) return false;
    for (const o of n.objects) {
      if (!isCollisionPipeline(o) || o.componentState === 'invalid') continue;
      componentCall.current = o;
      o.computeCollisionReset();
      o.computeCollisionDetection();
      o.computeCollisionResponse();
    }
    return true;
  });
  componentCall.current = caller;
}
