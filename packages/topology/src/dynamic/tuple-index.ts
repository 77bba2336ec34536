/**
 * An index of elements by their vertex set (edges, triangles, quads: 2 to 4 vertices, in any
 * order): an open-addressing hash table of the sorted vertex tuples over typed arrays, giving the
 * smallest index of the elements with a given set of vertices. Used to build the sub-element
 * tables of a large mesh at once (no allocation per lookup).
 */
export class TupleIndex {
  private readonly keys: Uint32Array;
  private readonly values: Int32Array;
  private readonly mask: number;
  /** The sorted tuple of the last lookup. */
  private t0 = 0;
  private t1 = 0;
  private t2 = 0;
  private t3 = 0;

  /** Indexes `count` tuples of k (2, 3 or 4) vertices stored in `data` (count × k). */
  constructor(
    private readonly k: 2 | 3 | 4,
    data: Uint32Array,
    count: number,
  ) {
    let cap = 16;
    while (cap < 2 * count) cap *= 2;
    this.mask = cap - 1;
    this.keys = new Uint32Array(cap * 4);
    this.values = new Int32Array(cap).fill(-1);
    // the smallest index wins: from the last tuple to the first
    for (let f = count - 1; f >= 0; f--) {
      const o = f * k;
      const s = this.lookup(data[o]!, data[o + 1]!, k > 2 ? data[o + 2]! : 0, k > 3 ? data[o + 3]! : 0);
      this.keys[4 * s] = this.t0;
      this.keys[4 * s + 1] = this.t1;
      this.keys[4 * s + 2] = this.t2;
      this.keys[4 * s + 3] = this.t3;
      this.values[s] = f;
    }
  }

  /** The smallest index of the tuple with these vertices (c, d ignored below k), or −1. */
  find(a: number, b: number, c = 0, d = 0): number {
    return this.values[this.lookup(a, b, c, d)]!;
  }

  /** Sorts the vertices (a sorting network) and returns the slot holding them, or the empty slot where they would go. */
  private lookup(a: number, b: number, c: number, d: number): number {
    let x: number;
    if (this.k === 2) {
      if (a > b) (x = a), (a = b), (b = x);
      c = 0;
      d = 0;
    } else if (this.k === 3) {
      if (a > b) (x = a), (a = b), (b = x);
      if (b > c) (x = b), (b = c), (c = x);
      if (a > b) (x = a), (a = b), (b = x);
      d = 0;
    } else {
      if (a > b) (x = a), (a = b), (b = x);
      if (c > d) (x = c), (c = d), (d = x);
      if (a > c) (x = a), (a = c), (c = x);
      if (b > d) (x = b), (b = d), (d = x);
      if (b > c) (x = b), (b = c), (c = x);
    }
    this.t0 = a;
    this.t1 = b;
    this.t2 = c;
    this.t3 = d;
    const h = Math.imul(Math.imul(Math.imul(a ^ 0x27d4eb2d, 0x9e3779b1) ^ b, 0x85ebca6b) ^ c, 0xc2b2ae35) ^ d;
    let s = (Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0) & this.mask;
    const keys = this.keys;
    const values = this.values;
    for (;;) {
      if (values[s] === -1) return s;
      const o = 4 * s;
      if (keys[o] === a && keys[o + 1] === b && keys[o + 2] === c && keys[o + 3] === d) return s;
      s = (s + 1) & this.mask;
    }
  }
}
