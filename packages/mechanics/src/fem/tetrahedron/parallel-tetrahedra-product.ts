import { ThreadPool } from '@sofa-ts/linalg';
import { partitionElements } from '../element-partition.js';
import { TET_SCRATCH_BYTES, TetrahedronDForceWasm } from '../tetrahedron-dforce-kernel.js';

/**
 * The product df += −k·Σ Rᵀ·J·K·Jᵀ·R·dx of corotational tetrahedra on the threads of a ThreadPool,
 * bit for bit the one-thread result. The elements are cut into contiguous ranges (even bounds, one
 * per thread; the calling thread takes the last) by partitionElements: a node's first range adds
 * into df directly, in element order, as one thread would; the later ranges write their
 * contributions to it into deferred slots (initialised to −0, so a slot holds exactly the
 * contribution: −0 + x = x), which the caller adds after the run in element order. Every sum thus
 * has the one-thread operands in the one-thread order.
 */
export class ParallelTetrahedraProduct {
  private readonly job: number;
  /** Element ranges: thread t runs [bounds[t], bounds[t+1]). */
  private readonly bounds: Int32Array;
  /** (nDeferred) f64 index in vout of the node each deferred slot adds to, in element order. */
  private readonly deferredTarget: Int32Array;
  private readonly deferredView: Float64Array;

  private constructor(
    readonly pool: ThreadPool,
    readonly wasm: TetrahedronDForceWasm,
    bounds: Int32Array,
    targets: Int32Array,
  ) {
    this.bounds = bounds;
    this.deferredTarget = targets;
    this.deferredView = new Float64Array(wasm.memory.buffer, wasm.deferred, 3 * targets.length);
    this.job = pool.addWasm(wasm.module, wasm.memory as never, 'tetDF2');
  }

  /** The product over `pool`'s threads, or undefined without WebAssembly. */
  static create(pool: ThreadPool, elems: Uint32Array, nPoints: number): ParallelTetrahedraProduct | undefined {
    const n = elems.length / 4;
    // even inner bounds: the workers run element pairs
    const { bounds, deferred, count } = partitionElements(elems, 4, nPoints, pool.threads, 2);
    const wasm = TetrahedronDForceWasm.create(elems, nPoints, count, pool.threads);
    if (!wasm) return undefined;
    const outIdx = wasm.outIndex();
    const targets = new Int32Array(count);
    let d = 0;
    for (let e = 0; e < n; e++)
      for (let k = 0; k < 4; k++) {
        if (!deferred[4 * e + k]) continue;
        const slot = 8 * (e >> 1) + 4 * (e & 1) + k;
        targets[d] = (outIdx[slot] - wasm.vout) / 8;
        outIdx[slot] = wasm.deferred + 24 * d;
        d++;
      }
    return new ParallelTetrahedraProduct(pool, wasm, bounds, targets);
  }

  /** df += −k·Σ Rᵀ·J·K·Jᵀ·R·dx, on all threads. */
  apply(df: Float64Array, dx: Float64Array, k: number): void {
    this.wasm.vinView.set(dx);
    this.wasm.voutView.set(df);
    this.applyInPlace(k);
    df.set(this.wasm.voutView);
  }

  /** vout += −k·Σ Rᵀ·J·K·Jᵀ·R·vin in the kernel's memory, on all threads (no copy). */
  applyInPlace(k: number): void {
    const w = this.wasm,
      T = this.pool.threads,
      args = this.pool.args,
      b = this.bounds;
    this.deferredView.fill(-0);
    // workers 1 … T−1 take ranges 0 … T−2 (pairs); the caller the last one (it may end on a single element)
    for (let t = 0; t < T - 1; t++) {
      const row = 8 * (t + 1);
      args[row] = w.inIdx;
      args[row + 1] = w.outIdx;
      args[row + 2] = w.elem;
      args[row + 3] = k;
      args[row + 4] = b[t] >> 1;
      args[row + 5] = b[t + 1] >> 1;
      args[row + 6] = w.scratch + TET_SCRATCH_BYTES * (t + 1);
    }
    this.pool.run(this.job, () => w.runRange(k, b[T - 1], b[T]));
    // the deferred contributions, in element order
    const out = w.voutView,
      def = this.deferredView,
      tg = this.deferredTarget;
    for (let d = 0; d < tg.length; d++) {
      const q = tg[d];
      out[q] += def[3 * d];
      out[q + 1] += def[3 * d + 1];
      out[q + 2] += def[3 * d + 2];
    }
  }
}
