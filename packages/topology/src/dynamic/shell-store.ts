/**
 * SOFA's "elements around" shells, packed: for each item i (a vertex, an edge, a face) the list of
 * the elements that contain it, in the order they were added; removals keep the order of the
 * others (as SOFA's vector erase). All lists live in one typed array: list i occupies
 * items[off[i] .. off[i] + len[i]) with room for cap[i]; a list that outgrows its room moves to the
 * end of the array, and the array is compacted when half of it is dead. No allocation per item.
 */
export class ShellStore {
  private off: Int32Array;
  private len: Int32Array;
  private cap: Int32Array;
  private items: Uint32Array;
  /** Items in use at the end of `items` (live lists and dead space). */
  private used = 0;
  /** Number of lists. */
  count = 0;

  constructor(count = 0) {
    this.off = new Int32Array(Math.max(16, count));
    this.len = new Int32Array(this.off.length);
    this.cap = new Int32Array(this.off.length);
    this.items = new Uint32Array(64);
    this.count = count;
  }

  /**
   * `count` lists built from (owner, item) pairs, each list in pair order, with room for `slack`
   * more items per list.
   */
  static fromPairs(count: number, owners: ArrayLike<number>, values: ArrayLike<number>, nPairs: number, slack = 2): ShellStore {
    const s = new ShellStore(count);
    const n = s.len;
    for (let k = 0; k < nPairs; k++) n[owners[k]]++;
    let o = 0;
    for (let i = 0; i < count; i++) {
      s.off[i] = o;
      s.cap[i] = n[i] + slack;
      o += n[i] + slack;
    }
    s.items = new Uint32Array(Math.max(64, o));
    s.used = o;
    n.fill(0, 0, count);
    for (let k = 0; k < nPairs; k++) {
      const i = owners[k];
      s.items[s.off[i] + n[i]++] = values[k];
    }
    return s;
  }

  /**
   * The shells around the vertices of `count` elements of k vertices (data: count × k): vertex p's
   * list holds the elements using it, in increasing order, with room for `slack` more.
   */
  static fromElements(nVertices: number, data: Uint32Array, count: number, k: number, slack = 2): ShellStore {
    const s = new ShellStore(nVertices);
    const n = s.len;
    const total = count * k;
    for (let i = 0; i < total; i++) n[data[i]]++;
    let o = 0;
    for (let p = 0; p < nVertices; p++) {
      s.off[p] = o;
      s.cap[p] = n[p] + slack;
      o += n[p] + slack;
    }
    s.items = new Uint32Array(Math.max(64, o));
    s.used = o;
    n.fill(0, 0, nVertices);
    for (let e = 0, i = 0; e < count; e++) {
      for (let j = 0; j < k; j++, i++) {
        const p = data[i];
        s.items[s.off[p] + n[p]++] = e;
      }
    }
    return s;
  }

  /** The packed arrays, for loops that read many lists (valid until the next change): list i is items[off[i] .. off[i] + len[i]). */
  raw(): { readonly off: Int32Array; readonly len: Int32Array; readonly items: Uint32Array } {
    return { off: this.off, len: this.len, items: this.items };
  }

  length(i: number): number {
    return this.len[i];
  }

  get(i: number, k: number): number {
    return this.items[this.off[i] + k];
  }

  /** List i (a view, valid until the next change). */
  list(i: number): Uint32Array {
    if (i < 0 || i >= this.count) return new Uint32Array(0);
    return this.items.subarray(this.off[i], this.off[i] + this.len[i]);
  }

  /** Grows the number of lists to at least n (new lists empty). */
  grow(n: number): void {
    if (n <= this.count) return;
    if (n > this.off.length) {
      const size = Math.max(n, 2 * this.off.length);
      const grown = (a: Int32Array): Int32Array => {
        const b = new Int32Array(size);
        b.set(a);
        return b;
      };
      this.off = grown(this.off);
      this.len = grown(this.len);
      this.cap = grown(this.cap);
    }
    for (let i = this.count; i < n; i++) {
      this.off[i] = this.used;
      this.len[i] = 0;
      this.cap[i] = 0;
    }
    this.count = n;
  }

  /** Keeps the first n lists. */
  truncate(n: number): void {
    if (n < this.count) this.count = Math.max(0, n);
  }

  push(i: number, v: number): void {
    if (this.len[i] === this.cap[i]) this.relocate(i, Math.max(4, 2 * this.cap[i]));
    this.items[this.off[i] + this.len[i]++] = v;
  }

  /** Removes every occurrence of v from list i, keeping the order of the others. */
  erase(i: number, v: number): void {
    const o = this.off[i];
    const n = this.len[i];
    let w = 0;
    for (let r = 0; r < n; r++) {
      const x = this.items[o + r];
      if (x !== v) this.items[o + w++] = x;
    }
    this.len[i] = w;
  }

  /**
   * List i after a removal of the items it lists, given the removal's index map (new index of each
   * item, −1 when removed; removalIndexMap): removed items leave it (the others keep their order),
   * moved ones are renamed; items past the map are kept. Returns the new length.
   */
  remap(i: number, map: Int32Array): number {
    const items = this.items;
    const o = this.off[i];
    const n = this.len[i];
    const m = map.length;
    let w = 0;
    for (let r = 0; r < n; r++) {
      const x = items[o + r];
      const to = x < m ? map[x] : x;
      if (to >= 0) items[o + w++] = to;
    }
    this.len[i] = w;
    return w;
  }

  replace(i: number, from: number, to: number): void {
    const o = this.off[i];
    for (let r = 0; r < this.len[i]; r++) if (this.items[o + r] === from) this.items[o + r] = to;
  }

  /** List dst becomes list src (SOFA's shell copy when the last item moves into a removed slot). */
  move(dst: number, src: number): void {
    if (dst === src) return;
    this.off[dst] = this.off[src];
    this.len[dst] = this.len[src];
    this.cap[dst] = this.cap[src];
    // src is about to be truncated: it gets no room of its own any more
    this.len[src] = 0;
    this.cap[src] = 0;
    this.off[src] = this.used;
  }

  private relocate(i: number, capacity: number): void {
    if (this.used + capacity > this.items.length) {
      let live = 0;
      for (let k = 0; k < this.count; k++) live += this.cap[k];
      if (live + capacity <= this.items.length / 2) this.compact();
      if (this.used + capacity > this.items.length) {
        const b = new Uint32Array(Math.max(2 * this.items.length, this.used + capacity));
        b.set(this.items.subarray(0, this.used));
        this.items = b;
      }
    }
    const o = this.used;
    this.items.copyWithin(o, this.off[i], this.off[i] + this.len[i]);
    this.off[i] = o;
    this.cap[i] = capacity;
    this.used += capacity;
  }

  /** Packs the live lists at the start of the array. */
  private compact(): void {
    const order = Array.from({ length: this.count }, (_, k) => k).sort((a, b) => this.off[a] - this.off[b]);
    let o = 0;
    for (const k of order) {
      this.items.copyWithin(o, this.off[k], this.off[k] + this.len[k]);
      this.off[k] = o;
      o += this.cap[k];
    }
    this.used = o;
  }
}
