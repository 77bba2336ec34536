import { BaseObject, Int, nonNegative, orReset, sofaComponent } from '@sofa-ts/core';
import { isBroadPhase, type BroadPhase } from '../detection/broad-phase.js';
import { isIntersectionMethod, type IntersectionMethod } from '../detection/intersection-method.js';
import { isNarrowPhase, type NarrowPhase } from '../detection/narrow-phase.js';
import { isCollisionModel, type CollisionModel } from '../model/CollisionModel.js';
import { isContactManager, type CollisionResponse } from '../response/CollisionResponse.js';
import { CollisionStage } from './collision-stage.js';

/**
 * SOFA's SubCollisionPipeline: one detection-and-response chain over the collision models it links
 * (collisionModels="@a @b ..."), with its own intersection method, broad phase, narrow phase and
 * contact manager; run by a CompositeCollisionPipeline. Responses between two simulated models go
 * to this component's node.
 */
@sofaComponent({
  name: 'SubCollisionPipeline',
  category: 'CollisionAlgorithm',
  module: 'Sofa.Component.Collision.Detection.Algorithm',
  description: 'Collision pipeline to be used with CompositeCollisionPipeline.',
})
export class SubCollisionPipeline extends BaseObject {
  readonly isSubCollisionPipeline = true;
  readonly depth = this.initData({
    name: 'depth',
    type: Int,
    default: 6,
    range: orReset(nonNegative, 6),
    help: 'max depth of bounding trees',
  });
  readonly collisionModels = this.initLink<CollisionModel>({
    name: 'collisionModels',
    help: 'collision models considered by this pipeline',
    accepts: isCollisionModel,
    expected: 'collision models',
    multi: true,
  });
  readonly intersectionMethod = this.initLink<IntersectionMethod>({
    name: 'intersectionMethod',
    help: 'intersection method of this pipeline',
    accepts: isIntersectionMethod,
    expected: 'an intersection method (NewProximityIntersection, ...)',
    required: true,
  });
  readonly contactManager = this.initLink<CollisionResponse>({
    name: 'contactManager',
    help: 'contact manager of this pipeline',
    accepts: isContactManager,
    expected: 'a contact manager (CollisionResponse, ...)',
    required: true,
  });
  readonly broadPhaseDetection = this.initLink<BroadPhase>({
    name: 'broadPhaseDetection',
    help: 'broad phase of this pipeline',
    accepts: isBroadPhase,
    expected: 'a broad phase (BruteForceBroadPhase, ...)',
    required: true,
  });
  readonly narrowPhaseDetection = this.initLink<NarrowPhase>({
    name: 'narrowPhaseDetection',
    help: 'narrow phase of this pipeline',
    accepts: isNarrowPhase,
    expected: 'a narrow phase (BVHNarrowPhase)',
    required: true,
  });

  private stage: CollisionStage | undefined;

  override init(): void {
    if (this.collisionModels.getAll().length === 0)
      throw this.error('no collision model given', 'set collisionModels="@model1 @model2 ..."');
  }

  getStage(): CollisionStage {
    this.stage ??= new CollisionStage({
      models: this.collisionModels.getAll(),
      intersection: this.intersectionMethod.require(),
      broadPhase: this.broadPhaseDetection.require(),
      narrowPhase: this.narrowPhaseDetection.require(),
      contactManager: this.contactManager.require(),
      depth: this.depth.value,
      node: this.context,
    });
    return this.stage;
  }
}

export function isSubCollisionPipeline(o: unknown): o is SubCollisionPipeline {
  return typeof o === 'object' && o !== null && (o as { isSubCollisionPipeline?: unknown }).isSubCollisionPipeline === true;
}
