/**
 * The constraint rows of one mechanical state (SOFA's MatrixDeriv): a sparse matrix whose entry
 * (row, point) is a derivative vector of the state (d = derivSize numbers). Constraints append
 * entries in any order; `compress` sorts them by row then point and adds up duplicates, giving
 *   rows:    rowIds[k]                        (nRows, ascending)
 *   entries: rowPtr[k] .. rowPtr[k+1]         (points ascending within a row)
 *            points[e], values[e·d .. e·d + d)
 * Buffers grow by doubling and are kept from step to step.
 */
export class StateRows {
  /** Appended entries (before compress): row, point, d values each. */
  private tRow = new Int32Array(16);
  private tPoint = new Int32Array(16);
  private tVal: Float64Array;
  private tCount = 0;
  private order = new Int32Array(16);

  nRows = 0;
  rowIds = new Int32Array(16);
  rowPtr = new Int32Array(17);
  points = new Int32Array(16);
  values: Float64Array;

  constructor(readonly d: number) {
    this.tVal = new Float64Array(16 * d);
    this.values = new Float64Array(16 * d);
  }

  clear(): void {
    this.tCount = 0;
    this.nRows = 0;
    this.rowPtr[0] = 0;
  }

  /** True when no entry was appended or kept. */
  get isEmpty(): boolean {
    return this.tCount === 0;
  }

  /** Appends scale·values[0 .. d) at (row, point). */
  add(row: number, point: number, values: ArrayLike<number>, scale = 1, offset = 0): void {
    if (this.tCount === this.tRow.length) this.growTriplets();
    const k = this.tCount++;
    this.tRow[k] = row;
    this.tPoint[k] = point;
    const d = this.d;
    for (let a = 0; a < d; a++) this.tVal[k * d + a] = scale * values[offset + a];
  }

  /** Sorts the appended entries into rows (see the class doc); duplicates (row, point) add up. */
  compress(): void {
    const n = this.tCount;
    const d = this.d;
    if (this.order.length < n) this.order = new Int32Array(this.tRow.length);
    const order = this.order.subarray(0, n);
    for (let k = 0; k < n; k++) order[k] = k;
    const tRow = this.tRow,
      tPoint = this.tPoint;
    // stable order by (row, point), ties by append order
    order.sort((a, b) => tRow[a] - tRow[b] || tPoint[a] - tPoint[b] || a - b);
    if (this.points.length < n) {
      this.points = new Int32Array(this.tRow.length);
      this.values = new Float64Array(this.tRow.length * d);
    }
    if (this.rowIds.length < n) {
      this.rowIds = new Int32Array(this.tRow.length);
      this.rowPtr = new Int32Array(this.tRow.length + 1);
    }
    let nRows = 0;
    let e = -1;
    let lastRow = -1;
    let lastPoint = -1;
    for (let q = 0; q < n; q++) {
      const k = order[q];
      const r = tRow[k];
      const p = tPoint[k];
      if (r !== lastRow) {
        this.rowIds[nRows] = r;
        this.rowPtr[nRows] = e + 1;
        nRows++;
        lastRow = r;
        lastPoint = -1;
      }
      if (p !== lastPoint) {
        e++;
        this.points[e] = p;
        for (let a = 0; a < d; a++) this.values[e * d + a] = this.tVal[k * d + a];
        lastPoint = p;
      } else {
        for (let a = 0; a < d; a++) this.values[e * d + a] += this.tVal[k * d + a];
      }
    }
    this.nRows = nRows;
    this.rowPtr[nRows] = e + 1;
  }

  /** Index k of row `row` in rowIds, or −1 (binary search; rows ascending). */
  findRow(row: number): number {
    let lo = 0,
      hi = this.nRows - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = this.rowIds[mid];
      if (r === row) return mid;
      if (r < row) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** out (derivative layout of the state) += Jᵀ·λ over its rows. */
  addJTLambda(out: Float64Array, lambda: Float64Array): void {
    const d = this.d;
    for (let k = 0; k < this.nRows; k++) {
      const l = lambda[this.rowIds[k]];
      if (l === 0) continue;
      for (let e = this.rowPtr[k]; e < this.rowPtr[k + 1]; e++) {
        const o = this.points[e] * d;
        for (let a = 0; a < d; a++) out[o + a] += this.values[e * d + a] * l;
      }
    }
  }

  /** Dot product of row k (index into rowIds) with a vector of the state (derivative layout). */
  dotRow(k: number, vec: Float64Array): number {
    const d = this.d;
    let s = 0;
    for (let e = this.rowPtr[k]; e < this.rowPtr[k + 1]; e++) {
      const o = this.points[e] * d;
      for (let a = 0; a < d; a++) s += this.values[e * d + a] * vec[o + a];
    }
    return s;
  }

  private growTriplets(): void {
    const cap = this.tRow.length * 2;
    const r = new Int32Array(cap);
    r.set(this.tRow);
    this.tRow = r;
    const p = new Int32Array(cap);
    p.set(this.tPoint);
    this.tPoint = p;
    const v = new Float64Array(cap * this.d);
    v.set(this.tVal);
    this.tVal = v;
  }
}
