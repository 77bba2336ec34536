import { bsr3Shared, bsr3SpmvRange, type Bsr3Matrix } from '../bsr3.js';
import type { SharedBsr3Product } from './bsr3-kernel.js';
import { ThreadPool } from './thread-pool.js';

/**
 * y = B·x with the block rows cut among the pool's threads (ranges of about equal numbers of
 * blocks). Each row is summed by one thread in the one-thread order: the result is bit for bit
 * bsr3Spmv's. B lives on SharedArrayBuffers (`matrix`, refilled in place by the caller); x and y are
 * copied in and out around each product.
 */
export class ParallelBsr3Product {
  /** The shared matrix: refill its values, keep its pattern. */
  readonly matrix: Bsr3Matrix;
  private readonly data: SharedBsr3Product;
  private readonly job: number;
  private readonly bounds: Int32Array;

  constructor(
    readonly pool: ThreadPool,
    B: Bsr3Matrix,
  ) {
    this.matrix = bsr3Shared(B);
    const n = 3 * B.blockRows;
    this.data = { B: this.matrix, x: new Float64Array(new SharedArrayBuffer(8 * 3 * B.blockCols)), y: new Float64Array(new SharedArrayBuffer(8 * n)) };
    const T = pool.threads, rp = this.matrix.rowPtr, nnzb = rp[B.blockRows]!;
    this.bounds = new Int32Array(T + 1);
    let I = 0;
    for (let t = 1; t < T; t++) {
      while (I < B.blockRows && rp[I]! < (nnzb * t) / T) I++;
      this.bounds[t] = I;
    }
    this.bounds[T] = B.blockRows;
    this.job = pool.addModule(new URL('./bsr3-kernel.js', import.meta.url).href, 'bsr3SpmvRows', this.data);
  }

  /** y = B·x on all threads. */
  apply(y: Float64Array, x: Float64Array): void {
    const d = this.data, T = this.pool.threads, args = this.pool.args, b = this.bounds;
    d.x.set(x);
    for (let t = 1; t < T; t++) {
      args[8 * t] = b[t - 1]!;
      args[8 * t + 1] = b[t]!;
    }
    this.pool.run(this.job, () => bsr3SpmvRange(d.y, d.B, d.x, b[T - 1]!, b[T]!));
    y.set(d.y);
  }
}
