import { BSR3_STANDARD_ORDER, bsr3SpmvRange, type Bsr3Matrix } from '../bsr3.js';
import { Bsr3Wasm, KERNEL_ORDER } from '../wasm/bsr3-wasm.js';
import type { SharedBsr3Product } from './bsr3-kernel.js';
import { ThreadPool } from './thread-pool.js';
import { bsr3Shared } from '../bsr3.js';

/**
 * y = B·x with the block rows cut among the pool's threads (ranges of about equal numbers of
 * blocks). Each row is summed by one thread in the one-thread order: the result is bit for bit
 * bsr3Spmv's. The threads run the WebAssembly kernel (Bsr3Wasm) over its shared memory, or, without
 * WebAssembly, the JavaScript one over SharedArrayBuffers. `matrix` is the shared matrix: the caller
 * refills its values in place (through `kernelScatter`: the WebAssembly kernel has its own order of
 * a block's values); x and y are copied in and out around each product.
 */
export class ParallelBsr3Product {
  readonly matrix: Bsr3Matrix;
  private readonly wasm: Bsr3Wasm | undefined;
  private readonly data: SharedBsr3Product | undefined;
  private readonly job: number;
  private readonly bounds: Int32Array;

  constructor(
    readonly pool: ThreadPool,
    B: Bsr3Matrix,
  ) {
    const T = pool.threads,
      rp = B.rowPtr,
      nnzb = rp[B.blockRows];
    this.bounds = new Int32Array(T + 1);
    let I = 0;
    for (let t = 1; t < T; t++) {
      while (I < B.blockRows && rp[I] < (nnzb * t) / T) I++;
      this.bounds[t] = I;
    }
    this.bounds[T] = B.blockRows;
    this.wasm = Bsr3Wasm.create(B);
    if (this.wasm) {
      this.matrix = this.wasm.matrix;
      this.job = pool.addWasm(this.wasm.module, this.wasm.memory, 'bsr3Spmv');
    } else {
      this.matrix = bsr3Shared(B);
      const shared = (n: number) => new Float64Array(new SharedArrayBuffer(8 * n));
      this.data = { B: this.matrix, x: shared(3 * B.blockCols), y: shared(3 * B.blockRows) };
      this.job = pool.addModule(new URL('./bsr3-kernel.js', import.meta.url).href, 'bsr3SpmvRows', this.data);
    }
  }

  /** Where `matrix` stores entry t = 3·row + col of a block (the kernel's order with WebAssembly). */
  get storageOrder(): readonly number[] {
    return this.wasm ? KERNEL_ORDER : BSR3_STANDARD_ORDER;
  }

  /** A scatter map into the standard block layout turned into one into `matrix`'s (the kernel's order with WebAssembly). */
  kernelScatter(scatter: Int32Array): Int32Array {
    return this.wasm ? this.wasm.kernelScatter(scatter) : scatter;
  }

  /** y = B·x on all threads. */
  apply(y: Float64Array, x: Float64Array): void {
    const T = this.pool.threads,
      args = this.pool.args,
      b = this.bounds,
      w = this.wasm;
    if (w) {
      w.xView.set(x);
      const a = w.addr;
      for (let t = 1; t < T; t++) args.set([a.rowPtr, a.colInd, a.values, a.x, a.y, b[t - 1], b[t]], 8 * t);
      this.pool.run(this.job, () => w.runRange(b[T - 1], b[T]));
      y.set(w.yView);
      return;
    }
    const d = this.data!;
    d.x.set(x);
    for (let t = 1; t < T; t++) {
      args[8 * t] = b[t - 1];
      args[8 * t + 1] = b[t];
    }
    this.pool.run(this.job, () => bsr3SpmvRange(d.y, d.B, d.x, b[T - 1], b[T]));
    y.set(d.y);
  }
}
