import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';

/**
 * The shift matrix J_a0 = [0 … I … 0] of a master state (rows: its `length` dofs, cols: the `size`
 * dofs of the system; the identity block starts at column `offset`).
 */
export function shiftMatrix(length: number, size: number, offset: number): CsrMatrix {
  const rowPtr = new Int32Array(length + 1);
  const colInd = new Int32Array(length);
  const values = new Float64Array(length).fill(1);
  for (let i = 0; i < length; i++) {
    rowPtr[i + 1] = i + 1;
    colInd[i] = offset + i;
  }
  return createCsr(length, size, rowPtr, colInd, values);
}

/**
 * Rows of several matrices with the same column count, stacked: [A_0; A_1; …]. `refill` copies the
 * current values of the parts into the stack (same patterns), without allocating.
 */
export class RowStack {
  readonly matrix: CsrMatrix;
  private readonly starts: Int32Array;

  constructor(readonly parts: readonly CsrMatrix[]) {
    const cols = parts[0]?.cols ?? 0;
    let rows = 0;
    let nnz = 0;
    for (const p of parts) {
      if (p.cols !== cols) throw new Error('RowStack: parts must have the same column count');
      rows += p.rows;
      nnz += p.rowPtr[p.rows];
    }
    const rowPtr = new Int32Array(rows + 1);
    const colInd = new Int32Array(nnz);
    this.starts = new Int32Array(parts.length);
    let r = 0;
    let k = 0;
    parts.forEach((p, i) => {
      this.starts[i] = k;
      for (let pr = 0; pr < p.rows; pr++) {
        for (let q = p.rowPtr[pr]; q < p.rowPtr[pr + 1]; q++) colInd[k++] = p.colInd[q];
        rowPtr[++r] = k;
      }
    });
    this.matrix = createCsr(rows, cols, rowPtr, colInd);
    this.refill();
  }

  refill(): void {
    const v = this.matrix.values;
    this.parts.forEach((p, i) => v.set(p.values.subarray(0, p.rowPtr[p.rows]), this.starts[i]));
  }
}
