import { sofaComponent } from '@sofa-ts/core';
import type { CollisionModel } from '../model/CollisionModel.js';
import { BroadPhase, type ModelPair } from './broad-phase.js';
import type { IntersectionMethod } from './intersection-method.js';

/**
 * SOFA's BruteForceBroadPhase: every model is tested against every model before it (O(n²) root-box
 * tests), giving pairs (later model, earlier model); a model that collides with itself is paired
 * with itself first.
 */
@sofaComponent({
  name: 'BruteForceBroadPhase',
  aliases: ['BruteForceDetection'],
  category: 'CollisionAlgorithm',
  module: 'Sofa.Component.Collision.Detection.Algorithm',
  description: 'Broad phase collision detection using extensive pair-wise tests.',
})
export class BruteForceBroadPhase extends BroadPhase {
  computePairs(models: readonly CollisionModel[], method: IntersectionMethod, pairs: ModelPair[]): void {
    const list = this.candidates(models, method);
    for (let k = 0; k < list.length; k++) {
      const m = list[k];
      if (this.selfPair(m, method)) pairs.push({ a: m, b: m });
      for (let p = 0; p < k; p++) {
        const o = list[p];
        if (this.keepPair(m, o, method)) pairs.push({ a: m, b: o });
      }
    }
  }
}
