import { sofaComponent } from '@sofa-ts/core';
import { BruteForceBroadPhase } from './BruteForceBroadPhase.js';

/**
 * SOFA's ParallelBruteForceBroadPhase (MultiThreading): BruteForceBroadPhase's pairs, in its order.
 * sofa-ts computes them on one thread (the collision models are JavaScript objects, not shared
 * memory; with the handful of models of a scene the O(n²) root-box tests cost microseconds) and says
 * so with a warning at init.
 */
@sofaComponent({
  name: 'ParallelBruteForceBroadPhase',
  category: 'CollisionAlgorithm',
  module: 'MultiThreading',
  description: 'Broad phase collision detection using extensive pair-wise tests (SOFA: on several threads; sofa-ts: on one, same pairs).',
})
export class ParallelBruteForceBroadPhase extends BruteForceBroadPhase {
  override init(): void {
    super.init();
    this.warn('runs on one thread in sofa-ts (the same pairs as BruteForceBroadPhase)');
  }
}
