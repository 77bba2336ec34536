import type { SparseMatrixLike } from '@sofa-ts/core';
import type { CsrMatrix } from '@sofa-ts/linalg';

/**
 * A sub-matrix A(rows, cols) of a CSR matrix with a fixed pattern: `build` makes the pattern (at
 * init or when A's pattern changed), `refill` copies the current values. `colMap[c]` is the new
 * column of A's column c, or −1 to drop it.
 */
export class SubMatrix {
  matrix!: CsrMatrix;
  /** (nnz of the sub-matrix) the slot of A each entry comes from */
  private src = new Int32Array(0);

  build(A: SparseMatrixLike, rows: ArrayLike<number>, colMap: Int32Array, cols: number): CsrMatrix {
    const rowPtr = new Int32Array(rows.length + 1);
    const colInd: number[] = [];
    const src: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      for (let q = A.rowPtr[r]; q < A.rowPtr[r + 1]; q++) {
        const c = colMap[A.colInd[q]];
        if (c < 0) continue;
        colInd.push(c);
        src.push(q);
      }
      rowPtr[i + 1] = colInd.length;
    }
    this.src = Int32Array.from(src);
    this.matrix = { rows: rows.length, cols, rowPtr, colInd: Int32Array.from(colInd), values: new Float64Array(colInd.length) };
    return this.refill(A);
  }

  refill(A: SparseMatrixLike): CsrMatrix {
    const v = this.matrix.values,
      src = this.src;
    for (let k = 0; k < src.length; k++) v[k] = A.values[src[k]];
    return this.matrix;
  }
}

/** colMap for keeping every column (identity). */
export function identityMap(n: number): Int32Array {
  const m = new Int32Array(n);
  for (let i = 0; i < n; i++) m[i] = i;
  return m;
}
