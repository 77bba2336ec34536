/**
 * A growable list of fixed-size index tuples (edges, triangles, ...; or the "X in Y" tables), kept
 * in one Uint32Array with spare capacity: `count` tuples of `k` indices.
 */
export class ElementStore {
  private buf: Uint32Array;
  count = 0;

  /**
   * `initial` is copied, or with `adopt` held as it is (no copy): the store's changes are then made
   * in that array until it outgrows it.
   */
  constructor(
    readonly k: number,
    initial?: Uint32Array,
    adopt = false,
  ) {
    if (initial && adopt) {
      this.buf = initial;
      this.count = initial.length / k;
      return;
    }
    this.buf = new Uint32Array(Math.max(16, initial ? initial.length : 0));
    if (initial) {
      this.buf.set(initial);
      this.count = initial.length / k;
    }
  }

  /** The tuples as a view (count × k); valid until the next push. */
  view(): Uint32Array {
    return this.buf.subarray(0, this.count * this.k);
  }

  /** The whole backing array (only the first count × k values are meaningful). */
  get data(): Uint32Array {
    return this.buf;
  }

  get(i: number, j: number): number {
    return this.buf[i * this.k + j];
  }

  set(i: number, j: number, v: number): void {
    this.buf[i * this.k + j] = v;
  }

  /** Appends one tuple (filled with `fill`, or copied from `src` at `offset`); returns its index. */
  push(src?: ArrayLike<number>, offset = 0, fill = 0): number {
    const k = this.k;
    if ((this.count + 1) * k > this.buf.length) {
      const b = new Uint32Array(Math.max(2 * this.buf.length, (this.count + 1) * k));
      b.set(this.buf.subarray(0, this.count * k));
      this.buf = b;
    }
    const o = this.count * k;
    if (src) for (let j = 0; j < k; j++) this.buf[o + j] = src[offset + j];
    else this.buf.fill(fill, o, o + k);
    return this.count++;
  }

  /** SOFA's removal of tuple i: the last tuple is copied into slot i and the list shrinks by one. */
  removeSwapLast(i: number): void {
    const last = this.count - 1;
    if (i !== last) this.buf.copyWithin(i * this.k, last * this.k, (last + 1) * this.k);
    this.count = last;
  }

  /**
   * A whole removal at once, given its index map (removalIndexMap: new index of each tuple, −1 when
   * removed): the tuples moved from the end go to their slots and the list keeps `left` tuples.
   * Only the tuples past `left` can move (SOFA's swap with the last), so nothing is overwritten
   * before it is read.
   */
  compact(map: Int32Array, left: number): void {
    const count = this.count;
    this.count = left;
    const k = this.k;
    const buf = this.buf;
    for (let i = left; i < count; i++) {
      const to = map[i];
      if (to >= 0) buf.copyWithin(to * k, i * k, (i + 1) * k);
    }
  }

  /** Index of the first position j of tuple i holding v, or −1. */
  indexIn(i: number, v: number): number {
    const o = i * this.k;
    for (let j = 0; j < this.k; j++) if (this.buf[o + j] === v) return j;
    return -1;
  }
}
