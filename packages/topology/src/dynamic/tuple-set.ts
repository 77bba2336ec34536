/**
 * A set of index tuples of 2 to 4 vertices taken in any order (an edge, a triangle or a quad given
 * by its vertices): an open-addressing hash table of the sorted tuples over typed arrays, with a
 * value and a flag per tuple for the caller. It doubles when half full (`capacity` is a hint of the
 * number of tuples); no allocation per lookup. Slots change when it grows: read them after the adds.
 */
export class TupleSet {
  /** (slots × k) the sorted vertices of the tuple in each slot. */
  keys: Uint32Array;
  /** (slots) 1 where a slot holds a tuple. */
  used: Uint8Array;
  /** (slots) free for the caller (e.g. "also in a kept element"). */
  flags: Uint8Array;
  /** (slots) free for the caller (e.g. the index of the element with these vertices); −1 at first. */
  values: Int32Array;
  /** Number of tuples. */
  size = 0;
  private mask: number;
  /** The sorted tuple of the last lookup. */
  private t0 = 0;
  private t1 = 0;
  private t2 = 0;
  private t3 = 0;

  constructor(
    readonly k: 2 | 3 | 4,
    capacity: number,
  ) {
    let slots = 16;
    while (slots < 2 * capacity) slots *= 2;
    this.mask = slots - 1;
    this.keys = new Uint32Array(slots * k);
    this.used = new Uint8Array(slots);
    this.flags = new Uint8Array(slots);
    this.values = new Int32Array(slots).fill(-1);
  }

  /** Number of slots (iterate 0 … slots − 1 and test `used`). */
  get slots(): number {
    return this.used.length;
  }

  /** Adds the tuple (c, d ignored below k) if absent; returns its slot (until the next add). */
  add(a: number, b: number, c = 0, d = 0): number {
    if (2 * (this.size + 1) > this.used.length) this.grow();
    const s = this.lookup(a, b, c, d);
    if (this.used[s] === 0) {
      this.used[s] = 1;
      this.size++;
      this.store(s);
    }
    return s;
  }

  /** The slot of the tuple, or −1 when absent. */
  find(a: number, b: number, c = 0, d = 0): number {
    const s = this.lookup(a, b, c, d);
    return this.used[s] === 1 ? s : -1;
  }

  /** Writes the sorted tuple of the last lookup into slot s. */
  private store(s: number): void {
    const o = this.k * s;
    this.keys[o] = this.t0;
    this.keys[o + 1] = this.t1;
    if (this.k > 2) this.keys[o + 2] = this.t2;
    if (this.k > 3) this.keys[o + 3] = this.t3;
  }

  /** Twice the slots, every tuple (with its value and flag) placed again. */
  private grow(): void {
    const k = this.k;
    const { keys, used, flags, values } = this;
    const slots = 2 * used.length;
    this.mask = slots - 1;
    this.keys = new Uint32Array(slots * k);
    this.used = new Uint8Array(slots);
    this.flags = new Uint8Array(slots);
    this.values = new Int32Array(slots).fill(-1);
    for (let s = 0; s < used.length; s++) {
      if (used[s] === 0) continue;
      const o = k * s;
      const t = this.lookup(keys[o], keys[o + 1], k > 2 ? keys[o + 2] : 0, k > 3 ? keys[o + 3] : 0);
      this.used[t] = 1;
      this.flags[t] = flags[s];
      this.values[t] = values[s];
      this.store(t);
    }
  }

  /** Sorts the vertices (a sorting network) and returns the slot holding them, or the empty slot where they would go. */
  private lookup(a: number, b: number, c: number, d: number): number {
    let x: number;
    const k = this.k;
    if (k === 2) {
      if (a > b) ((x = a), (a = b), (b = x));
      c = 0;
      d = 0;
    } else if (k === 3) {
      if (a > b) ((x = a), (a = b), (b = x));
      if (b > c) ((x = b), (b = c), (c = x));
      if (a > b) ((x = a), (a = b), (b = x));
      d = 0;
    } else {
      if (a > b) ((x = a), (a = b), (b = x));
      if (c > d) ((x = c), (c = d), (d = x));
      if (a > c) ((x = a), (a = c), (c = x));
      if (b > d) ((x = b), (b = d), (d = x));
      if (b > c) ((x = b), (b = c), (c = x));
    }
    this.t0 = a;
    this.t1 = b;
    this.t2 = c;
    this.t3 = d;
    const h = Math.imul(Math.imul(Math.imul(a ^ 0x27d4eb2d, 0x9e3779b1) ^ b, 0x85ebca6b) ^ c, 0xc2b2ae35) ^ d;
    let s = (Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0) & this.mask;
    const keys = this.keys;
    const used = this.used;
    for (;;) {
      if (used[s] === 0) return s;
      const o = k * s;
      if (keys[o] === a && keys[o + 1] === b && (k < 3 || keys[o + 2] === c) && (k < 4 || keys[o + 3] === d)) return s;
      s = (s + 1) & this.mask;
    }
  }
}
