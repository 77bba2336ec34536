import { schedulerThreads, sofaComponent } from '@sofa-ts/core';
import { ThreadPool } from '@sofa-ts/linalg';
import { partitionElements, sharedF64 } from '../element-partition.js';
import { hexahedronDForceRange, type HexahedronProductData } from './hexahedron-dforce-range.js';
import { HexahedronFEMForceField } from './HexahedronFEMForceField.js';

/** Below this many hexahedra one thread is faster than waking the others for each product. */
export const PARALLEL_MIN_HEXAHEDRA = 512;

/**
 * SOFA's ParallelHexahedronFEMForceField (MultiThreading): HexahedronFEMForceField whose
 * matrix-free product df += k·K·dx runs on the threads of the task scheduler (TaskSchedulerSettings
 * nbThreads, default one per core) over shared memory, each thread on a contiguous range of
 * hexahedra; a node's contributions are summed in the one-thread order (partitionElements), so the
 * results are bit for bit HexahedronFEMForceField's. The rotations (and, with
 * updateStiffnessMatrix, the element matrices) are copied to the shared memory before each product.
 * Meshes under PARALLEL_MIN_HEXAHEDRA elements, and hosts without worker threads, run on one thread.
 */
@sofaComponent({
  name: 'ParallelHexahedronFEMForceField',
  category: 'ForceField',
  module: 'MultiThreading',
  description: 'HexahedronFEMForceField with its products computed by several threads.',
  templates: ['Vec3d'],
})
export class ParallelHexahedronFEMForceField extends HexahedronFEMForceField {
  private parallel:
    | {
        pool: ThreadPool;
        job: number;
        data: HexahedronProductData;
        bounds: Int32Array;
        targets: Int32Array;
        nv: number;
        kPool: Float64Array;
      }
    | undefined
    | null = null;

  /** Threads the products run on (1 until the first product). */
  get threadCount(): number {
    return this.parallel?.pool.threads ?? 1;
  }

  override reinit(): void {
    super.reinit();
    this.parallel = null;
  }

  private prepare(): typeof this.parallel {
    if (this.parallel !== null) return this.parallel;
    this.parallel = undefined;
    const n = this.elems.length / 8,
      np = this.mstate!.size;
    const pool = n >= PARALLEL_MIN_HEXAHEDRA ? ThreadPool.get(schedulerThreads(this.context)) : undefined;
    if (!pool) return undefined;
    const { bounds, deferred, count } = partitionElements(this.elems, 8, np, pool.threads);
    const nv = 3 * np;
    const outIdx = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, 8 * n))).subarray(0, 8 * n);
    const targets = new Int32Array(count);
    for (let s = 0, d = 0; s < 8 * n; s++) {
      const q = 3 * this.elems[s];
      if (deferred[s]) {
        targets[d] = q;
        outIdx[s] = nv + 3 * d++;
      } else outIdx[s] = q;
    }
    const elems = new Uint32Array(new SharedArrayBuffer(4 * Math.max(1, 8 * n))).subarray(0, 8 * n);
    elems.set(this.elems);
    const kOf = new Uint32Array(new SharedArrayBuffer(4 * Math.max(1, n))).subarray(0, n);
    kOf.set(this.kOf);
    const data: HexahedronProductData = {
      out: sharedF64(nv + 3 * count),
      outIdx,
      v: sharedF64(nv),
      elems,
      rot: sharedF64(9 * n),
      kPool: sharedF64(this.kPool.length),
      kOf,
    };
    data.kPool.set(this.kPool);
    const job = pool.addModule(new URL('./hexahedron-dforce-range.js', import.meta.url).href, 'hexahedronDForceJob', data);
    this.parallel = { pool, job, data, bounds, targets, nv, kPool: this.kPool };
    return this.parallel;
  }

  override addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    const p = k === 0 ? undefined : this.prepare();
    if (!p) return super.addDForce(df, dx, kFactor, bFactor);
    const { pool, data, bounds, targets, nv } = p;
    const out = df[0];
    data.rot.set(this.rot);
    if (this.updateStiffnessMatrix.value || p.kPool !== this.kPool) {
      data.kPool.set(this.kPool);
      p.kPool = this.kPool;
    }
    data.v.set(dx[0]);
    data.out.set(out);
    data.out.fill(-0, nv);
    const T = pool.threads,
      args = pool.args;
    for (let t = 1; t < T; t++) {
      args[8 * t] = k;
      args[8 * t + 1] = bounds[t - 1];
      args[8 * t + 2] = bounds[t];
    }
    pool.run(p.job, () => hexahedronDForceRange(data, k, bounds[T - 1], bounds[T]));
    // the deferred contributions, in element order
    const o = data.out;
    for (let d = 0; d < targets.length; d++) {
      const q = targets[d],
        s = nv + 3 * d;
      o[q] += o[s];
      o[q + 1] += o[s + 1];
      o[q + 2] += o[s + 2];
    }
    out.set(o.subarray(0, nv));
  }
}
