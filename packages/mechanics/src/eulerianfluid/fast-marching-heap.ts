/** Status of a cell in the fast marching: far (not reached), known (final); ≥ 0 its place in the heap. */
export const FMM_FAR = -1;
export const FMM_KNOWN = -2;

/**
 * The binary min-heap of SOFA's Grid2D/Grid3D fast-marching reinitialisation, keyed by the level
 * set values: `status[cell]` is the cell's place in the heap, or FMM_FAR / FMM_KNOWN. Arrays are
 * sized once (resize) and reused.
 */
export class FastMarchingHeap {
  status = new Int32Array(0);
  private heap = new Int32Array(0);
  size = 0;
  /** The level set the heap is ordered by. */
  key = new Float64Array(0);

  resize(n: number): void {
    if (this.status.length !== n) {
      this.status = new Int32Array(n);
      this.heap = new Int32Array(n);
    }
    this.size = 0;
  }

  /** Lowers cell j to phi when it is not known and phi is lower; (re)queues it. */
  relax(j: number, phi: number): void {
    if (this.status[j] >= FMM_FAR && phi < this.key[j]) {
      this.key[j] = phi;
      this.push(j);
    }
  }

  /** The cell of lowest value, now known. */
  pop(): number {
    const res = this.heap[0];
    this.size--;
    if (this.size > 0) {
      this.swap(0, this.size);
      this.siftDown(0);
    }
    this.status[res] = FMM_KNOWN;
    return res;
  }

  private push(j: number): void {
    const st = this.status[j];
    if (st >= 0) {
      this.siftUp(st);
      this.siftDown(this.status[j]);
    } else {
      const i = this.size++;
      this.heap[i] = j;
      this.status[j] = i;
      this.siftUp(i);
    }
  }

  private swap(e1: number, e2: number): void {
    const h = this.heap;
    const i1 = h[e1],
      i2 = h[e2];
    h[e1] = i2;
    h[e2] = i1;
    this.status[i1] = e2;
    this.status[i2] = e1;
  }

  private siftDown(i: number): void {
    const h = this.heap,
      k = this.key;
    const phi = k[h[i]];
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) return;
      // SOFA's order: the right child on ties
      const m = l + 1 < this.size && k[h[l + 1]] <= k[h[l]] ? l + 1 : l;
      if (!(k[h[m]] < phi)) return;
      this.swap(i, m);
      i = m;
    }
  }

  private siftUp(i: number): void {
    const h = this.heap,
      k = this.key;
    const phi = k[h[i]];
    while (i > 0 && phi < k[h[(i - 1) >> 1]]) {
      this.swap(i, (i - 1) >> 1);
      i = (i - 1) >> 1;
    }
  }
}
