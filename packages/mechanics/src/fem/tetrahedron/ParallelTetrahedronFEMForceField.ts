import { schedulerThreads, sofaComponent } from '@sofa-ts/core';
import { ThreadPool } from '@sofa-ts/linalg';
import { ParallelTetrahedraProduct } from './parallel-tetrahedra-product.js';
import { TetrahedronDForceWasm } from '../tetrahedron-dforce-kernel.js';
import { TetrahedronFEMForceField } from './TetrahedronFEMForceField.js';

/** Below this many tetrahedra one thread is faster than waking the others for each product. */
export const PARALLEL_MIN_TETRAHEDRA = 2048;

/**
 * SOFA's ParallelTetrahedronFEMForceField (MultiThreading): TetrahedronFEMForceField whose
 * matrix-free product df += k·K·dx, the loop of every CG iteration, runs on the threads of the task
 * scheduler (TaskSchedulerSettings nbThreads, default one per core) over shared memory. The
 * elements' contributions are summed in the one-thread order (ParallelTetrahedraProduct), so the
 * results are bit for bit those of TetrahedronFEMForceField. Meshes under PARALLEL_MIN_TETRAHEDRA
 * elements, and hosts without worker threads, run on one thread.
 */
@sofaComponent({
  name: 'ParallelTetrahedronFEMForceField',
  category: 'ForceField',
  module: 'MultiThreading',
  description: 'TetrahedronFEMForceField with its products computed by several threads.',
  templates: ['Vec3d'],
})
export class ParallelTetrahedronFEMForceField extends TetrahedronFEMForceField {
  private parallel: ParallelTetrahedraProduct | undefined;

  /** Threads the products run on (1 until the first product). */
  get threadCount(): number {
    return this.parallel?.pool.threads ?? 1;
  }

  protected override createWasmProduct(): TetrahedronDForceWasm | undefined {
    this.parallel = undefined;
    const pool = this.elementCount >= PARALLEL_MIN_TETRAHEDRA ? ThreadPool.get(schedulerThreads(this.context)) : undefined;
    if (pool) this.parallel = ParallelTetrahedraProduct.create(pool, this.elems, this.mstate!.size);
    return this.parallel?.wasm ?? super.createWasmProduct();
  }

  /** The kernel waits for the first step (its threads' pool), as before. */
  protected override kernelAtInit(): boolean {
    return false;
  }

  /** The threads' partition follows the elements: a new product after a topological change. */
  protected override refitWasmProduct(w: TetrahedronDForceWasm): boolean {
    return this.parallel?.wasm !== w && super.refitWasmProduct(w);
  }

  protected override applyWasmProduct(w: TetrahedronDForceWasm, df: Float64Array, dx: Float64Array, k: number): void {
    if (this.parallel?.wasm === w) this.parallel.apply(df, dx, k);
    else super.applyWasmProduct(w, df, dx, k);
  }

  protected override wasmProductFunction(w: TetrahedronDForceWasm): object | undefined {
    return this.parallel?.wasm === w ? undefined : super.wasmProductFunction(w);
  }

  protected override applyWasmProductInPlace(w: TetrahedronDForceWasm, k: number): void {
    if (this.parallel?.wasm === w) this.parallel.applyInPlace(k);
    else super.applyWasmProductInPlace(w, k);
  }
}
