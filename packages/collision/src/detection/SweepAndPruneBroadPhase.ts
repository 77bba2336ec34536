import { sofaComponent } from '@sofa-ts/core';
import type { CollisionModel } from '../model/CollisionModel.js';
import { BroadPhase, type ModelPair } from './broad-phase.js';
import type { IntersectionMethod } from './intersection-method.js';

/**
 * A sweep-and-prune broad phase for scenes with many collision models (sofa-ts component; SOFA's
 * own SAP, DirectSAP, works on elements in the narrow phase). The root boxes, enlarged by half the
 * pair margin on each side, are sorted along the axis where their centres spread most; a sweep
 * keeps the boxes whose interval is still open and tests only those against each new box. The pairs
 * found, and their order and orientation, are exactly those of BruteForceBroadPhase (the sweep only
 * avoids the tests of boxes apart along the axis): O(n log n + k) instead of O(n²).
 */
@sofaComponent({
  name: 'SweepAndPruneBroadPhase',
  category: 'CollisionAlgorithm',
  module: 'Sofa.Component.Collision.Detection.Algorithm',
  description: "Broad phase collision detection by sweep and prune of the models' bounding boxes (same pairs as BruteForceBroadPhase).",
})
export class SweepAndPruneBroadPhase extends BroadPhase {
  /** Scratch, grown with the number of models. */
  private lo = new Float64Array(0);
  private hi = new Float64Array(0);
  private order: number[] = [];
  private active: number[] = [];
  private found: number[] = [];

  computePairs(models: readonly CollisionModel[], method: IntersectionMethod, pairs: ModelPair[]): void {
    const list = this.candidates(models, method);
    const n = list.length;
    if (this.lo.length < n) {
      this.lo = new Float64Array(2 * n);
      this.hi = new Float64Array(2 * n);
    }
    // Axis of largest spread of the box centres.
    const axis = this.sweepAxis(list);
    // Each interval is enlarged so that two boxes within the largest pair margin overlap.
    let maxProx = 0;
    for (const m of list) maxProx = Math.max(maxProx, m.getProximity());
    const half = 0.5 * (method.getAlarmDistance() + 2 * maxProx);
    for (let k = 0; k < n; k++) {
      const b = list[k].rootBox();
      this.lo[k] = b[axis] - half;
      this.hi[k] = b[3 + axis] + half;
    }
    const order = this.order;
    order.length = n;
    for (let k = 0; k < n; k++) order[k] = k;
    order.sort((p, q) => this.lo[p] - this.lo[q]);
    // Candidate pairs (k, p) with p < k, encoded k·n + p.
    const found = this.found;
    found.length = 0;
    const active = this.active;
    active.length = 0;
    for (const k of order) {
      let w = 0;
      for (let r = 0; r < active.length; r++) {
        const p = active[r];
        if (this.hi[p] < this.lo[k]) continue; // closed: drop it
        active[w++] = p;
        found.push(k > p ? k * n + p : p * n + k);
      }
      active.length = w;
      active.push(k);
    }
    found.sort((u, v) => u - v);
    // Same order as the brute force: for each model, itself, then the models before it.
    let f = 0;
    for (let k = 0; k < n; k++) {
      const m = list[k];
      if (this.selfPair(m, method)) pairs.push({ a: m, b: m });
      while (f < found.length && Math.floor(found[f] / n) === k) {
        const o = list[found[f] % n];
        if (this.keepPair(m, o, method)) pairs.push({ a: m, b: o });
        f++;
      }
    }
  }

  private sweepAxis(list: readonly CollisionModel[]): number {
    const s = [0, 0, 0],
      s2 = [0, 0, 0];
    for (const m of list) {
      const b = m.rootBox();
      for (let c = 0; c < 3; c++) {
        const v = 0.5 * (b[c] + b[3 + c]);
        s[c] += v;
        s2[c] += v * v;
      }
    }
    let best = 0,
      bestVar = -1;
    for (let c = 0; c < 3; c++) {
      const v = s2[c] - (s[c] * s[c]) / Math.max(1, list.length);
      if (v > bestVar) {
        bestVar = v;
        best = c;
      }
    }
    return best;
  }
}
