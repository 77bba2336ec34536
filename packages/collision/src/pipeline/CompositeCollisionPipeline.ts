import { BaseCollisionPipeline, Bool, sofaComponent } from '@sofa-ts/core';
import { isSubCollisionPipeline, type SubCollisionPipeline } from './SubCollisionPipeline.js';

/**
 * SOFA's CompositeCollisionPipeline (also named MultiCollisionPipeline): runs several
 * SubCollisionPipeline chains in turn, each on its own collision models: all detections, then all
 * responses. parallelDetection is accepted; sofa-ts runs the chains one after the other.
 */
@sofaComponent({
  name: 'CompositeCollisionPipeline',
  aliases: ['MultiCollisionPipeline'],
  category: 'CollisionAlgorithm',
  module: 'Sofa.Component.Collision.Detection.Algorithm',
  description: 'Multiple collision pipelines in one.',
})
export class CompositeCollisionPipeline extends BaseCollisionPipeline {
  readonly parallelDetection = this.initData({
    name: 'parallelDetection',
    type: Bool,
    default: false,
    help: 'parallelize collision detection (accepted; chains run one after the other)',
  });
  readonly subCollisionPipelines = this.initLink<SubCollisionPipeline>({
    name: 'subCollisionPipelines',
    help: 'the sub collision pipelines to run',
    accepts: isSubCollisionPipeline,
    expected: 'SubCollisionPipeline components',
    multi: true,
  });

  override init(): void {
    if (this.subCollisionPipelines.getAll().length === 0)
      throw this.error('no SubCollisionPipeline given', 'set subCollisionPipelines="@sub1 @sub2 ..."');
  }

  computeCollisionReset(): void {}

  computeCollisionDetection(): void {
    for (const s of this.subCollisionPipelines.getAll()) s.getStage().detect();
  }

  computeCollisionResponse(): void {
    for (const s of this.subCollisionPipelines.getAll()) s.getStage().respond();
  }
}
