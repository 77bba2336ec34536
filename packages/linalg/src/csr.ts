/**
 * Compressed sparse row (CSR) matrices and the kernels that read or write them.
 *
 * Invariants (checked by `csrCheck`):
 *  - `rowPtr` has `rows + 1` entries, `rowPtr[0] = 0`, non-decreasing, `rowPtr[rows] = nnz`;
 *  - the column indices of row i are `colInd[rowPtr[i] .. rowPtr[i+1])`, strictly increasing
 *    (sorted, no duplicates) and in `[0, cols)`;
 *  - `values[k]` is the value at (row of k, `colInd[k]`). Explicit zeros are allowed: the pattern
 *    is structural, which is what lets an assembler refill values without rebuilding it.
 *
 * Functions that produce a new pattern (transpose, triplets, sums) allocate and are meant for
 * initialisation; `spmv`, `spmvAdd`, `spmvTranspose`, `csrDiagonal`, `csrAxpyInto`, `csrScale`
 * allocate nothing and may be called every time step.
 */
export interface CsrMatrix {
  rows: number;
  cols: number;
  /** (rows + 1) offsets into colInd/values. */
  rowPtr: Int32Array;
  /** (nnz) column indices, sorted within a row. */
  colInd: Int32Array;
  /** (nnz) values. */
  values: Float64Array;
}

/** Builds a CSR matrix from its arrays; `values` defaults to zeros (nnz). The arrays are not copied. */
export function createCsr(rows: number, cols: number, rowPtr: Int32Array, colInd: Int32Array, values?: Float64Array): CsrMatrix {
  const nnz = rowPtr[rows];
  return { rows, cols, rowPtr, colInd, values: values ?? new Float64Array(nnz) };
}

/** An empty rows x cols matrix (no stored entries). */
export function createEmptyCsr(rows: number, cols: number): CsrMatrix {
  return createCsr(rows, cols, new Int32Array(rows + 1), new Int32Array(0));
}

/** Number of stored entries. */
export function csrNnz(A: CsrMatrix): number {
  return A.rowPtr[A.rows];
}

/** Throws if A breaks a CSR invariant (shape, sorted unique in-range columns). Debug/tests. */
export function csrCheck(A: CsrMatrix): void {
  const { rows, cols, rowPtr, colInd, values } = A;
  if (rowPtr.length !== rows + 1) throw new Error(`csr: rowPtr length ${rowPtr.length} != rows+1 = ${rows + 1}`);
  if (rowPtr[0] !== 0) throw new Error('csr: rowPtr[0] must be 0');
  const nnz = rowPtr[rows];
  if (colInd.length < nnz || values.length < nnz) throw new Error(`csr: colInd/values shorter than nnz = ${nnz}`);
  for (let i = 0; i < rows; i++) {
    const start = rowPtr[i];
    const end = rowPtr[i + 1];
    if (end < start) throw new Error(`csr: rowPtr decreases at row ${i}`);
    for (let k = start; k < end; k++) {
      const c = colInd[k];
      if (c < 0 || c >= cols) throw new Error(`csr: column ${c} out of range in row ${i}`);
      if (k > start && c <= colInd[k - 1]) throw new Error(`csr: columns not strictly increasing in row ${i}`);
    }
  }
}

/** A deep copy (new arrays). */
export function csrClone(A: CsrMatrix): CsrMatrix {
  const nnz = csrNnz(A);
  return createCsr(A.rows, A.cols, A.rowPtr.slice(), A.colInd.slice(0, nnz), A.values.slice(0, nnz));
}

/** out (rows) = A x, x (cols). out must not alias x. */
export function spmv(out: Float64Array, A: CsrMatrix, x: Float64Array): Float64Array {
  const { rows, rowPtr, colInd, values } = A;
  for (let i = 0; i < rows; i++) {
    let s = 0;
    const end = rowPtr[i + 1];
    for (let k = rowPtr[i]; k < end; k++) s += values[k] * x[colInd[k]];
    out[i] = s;
  }
  return out;
}

/** out (rows) += alpha A x, x (cols). out must not alias x. */
export function spmvAdd(out: Float64Array, A: CsrMatrix, x: Float64Array, alpha: number): Float64Array {
  const { rows, rowPtr, colInd, values } = A;
  for (let i = 0; i < rows; i++) {
    let s = 0;
    const end = rowPtr[i + 1];
    for (let k = rowPtr[i]; k < end; k++) s += values[k] * x[colInd[k]];
    out[i] += alpha * s;
  }
  return out;
}

/** out (cols) = Aᵀ x, x (rows), by scattering each row. out must not alias x. */
export function spmvTranspose(out: Float64Array, A: CsrMatrix, x: Float64Array): Float64Array {
  out.fill(0, 0, A.cols);
  return spmvTransposeAdd(out, A, x, 1);
}

/** out (cols) += alpha Aᵀ x, x (rows). out must not alias x. */
export function spmvTransposeAdd(out: Float64Array, A: CsrMatrix, x: Float64Array, alpha: number): Float64Array {
  const { rows, rowPtr, colInd, values } = A;
  for (let i = 0; i < rows; i++) {
    const xi = alpha * x[i];
    if (xi === 0) continue;
    const end = rowPtr[i + 1];
    for (let k = rowPtr[i]; k < end; k++) out[colInd[k]] += values[k] * xi;
  }
  return out;
}

/** out (min(rows, cols)) = diag(A); absent diagonal entries give 0. */
export function csrDiagonal(out: Float64Array, A: CsrMatrix): Float64Array {
  const n = Math.min(A.rows, A.cols);
  for (let i = 0; i < n; i++) {
    const k = csrFindSlot(A, i, i);
    out[i] = k < 0 ? 0 : A.values[k];
  }
  return out;
}

/** Index k into A.values of entry (r, c), or -1 if (r, c) is not in the pattern. Binary search in row r. */
export function csrFindSlot(A: CsrMatrix, r: number, c: number): number {
  let lo = A.rowPtr[r];
  let hi = A.rowPtr[r + 1] - 1;
  const colInd = A.colInd;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const m = colInd[mid];
    if (m === c) return mid;
    if (m < c) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Value at (r, c) (0 when absent). Binary search; for debugging and tests, not inner loops. */
export function csrGet(A: CsrMatrix, r: number, c: number): number {
  const k = csrFindSlot(A, r, c);
  return k < 0 ? 0 : A.values[k];
}

/** A in place *= s. */
export function csrScale(A: CsrMatrix, s: number): CsrMatrix {
  const nnz = csrNnz(A);
  const v = A.values;
  for (let k = 0; k < nnz; k++) v[k] *= s;
  return A;
}

/**
 * out.values += alpha B.values, where pattern(B) ⊆ pattern(out) (merge walk per row).
 * No allocation; throws if B has an entry outside out's pattern (a programming error).
 */
export function csrAxpyInto(out: CsrMatrix, B: CsrMatrix, alpha: number): CsrMatrix {
  if (out.rows !== B.rows || out.cols !== B.cols) throw new Error('csrAxpyInto: shape mismatch');
  const oc = out.colInd;
  const ov = out.values;
  const bc = B.colInd;
  const bv = B.values;
  for (let i = 0; i < B.rows; i++) {
    let ko = out.rowPtr[i];
    const endO = out.rowPtr[i + 1];
    const endB = B.rowPtr[i + 1];
    for (let kb = B.rowPtr[i]; kb < endB; kb++) {
      const c = bc[kb];
      while (ko < endO && oc[ko] < c) ko++;
      if (ko === endO || oc[ko] !== c) throw new Error(`csrAxpyInto: entry (${i}, ${c}) not in target pattern`);
      ov[ko] += alpha * bv[kb];
    }
  }
  return out;
}

/** C = alpha A + beta B on the union pattern (new matrix; init time). */
export function csrAddScaled(A: CsrMatrix, B: CsrMatrix, alpha = 1, beta = 1): CsrMatrix {
  if (A.rows !== B.rows || A.cols !== B.cols) throw new Error('csrAddScaled: shape mismatch');
  const rows = A.rows;
  const rowPtr = new Int32Array(rows + 1);
  // Pass 1: size of each merged row.
  for (let i = 0; i < rows; i++) {
    let ka = A.rowPtr[i];
    let kb = B.rowPtr[i];
    const ea = A.rowPtr[i + 1];
    const eb = B.rowPtr[i + 1];
    let cnt = 0;
    while (ka < ea || kb < eb) {
      const ca = ka < ea ? A.colInd[ka] : 0x7fffffff;
      const cb = kb < eb ? B.colInd[kb] : 0x7fffffff;
      if (ca <= cb) ka++;
      if (cb <= ca) kb++;
      cnt++;
    }
    rowPtr[i + 1] = rowPtr[i] + cnt;
  }
  const nnz = rowPtr[rows];
  const colInd = new Int32Array(nnz);
  const values = new Float64Array(nnz);
  // Pass 2: merge.
  for (let i = 0; i < rows; i++) {
    let ka = A.rowPtr[i];
    let kb = B.rowPtr[i];
    const ea = A.rowPtr[i + 1];
    const eb = B.rowPtr[i + 1];
    let k = rowPtr[i];
    while (ka < ea || kb < eb) {
      const ca = ka < ea ? A.colInd[ka] : 0x7fffffff;
      const cb = kb < eb ? B.colInd[kb] : 0x7fffffff;
      let v = 0;
      if (ca <= cb) v += alpha * A.values[ka++];
      if (cb <= ca) v += beta * B.values[kb++];
      colInd[k] = Math.min(ca, cb);
      values[k++] = v;
    }
  }
  return createCsr(rows, A.cols, rowPtr, colInd, values);
}

/**
 * Aᵀ as a new CSR matrix (cols x rows). Columns come out sorted because rows are visited in order.
 * If `slotMap` (nnz) is given, slotMap[k] receives the index in the transpose of A's entry k,
 * so later value refills are `T.values[slotMap[k]] = A.values[k]` with no allocation.
 */
export function csrTranspose(A: CsrMatrix, slotMap?: Int32Array): CsrMatrix {
  const { rows, cols, rowPtr, colInd, values } = A;
  const nnz = rowPtr[rows];
  const tPtr = new Int32Array(cols + 1);
  for (let k = 0; k < nnz; k++) tPtr[colInd[k] + 1]++;
  for (let j = 0; j < cols; j++) tPtr[j + 1] += tPtr[j];
  const next = tPtr.slice(0, cols); // next free slot per transposed row
  const tInd = new Int32Array(nnz);
  const tVal = new Float64Array(nnz);
  for (let i = 0; i < rows; i++) {
    const end = rowPtr[i + 1];
    for (let k = rowPtr[i]; k < end; k++) {
      const q = next[colInd[k]]++;
      tInd[q] = i;
      tVal[q] = values[k];
      if (slotMap) slotMap[k] = q;
    }
  }
  return createCsr(cols, rows, tPtr, tInd, tVal);
}

/** Dense copy as nested arrays (rows x cols), for tests and debugging. */
export function csrToDense(A: CsrMatrix): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < A.rows; i++) {
    const row = new Array<number>(A.cols).fill(0);
    for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) row[A.colInd[k]] = A.values[k];
    out.push(row);
  }
  return out;
}

/** CSR from a dense row-major array (rows*cols), keeping entries with |v| > dropTolerance (default: nonzeros). */
export function csrFromDense(rows: number, cols: number, data: ArrayLike<number>, dropTolerance = 0): CsrMatrix {
  const r: number[] = [];
  const c: number[] = [];
  const v: number[] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const x = data[i * cols + j];
      if (Math.abs(x) > dropTolerance) {
        r.push(i);
        c.push(j);
        v.push(x);
      }
    }
  }
  return csrFromTriplets(rows, cols, r, c, v);
}

/**
 * CSR from coordinate triplets (r[k], c[k], v[k]), any order; duplicates are summed (and kept
 * as one structural entry even if they cancel). Counting sort by column, then stable by row.
 */
export function csrFromTriplets(rows: number, cols: number, r: ArrayLike<number>, c: ArrayLike<number>, v: ArrayLike<number>): CsrMatrix {
  const m = r.length;
  if (c.length !== m || v.length !== m) throw new Error('csrFromTriplets: r, c, v lengths differ');
  for (let k = 0; k < m; k++) {
    const rk = r[k];
    const ck = c[k];
    if (!(rk >= 0 && rk < rows && ck >= 0 && ck < cols) || (rk | 0) !== rk || (ck | 0) !== ck) {
      throw new Error(`csrFromTriplets: entry ${k} = (${rk}, ${ck}) outside ${rows}x${cols}`);
    }
  }
  const order = sortByRowThenColumn(rows, cols, r, c, m);
  const rowPtr = new Int32Array(rows + 1);
  // Count unique (row, col) pairs per row.
  let prevR = -1;
  let prevC = -1;
  let nnz = 0;
  for (let t = 0; t < m; t++) {
    const k = order[t];
    const rk = r[k];
    const ck = c[k];
    if (rk !== prevR || ck !== prevC) {
      rowPtr[rk + 1]++;
      nnz++;
      prevR = rk;
      prevC = ck;
    }
  }
  for (let i = 0; i < rows; i++) rowPtr[i + 1] += rowPtr[i];
  const colInd = new Int32Array(nnz);
  const values = new Float64Array(nnz);
  let q = -1;
  prevR = -1;
  prevC = -1;
  for (let t = 0; t < m; t++) {
    const k = order[t];
    const rk = r[k];
    const ck = c[k];
    if (rk !== prevR || ck !== prevC) {
      q++;
      colInd[q] = ck;
      prevR = rk;
      prevC = ck;
    }
    values[q] += v[k];
  }
  return createCsr(rows, cols, rowPtr, colInd, values);
}

/**
 * Indices 0..m-1 ordered by (r, c), stable for equal keys: a counting sort on c followed by a
 * stable counting sort on r. O(m + rows + cols). Shared with the fixed-pattern assembler.
 */
export function sortByRowThenColumn(rows: number, cols: number, r: ArrayLike<number>, c: ArrayLike<number>, m: number): Int32Array {
  const byCol = new Int32Array(m);
  const cnt = new Int32Array(Math.max(rows, cols) + 1);
  for (let k = 0; k < m; k++) cnt[c[k] + 1]++;
  for (let j = 0; j < cols; j++) cnt[j + 1] += cnt[j];
  for (let k = 0; k < m; k++) byCol[cnt[c[k]]++] = k;
  cnt.fill(0);
  for (let k = 0; k < m; k++) cnt[r[k] + 1]++;
  for (let i = 0; i < rows; i++) cnt[i + 1] += cnt[i];
  const order = new Int32Array(m);
  for (let t = 0; t < m; t++) {
    const k = byCol[t];
    order[cnt[r[k]]++] = k;
  }
  return order;
}
