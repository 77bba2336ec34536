import { bsr3SpmvRange, type Bsr3Matrix } from '../bsr3.js';

/** Shared data of a parallel BSR product: the matrix and the vectors, all on SharedArrayBuffers. */
export interface SharedBsr3Product {
  B: Bsr3Matrix;
  x: Float64Array;
  y: Float64Array;
}

/** Pool kernel: y = B·x on block rows [args[0], args[1]). */
export function bsr3SpmvRows(data: unknown, args: Float64Array): void {
  const d = data as SharedBsr3Product;
  bsr3SpmvRange(d.y, d.B, d.x, args[0], args[1]);
}
