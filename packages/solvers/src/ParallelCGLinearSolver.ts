import { schedulerThreads, sofaComponent } from '@sofa-ts/core';
import { ParallelBsr3Product, ThreadPool, bsr3PatternOfCsr, type Bsr3Matrix, type CsrMatrix } from '@sofa-ts/linalg';
import { CGLinearSolver, blockRefill, type BlockRefill } from './CGLinearSolver.js';

/** Below this many 3x3 blocks one thread is faster than waking the others for each product. */
export const PARALLEL_MIN_BLOCKS = 8192;

/**
 * SOFA's ParallelCGLinearSolver (MultiThreading): CGLinearSolver whose matrix-vector products run
 * on the threads of the task scheduler (TaskSchedulerSettings nbThreads, default one per core).
 * SOFA's template ParallelCompressedRowSparseMatrixMat3x3d (the default) assembles A as
 * CGLinearSolver's CompressedRowSparseMatrixMat3x3d does, and the block rows of A are cut among the threads, each row
 * summed by one thread in the one-thread order; matrix-free (GraphScattered), the products are
 * those of the force fields (parallel with the Parallel* force fields). The vector operations (dot
 * products in index order) stay on one thread, so every iterate is bit for bit CGLinearSolver's.
 */
@sofaComponent({
  name: 'ParallelCGLinearSolver',
  category: 'LinearSolver',
  module: 'MultiThreading',
  description: 'Conjugate gradient whose matrix-vector products run on several threads.',
  templates: [
    'ParallelCompressedRowSparseMatrixMat3x3d',
    'ParallelCompressedRowSparseMatrixd',
    'CompressedRowSparseMatrixMat3x3d',
    'CompressedRowSparseMatrixd',
    'GraphScattered',
  ],
  defaultTemplate: 'ParallelCompressedRowSparseMatrixMat3x3d',
})
export class ParallelCGLinearSolver extends CGLinearSolver {
  private product: ParallelBsr3Product | undefined;

  /** Threads the products run on (1 until the first assembled solve, or for small systems). */
  get threadCount(): number {
    return this.product?.pool.threads ?? 1;
  }

  protected override blockMatrix(A: CsrMatrix): { matrix: Bsr3Matrix } & BlockRefill {
    this.product = undefined;
    const matrix = bsr3PatternOfCsr(A);
    const pool = matrix.colInd.length >= PARALLEL_MIN_BLOCKS ? ThreadPool.get(schedulerThreads(this.context)) : undefined;
    if (!pool) return super.blockMatrix(A);
    const product = (this.product = new ParallelBsr3Product(pool, matrix));
    return { matrix: product.matrix, ...blockRefill(A, matrix, product.storageOrder, (s) => product.kernelScatter(s)) };
  }

  protected override blockProduct(out: Float64Array, B: Bsr3Matrix, p: Float64Array): void {
    if (this.product?.matrix === B) this.product.apply(out, p);
    else super.blockProduct(out, B, p);
  }
}
