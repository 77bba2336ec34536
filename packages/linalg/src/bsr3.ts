/**
 * 3x3 block compressed sparse row (BSR) matrices: the layout of SOFA's
 * CompressedRowSparseMatrixMat3x3d. For meshes of Vec3 points every coupling is a dense 3x3 block,
 * so storing one column index per block instead of per scalar moves fewer bytes through the
 * memory-bound products of CG (9 values + 1 index per block, against 9 values + 9 indices in CSR).
 *
 * A Bsr3Matrix has `blockRows` block rows and `blockCols` block columns; block b of row I is at
 * column `colInd[b]` (sorted within a row) with values `values[9b .. 9b+9)` row-major.
 * The pattern is built once from a scalar CSR pattern (`bsr3FromCsrPattern`), then values are
 * refilled from that CSR every step through a scatter map, with no allocation.
 */
import type { CsrMatrix } from './csr.js';

export interface Bsr3Matrix {
  blockRows: number;
  blockCols: number;
  /** (blockRows + 1) offsets into colInd. */
  rowPtr: Int32Array;
  /** (nnzb) block column indices, sorted within a block row. */
  colInd: Int32Array;
  /** (9·nnzb) block values, row-major per block. */
  values: Float64Array;
}

/** A BSR pattern covering a scalar CSR pattern, with the map CSR entry → BSR value slot. */
export interface Bsr3FromCsr {
  matrix: Bsr3Matrix;
  /** (nnz of the CSR) index into matrix.values of each CSR entry. */
  scatter: Int32Array;
}

/**
 * Builds the 3x3 block pattern covering the entries of A (rows and cols multiples of 3). Blocks
 * only partly present in A are stored whole, with zeros. Allocates: call at initialisation.
 */
export function bsr3FromCsrPattern(A: CsrMatrix): Bsr3FromCsr {
  if (A.rows % 3 !== 0 || A.cols % 3 !== 0) throw new Error(`bsr3: matrix ${A.rows}x${A.cols} is not made of 3x3 blocks`);
  const nbr = A.rows / 3;
  const rowPtr = new Int32Array(nbr + 1);
  // Pass 1: distinct block columns per block row (a marker array avoids sorting duplicates).
  const mark = new Int32Array(A.cols / 3).fill(-1);
  const cols: number[] = [];
  const rowStart: number[] = [];
  for (let I = 0; I < nbr; I++) {
    rowStart.push(cols.length);
    const start = cols.length;
    for (let r = 3 * I; r < 3 * I + 3; r++) {
      for (let k = A.rowPtr[r]; k < A.rowPtr[r + 1]; k++) {
        const J = (A.colInd[k] / 3) | 0;
        if (mark[J] !== I) {
          mark[J] = I;
          cols.push(J);
        }
      }
    }
    const row = cols.slice(start).sort((a, b) => a - b);
    for (let t = 0; t < row.length; t++) cols[start + t] = row[t];
    rowPtr[I + 1] = cols.length;
  }
  const colInd = Int32Array.from(cols);
  // Pass 2: scatter map, finding each block by a per-row lookup table.
  const slotOf = new Int32Array(A.cols / 3).fill(-1);
  const scatter = new Int32Array(A.rowPtr[A.rows]);
  for (let I = 0; I < nbr; I++) {
    for (let b = rowPtr[I]; b < rowPtr[I + 1]; b++) slotOf[colInd[b]] = b;
    for (let r = 3 * I; r < 3 * I + 3; r++) {
      for (let k = A.rowPtr[r]; k < A.rowPtr[r + 1]; k++) {
        const c = A.colInd[k];
        scatter[k] = 9 * slotOf[(c / 3) | 0] + 3 * (r - 3 * I) + (c % 3);
      }
    }
  }
  return { matrix: { blockRows: nbr, blockCols: A.cols / 3, rowPtr, colInd, values: new Float64Array(9 * colInd.length) }, scatter };
}

/** B.values ← the values of A, through the scatter map of `bsr3FromCsrPattern`. No allocation. */
export function bsr3RefillFromCsr(B: Bsr3Matrix, A: CsrMatrix, scatter: Int32Array): void {
  const bv = B.values;
  const av = A.values;
  // the scatter map is one to one: when it covers every block value, nothing is left to clear
  if (scatter.length !== bv.length) bv.fill(0);
  for (let k = 0, n = scatter.length; k < n; k++) bv[scatter[k]] = av[k];
}

/** y = B·x (argument order as csr.ts's spmv). No allocation. */
export function bsr3Spmv(y: Float64Array, B: Bsr3Matrix, x: Float64Array): Float64Array {
  return bsr3SpmvRange(y, B, x, 0, B.blockRows);
}

/** y = B·x on block rows [I0, I1) only (a thread's share of the product). No allocation. */
export function bsr3SpmvRange(y: Float64Array, B: Bsr3Matrix, x: Float64Array, I0: number, I1: number): Float64Array {
  const { rowPtr, colInd, values: v } = B;
  for (let I = I0; I < I1; I++) {
    let y0 = 0,
      y1 = 0,
      y2 = 0;
    for (let b = rowPtr[I], e = rowPtr[I + 1]; b < e; b++) {
      const j = 3 * colInd[b];
      const x0 = x[j],
        x1 = x[j + 1],
        x2 = x[j + 2];
      const o = 9 * b;
      y0 += v[o] * x0 + v[o + 1] * x1 + v[o + 2] * x2;
      y1 += v[o + 3] * x0 + v[o + 4] * x1 + v[o + 5] * x2;
      y2 += v[o + 6] * x0 + v[o + 7] * x1 + v[o + 8] * x2;
    }
    const i = 3 * I;
    y[i] = y0;
    y[i + 1] = y1;
    y[i + 2] = y2;
  }
  return y;
}

/** y += scale·B·x. No allocation. */
export function bsr3SpmvAdd(y: Float64Array, B: Bsr3Matrix, x: Float64Array, scale: number): Float64Array {
  const { blockRows, rowPtr, colInd, values: v } = B;
  for (let I = 0; I < blockRows; I++) {
    let y0 = 0,
      y1 = 0,
      y2 = 0;
    for (let b = rowPtr[I], e = rowPtr[I + 1]; b < e; b++) {
      const j = 3 * colInd[b];
      const x0 = x[j],
        x1 = x[j + 1],
        x2 = x[j + 2];
      const o = 9 * b;
      y0 += v[o] * x0 + v[o + 1] * x1 + v[o + 2] * x2;
      y1 += v[o + 3] * x0 + v[o + 4] * x1 + v[o + 5] * x2;
      y2 += v[o + 6] * x0 + v[o + 7] * x1 + v[o + 8] * x2;
    }
    const i = 3 * I;
    y[i] += scale * y0;
    y[i + 1] += scale * y1;
    y[i + 2] += scale * y2;
  }
  return y;
}

/** A copy of B's pattern and values on SharedArrayBuffers (for products on worker threads). */
export function bsr3Shared(B: Bsr3Matrix): Bsr3Matrix {
  const shared = <T extends Int32Array | Float64Array>(a: T): T => {
    const c = new (a.constructor as new (b: SharedArrayBuffer) => T)(new SharedArrayBuffer(a.byteLength));
    c.set(a);
    return c;
  };
  return { blockRows: B.blockRows, blockCols: B.blockCols, rowPtr: shared(B.rowPtr), colInd: shared(B.colInd), values: shared(B.values) };
}
