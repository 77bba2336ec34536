import { type CsrMatrix, createCsr } from './csr.js';

/**
 * Sparse matrix-matrix product C = A B, split in two phases:
 *  - `spgemmSymbolic(A, B)`: pattern of C (row i of C is the union of rows B(k,:) over the
 *    nonzeros A(i,k)); allocates, init time.
 *  - `spgemmNumeric(C, A, B, acc)`: refills C.values for the same patterns of A and B. Each row
 *    is accumulated in a dense scratch row `acc` (B.cols, all zeros on entry and on exit), then
 *    gathered through C's pattern, which also resets `acc`. No allocation.
 * Products of structurally present entries are kept even if they are numerically zero.
 */
export function spgemmSymbolic(A: CsrMatrix, B: CsrMatrix): CsrMatrix {
  if (A.cols !== B.rows) throw new Error(`spgemm: inner dimensions differ (${A.cols} vs ${B.rows})`);
  const rows = A.rows;
  const cols = B.cols;
  const mark = new Int32Array(cols).fill(-1); // mark[j] = last row of C that contains column j
  const rowPtr = new Int32Array(rows + 1);
  // Pass 1: count.
  for (let i = 0; i < rows; i++) {
    let cnt = 0;
    for (let ka = A.rowPtr[i]; ka < A.rowPtr[i + 1]; ka++) {
      const k = A.colInd[ka];
      for (let kb = B.rowPtr[k]; kb < B.rowPtr[k + 1]; kb++) {
        const j = B.colInd[kb];
        if (mark[j] !== i) {
          mark[j] = i;
          cnt++;
        }
      }
    }
    rowPtr[i + 1] = rowPtr[i] + cnt;
  }
  // Pass 2: fill and sort each row.
  const colInd = new Int32Array(rowPtr[rows]);
  mark.fill(-1);
  for (let i = 0; i < rows; i++) {
    let q = rowPtr[i];
    for (let ka = A.rowPtr[i]; ka < A.rowPtr[i + 1]; ka++) {
      const k = A.colInd[ka];
      for (let kb = B.rowPtr[k]; kb < B.rowPtr[k + 1]; kb++) {
        const j = B.colInd[kb];
        if (mark[j] !== i) {
          mark[j] = i;
          colInd[q++] = j;
        }
      }
    }
    colInd.subarray(rowPtr[i], q).sort();
  }
  return createCsr(rows, cols, rowPtr, colInd);
}

/** C.values = (A B) on C's pattern (from `spgemmSymbolic(A, B)`); `acc` (B.cols) must be zero. */
export function spgemmNumeric(C: CsrMatrix, A: CsrMatrix, B: CsrMatrix, acc: Float64Array): CsrMatrix {
  const aPtr = A.rowPtr;
  const aInd = A.colInd;
  const aVal = A.values;
  const bPtr = B.rowPtr;
  const bInd = B.colInd;
  const bVal = B.values;
  const cPtr = C.rowPtr;
  const cInd = C.colInd;
  const cVal = C.values;
  for (let i = 0; i < C.rows; i++) {
    // acc(:) += A(i,k) B(k,:)
    for (let ka = aPtr[i]; ka < aPtr[i + 1]; ka++) {
      const k = aInd[ka];
      const a = aVal[ka];
      for (let kb = bPtr[k]; kb < bPtr[k + 1]; kb++) acc[bInd[kb]] += a * bVal[kb];
    }
    // Gather through the pattern and reset the scratch row.
    for (let kc = cPtr[i]; kc < cPtr[i + 1]; kc++) {
      const j = cInd[kc];
      cVal[kc] = acc[j];
      acc[j] = 0;
    }
  }
  return C;
}

/** C = A B as a new matrix (symbolic + numeric). Init-time helper. */
export function spgemm(A: CsrMatrix, B: CsrMatrix): CsrMatrix {
  const C = spgemmSymbolic(A, B);
  return spgemmNumeric(C, A, B, new Float64Array(B.cols));
}
