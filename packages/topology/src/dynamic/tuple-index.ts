import { TupleSet } from './tuple-set.js';

/**
 * An index of elements by their vertex set (edges, triangles, quads: 2 to 4 vertices, in any
 * order), over a TupleSet: the smallest index of the elements with a given set of vertices. Used to
 * build the sub-element tables of a large mesh at once (no allocation per lookup).
 */
export class TupleIndex {
  private readonly set: TupleSet;

  /** Indexes `count` tuples of k (2, 3 or 4) vertices stored in `data` (count × k). */
  constructor(k: 2 | 3 | 4, data: Uint32Array, count: number) {
    const set = (this.set = new TupleSet(k, count));
    // the smallest index wins: from the last tuple to the first
    for (let f = count - 1; f >= 0; f--) {
      const o = f * k;
      set.values[set.add(data[o], data[o + 1], k > 2 ? data[o + 2] : 0, k > 3 ? data[o + 3] : 0)] = f;
    }
  }

  /** The smallest index of the tuple with these vertices (c, d ignored below k), or −1. */
  find(a: number, b: number, c = 0, d = 0): number {
    const s = this.set.find(a, b, c, d);
    return s < 0 ? -1 : this.set.values[s];
  }
}
