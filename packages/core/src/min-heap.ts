/**
 * A binary min-heap of (key, value) pairs, smaller value first on equal keys (a deterministic
 * order): Dijkstra's front along mesh edges (MeshSampler, CableConstraint's geodesic areas).
 */
export class MinHeap {
  private keys: number[] = [];
  private vals: number[] = [];
  get size(): number {
    return this.keys.length;
  }
  private less(i: number, j: number): boolean {
    return this.keys[i] < this.keys[j] || (this.keys[i] === this.keys[j] && this.vals[i] < this.vals[j]);
  }
  private swap(i: number, j: number): void {
    [this.keys[i], this.keys[j]] = [this.keys[j], this.keys[i]];
    [this.vals[i], this.vals[j]] = [this.vals[j], this.vals[i]];
  }
  push(k: number, v: number): void {
    this.keys.push(k);
    this.vals.push(v);
    for (let i = this.keys.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  pop(): [number, number] {
    const top: [number, number] = [this.keys[0], this.vals[0]];
    const last = this.keys.length - 1;
    this.swap(0, last);
    this.keys.pop();
    this.vals.pop();
    for (let i = 0; ;) {
      const l = 2 * i + 1,
        r = l + 1;
      let m = i;
      if (l < this.keys.length && this.less(l, m)) m = l;
      if (r < this.keys.length && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
    return top;
  }
}
