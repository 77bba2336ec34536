/**
 * 3x3 block compressed sparse row (BSR) matrices: the layout of SOFA's
 * CompressedRowSparseMatrixMat3x3d. For meshes of Vec3 points every coupling is a dense 3x3 block,
 * so storing one column index per block instead of per scalar moves fewer bytes through the
 * memory-bound products of CG (9 values + 1 index per block, against 9 values + 9 indices in CSR).
 *
 * A Bsr3Matrix has `blockRows` block rows and `blockCols` block columns; block b of row I is at
 * column `colInd[b]` (sorted within a row) with values `values[9b .. 9b+9)` row-major.
 * The pattern is built once from a scalar CSR pattern (`bsr3FromCsrPattern`), then values are
 * refilled from that CSR every step through a scatter map, with no allocation; a CSR made of whole
 * blocks (`bsr3HasWholeBlocks`, as an assembled mesh of Vec3 points is) needs no map
 * (`bsr3RefillWholeBlocks`).
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
  const matrix = bsr3PatternOfCsr(A);
  return { matrix, scatter: bsr3ScatterMap(A, matrix) };
}

/** The 3x3 block pattern covering the entries of A, its values 0 (bsr3FromCsrPattern without the map). */
export function bsr3PatternOfCsr(A: CsrMatrix): Bsr3Matrix {
  if (A.rows % 3 !== 0 || A.cols % 3 !== 0) throw new Error(`bsr3: matrix ${A.rows}x${A.cols} is not made of 3x3 blocks`);
  const nbr = A.rows / 3;
  const rowPtr = new Int32Array(nbr + 1);
  // Pass 1: distinct block columns per block row (a marker array avoids sorting duplicates).
  const mark = new Int32Array(A.cols / 3).fill(-1);
  const cols: number[] = [];
  for (let I = 0; I < nbr; I++) {
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
  return { blockRows: nbr, blockCols: A.cols / 3, rowPtr, colInd, values: new Float64Array(9 * colInd.length) };
}

/** The map CSR entry → slot of B's values (B the pattern bsr3PatternOfCsr made of A). Allocates. */
export function bsr3ScatterMap(A: CsrMatrix, B: Bsr3Matrix): Int32Array {
  const { blockRows: nbr, rowPtr, colInd } = B;
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
  return scatter;
}

/** Row-major storage of a block's entry t = 3·row + col (Bsr3Matrix's standard order). */
export const BSR3_STANDARD_ORDER: readonly number[] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

/**
 * True when A is made of B's blocks, whole: each scalar row 3I + a lists, block by block in B's
 * order, the 3 columns 3J, 3J + 1, 3J + 2 of each block (I, J). Its scatter map is then the
 * position arithmetic of bsr3RefillWholeBlocks.
 */
export function bsr3HasWholeBlocks(B: Bsr3Matrix, A: CsrMatrix): boolean {
  if (A.rows !== 3 * B.blockRows || A.cols !== 3 * B.blockCols) return false;
  const { rowPtr, colInd } = B;
  for (let I = 0; I < B.blockRows; I++) {
    for (let a = 0; a < 3; a++) {
      let k = A.rowPtr[3 * I + a];
      if (A.rowPtr[3 * I + a + 1] - k !== 3 * (rowPtr[I + 1] - rowPtr[I])) return false;
      for (let b = rowPtr[I]; b < rowPtr[I + 1]; b++) for (let c = 0; c < 3; c++) if (A.colInd[k++] !== 3 * colInd[b] + c) return false;
    }
  }
  return true;
}

/**
 * B.values ← the values of A made of B's whole blocks (bsr3HasWholeBlocks), entry (a, c) of a
 * block stored at slot order[3a + c] of its 9 (the standard order, or a kernel's). The values of
 * bsr3RefillFromCsr through the map, with no map. No allocation.
 */
export function bsr3RefillWholeBlocks(B: Bsr3Matrix, A: CsrMatrix, order: readonly number[] = BSR3_STANDARD_ORDER): void {
  const bv = B.values,
    av = A.values,
    rowPtr = B.rowPtr,
    arp = A.rowPtr;
  for (let I = 0; I < B.blockRows; I++) {
    const b0 = rowPtr[I],
      b1 = rowPtr[I + 1];
    for (let a = 0; a < 3; a++) {
      let k = arp[3 * I + a];
      const o0 = order[3 * a],
        o1 = order[3 * a + 1],
        o2 = order[3 * a + 2];
      for (let b = b0; b < b1; b++, k += 3) {
        bv[9 * b + o0] = av[k];
        bv[9 * b + o1] = av[k + 1];
        bv[9 * b + o2] = av[k + 2];
      }
    }
  }
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
