import { sofaComponent } from '@sofa-ts/core';
import { BVHNarrowPhase } from './BVHNarrowPhase.js';

/**
 * SOFA's ParallelBVHNarrowPhase (MultiThreading): BVHNarrowPhase's descent of the bounding trees,
 * with the same outputs in the same order. sofa-ts runs it on one thread (the collision models and
 * their intersection tests are JavaScript objects, not shared memory) and says so with a warning at
 * init.
 */
@sofaComponent({
  name: 'ParallelBVHNarrowPhase',
  category: 'CollisionAlgorithm',
  module: 'MultiThreading',
  description:
    'Narrow phase collision detection based on bounding volume hierarchies (SOFA: on several threads; sofa-ts: on one, same outputs).',
})
export class ParallelBVHNarrowPhase extends BVHNarrowPhase {
  override init(): void {
    super.init();
    this.warn('runs on one thread in sofa-ts (the same contacts as BVHNarrowPhase)');
  }
}
