import { BaseCollisionPipeline, Bool, Int, nonNegative, orReset, sofaComponent, type BaseObject } from '@sofa-ts/core';
import { isBroadPhase, type BroadPhase } from '../detection/broad-phase.js';
import { DiscreteIntersection } from '../detection/DiscreteIntersection.js';
import { isIntersectionMethod, type IntersectionMethod } from '../detection/intersection-method.js';
import { isNarrowPhase, type NarrowPhase } from '../detection/narrow-phase.js';
import { isCollisionModel, type CollisionModel } from '../model/CollisionModel.js';
import { isContactManager, type CollisionResponse } from '../response/CollisionResponse.js';
import { CollisionStage } from './collision-stage.js';

/**
 * SOFA's CollisionPipeline (formerly DefaultPipeline): the collision step of the animation loop,
 * before the solvers. It uses the first intersection method, broad phase, narrow phase and contact
 * manager of its subtree (DiscreteIntersection when there is no intersection method), and every
 * collision model of the scene in graph order (depth first, document order), gathered at init.
 * Each step: bounding trees, broad and narrow phases, then contacts and their responses (see
 * CollisionStage). `depth` is the depth of the bounding trees.
 */
@sofaComponent({
  name: 'CollisionPipeline',
  aliases: ['DefaultPipeline'],
  category: 'CollisionAlgorithm',
  module: 'Sofa.Component.Collision.Detection.Algorithm',
  description: 'The default collision detection and modeling pipeline.',
})
export class CollisionPipeline extends BaseCollisionPipeline {
  readonly verbose = this.initData({
    name: 'verbose',
    type: Bool,
    default: false,
    help: 'display extra information at each computation step',
  });
  readonly draw = this.initData({ name: 'draw', type: Bool, default: false, help: 'draw the detected collisions', group: 'Visualization' });
  readonly depth = this.initData({
    name: 'depth',
    type: Int,
    default: 6,
    range: orReset(nonNegative, 6),
    help: 'max depth of bounding trees',
  });

  private stage: CollisionStage | undefined;

  /** The chain, built at the first step (after every component's init). */
  getStage(): CollisionStage {
    if (!this.stage) {
      const node = this.context;
      const find = <T extends BaseObject>(pred: (o: unknown) => o is T): T | undefined => node.getObject((o): o is T => pred(o), 'down');
      const intersection = find<IntersectionMethod>(isIntersectionMethod) ?? defaultIntersection(this);
      const broadPhase = find<BroadPhase>(isBroadPhase);
      const narrowPhase = find<NarrowPhase>(isNarrowPhase);
      const contactManager = find<CollisionResponse>(isContactManager);
      const missing = [
        !broadPhase && 'a broad phase (BruteForceBroadPhase)',
        !narrowPhase && 'a narrow phase (BVHNarrowPhase)',
        !contactManager && 'a contact manager (CollisionResponse)',
      ].filter(Boolean);
      if (missing.length > 0)
        throw this.error(
          `the collision pipeline needs ${missing.join(', ')} in its node or below`,
          'add the missing components next to the pipeline',
        );
      // Models of deactivated nodes (activated="0" on them or an ancestor) take no part, as SOFA's visitors skip those nodes.
      const active = (o: BaseObject): boolean => {
        for (let n: typeof node | undefined = o.context; n; n = n.parent) if (!n.activated.value) return false;
        return true;
      };
      const models = node.root.getObjects((o): o is CollisionModel => isCollisionModel(o), 'down').filter(active);
      this.stage = new CollisionStage({
        models,
        intersection,
        broadPhase: broadPhase!,
        narrowPhase: narrowPhase!,
        contactManager: contactManager!,
        depth: this.depth.value,
        node,
      });
    }
    return this.stage;
  }

  computeCollisionReset(): void {
    this.getStage();
  }

  computeCollisionDetection(): void {
    this.getStage().detect();
  }

  computeCollisionResponse(): void {
    this.getStage().respond();
  }
}

/** SOFA falls back on a DiscreteIntersection when the scene has no intersection method. */
function defaultIntersection(owner: CollisionPipeline): IntersectionMethod {
  const d = new DiscreteIntersection();
  d.name.value = 'DiscreteIntersection';
  d.loc = owner.loc;
  d.componentState = 'valid';
  return d;
}
