import { sofaComponent } from '@sofa-ts/core';
import type { CollisionModel } from '../model/CollisionModel.js';
import type { IntersectionMethod } from './intersection-method.js';
import { NarrowPhase } from './narrow-phase.js';

/**
 * SOFA's BVHNarrowPhase: simultaneous descent of the two bounding trees. A stack holds pairs of
 * cube ranges (level, begin, end); for each pair of overlapping cubes (boxes within the alarm
 * distance and the models' contactDistance), their children are pushed (a cube without children
 * stands for itself against the other's children); two leaf cubes are tested at once with the
 * intersection method's element test. The stack is last-in first-out and the cubes are scanned in
 * order, as in SOFA, so the outputs come in SOFA's order. Elements of two models of the same node
 * are filtered by the models' canCollideWithElement.
 */
@sofaComponent({
  name: 'BVHNarrowPhase',
  category: 'CollisionAlgorithm',
  module: 'Sofa.Component.Collision.Detection.Algorithm',
  description: 'Narrow phase collision detection based on bounding volume hierarchies.',
})
export class BVHNarrowPhase extends NarrowPhase {
  /** Stack of range pairs: (levelA, beginA, endA, levelB, beginB, endB) per entry. */
  private stack = new Int32Array(6 * 64);

  protected addCollisionPair(a0: CollisionModel, b0: CollisionModel, method: IntersectionMethod): void {
    if (!a0.isSimulated && !b0.isSimulated) return;
    if (a0.size === 0 || b0.size === 0) return;
    const found = method.findIntersector(a0.kind, b0.kind);
    if (!found) return;
    const a = found.swap ? b0 : a0;
    const b = found.swap ? a0 : b0;
    const out = this.outputsFor(a, b);
    const test = found.test;
    const self = a.context === b.context;
    const ta = a.tree,
      tb = b.tree;
    if (!ta.built || !tb.built) return;
    const margin = method.boxMargin(a, b);
    const la0 = ta.levels[0],
      lb0 = tb.levels[0];
    let top = 0;
    top = this.push(top, la0.subLevel[0], la0.subBegin[0], la0.subEnd[0], lb0.subLevel[0], lb0.subBegin[0], lb0.subEnd[0]);
    const leafA = ta.leafLevel,
      leafB = tb.leafLevel;
    while (top > 0) {
      top--;
      const s = this.stack;
      const o = 6 * top;
      const lvA = s[o],
        bA = s[o + 1],
        eA = s[o + 2],
        lvB = s[o + 3],
        bB = s[o + 4],
        eB = s[o + 5];
      const boxA = ta.boxesOf(lvA),
        boxB = tb.boxesOf(lvB);
      const levA = lvA === leafA ? undefined : ta.levels[lvA];
      const levB = lvB === leafB ? undefined : tb.levels[lvB];
      for (let i = bA; i < eA; i++) {
        for (let j = bB; j < eB; j++) {
          if (!method.boxesOverlap(boxA, 6 * i, boxB, 6 * j, margin)) continue;
          if (levA) {
            if (levB)
              top = this.push(top, levA.subLevel[i], levA.subBegin[i], levA.subEnd[i], levB.subLevel[j], levB.subBegin[j], levB.subEnd[j]);
            else top = this.push(top, levA.subLevel[i], levA.subBegin[i], levA.subEnd[i], lvB, j, j + 1);
          } else if (levB) {
            top = this.push(top, lvA, i, i + 1, levB.subLevel[j], levB.subBegin[j], levB.subEnd[j]);
          } else {
            // two leaf cubes: test their elements
            const ea = ta.leafElement[i],
              eb = tb.leafElement[j];
            if (!self || a.canCollideWithElement(ea, b, eb)) test(a, ea, b, eb, out);
          }
        }
      }
    }
  }

  private push(top: number, la: number, ba: number, ea: number, lb: number, bb: number, eb: number): number {
    if (6 * (top + 1) > this.stack.length) {
      const s = new Int32Array(2 * this.stack.length);
      s.set(this.stack);
      this.stack = s;
    }
    const s = this.stack;
    const o = 6 * top;
    s[o] = la;
    s[o + 1] = ba;
    s[o + 2] = ea;
    s[o + 3] = lb;
    s[o + 4] = bb;
    s[o + 5] = eb;
    return top + 1;
  }
}
