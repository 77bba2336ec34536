import type { SparseMatrixLike } from '@sofa-ts/core';

/** Remembers the pattern arrays of a matrix to tell when a factorization must be re-analysed. */
export class PatternTracker {
  private rowPtr: Int32Array | undefined;
  private colInd: Int32Array | undefined;
  private nnz = -1;

  /** True when A's pattern differs from the last one seen (and remembers A's). */
  changed(A: SparseMatrixLike): boolean {
    const nnz = A.rowPtr[A.rows];
    if (A.rowPtr === this.rowPtr && A.colInd === this.colInd && nnz === this.nnz) return false;
    this.rowPtr = A.rowPtr;
    this.colInd = A.colInd;
    this.nnz = nnz;
    return true;
  }

  reset(): void {
    this.rowPtr = undefined;
    this.colInd = undefined;
    this.nnz = -1;
  }
}

/** A copy of A's values with `shift` added on the diagonal (slots found once per pattern). */
export class DiagonalShift {
  private slots = new Int32Array(0);
  private values = new Float64Array(0);
  private readonly tracker = new PatternTracker();

  apply(A: SparseMatrixLike, shift: number): SparseMatrixLike {
    if (this.tracker.changed(A)) {
      this.slots = new Int32Array(A.rows).fill(-1);
      for (let r = 0; r < A.rows; r++) {
        for (let q = A.rowPtr[r]; q < A.rowPtr[r + 1]; q++) if (A.colInd[q] === r) this.slots[r] = q;
      }
      this.values = new Float64Array(A.values.length);
    }
    this.values.set(A.values);
    for (let r = 0; r < A.rows; r++) {
      const q = this.slots[r];
      if (q >= 0) this.values[q] += shift;
    }
    return { rows: A.rows, cols: A.cols, rowPtr: A.rowPtr, colInd: A.colInd, values: this.values };
  }
}
