import { Bool, Int, schedulerThreads, sofaComponent } from '@sofa-ts/core';
import { SupernodalLDLT, ThreadPool, type CsrMatrix } from '@sofa-ts/linalg';
import { DirectSparseSolver, crsTemplates } from './linear/matrix-linear-solver.js';

/**
 * SOFA's SparseLDLSolver: direct solve of A = P(m·M + b·B + k·K)P = L·D·Lᵀ with the fill-reducing
 * ordering of the `orderingMethod` component (in SOFA approximate minimum degree when the node has
 * none; here too, unless a band ordering saves a large part of the factorization: see
 * DirectSparseSolver). The symbolic analysis is done once per sparsity pattern and reused; every step
 * refills the values and refactorises. The factorization is supernodal (SupernodalLDLT: dense
 * kernels on blocks of columns of L sharing one structure); it gives SOFA's scalar LDLᵀ up to round-off.
 * With `parallelFactorization` (sofa-ts) the factorization runs on two of the task scheduler's
 * threads (independent subtrees at once, then the large dense products shared), bit for bit the
 * one-thread factor.
 */
@sofaComponent({
  name: 'SparseLDLSolver',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Direct',
  description: 'Direct linear solver based on a sparse LDL^T factorization.',
  templates: crsTemplates,
  defaultTemplate: 'CompressedRowSparseMatrixMat3x3d',
})
export class SparseLDLSolver extends DirectSparseSolver {
  readonly precomputeSymbolicDecomposition = this.initData({
    name: 'precomputeSymbolicDecomposition',
    type: Bool,
    default: true,
    help: 'if true, the symbolic decomposition is computed once and reused while the pattern is unchanged',
  });
  readonly parallelInverseProduct = this.initData({
    name: 'parallelInverseProduct',
    type: Bool,
    default: false,
    help: 'accepted for compatibility',
  });
  readonly parallelFactorization = this.initData({
    name: 'parallelFactorization',
    type: Bool,
    default: false,
    help:
      'sofa-ts: factorize on two threads of the task scheduler (TaskSchedulerSettings nbThreads, default one per core): ' +
      'two independent subtrees of the elimination tree at once, then the large dense products above them cut between ' +
      'the threads by rows; the factor is bit for bit the one-thread factor. Matrices under a million operations stay on one thread',
  });
  readonly nnzL = this.initData({
    name: 'L_nnz',
    type: Int,
    default: 0,
    help: 'entries of L below its diagonal after the last analysis',
    output: true,
  });

  private readonly ldlt = new SupernodalLDLT();
  /** Factorizations done so far: what a constraint correction solved with the factor stays valid while it holds. */
  factorizations = 0;

  protected invert(A: CsrMatrix, patternChanged: boolean): void {
    if (patternChanged || !this.precomputeSymbolicDecomposition.value) {
      this.ldlt.threadPool = this.parallelFactorization.value ? this.factorizationPool() : undefined;
      this.ldlt.analyze(A, this.permutation(A));
      this.nnzL.value = this.ldlt.nnzL;
    }
    this.factorizations++;
    this.ldlt.factorize(A);
  }

  private poolWarned = false;

  /** The task scheduler's pool for parallelFactorization; undefined (said once) where there are no threads. */
  private factorizationPool(): ThreadPool | undefined {
    const threads = schedulerThreads(this.context);
    const pool = ThreadPool.get(threads);
    if (!pool && !this.poolWarned) {
      this.poolWarned = true;
      this.warn(
        `parallelFactorization: ${threads < 2 ? `the task scheduler has ${threads} thread` : 'this host has no worker threads'}; the factorization runs on one thread`,
        threads < 2 ? 'set TaskSchedulerSettings nbThreads to 2 or more' : undefined,
      );
    }
    return pool;
  }

  /** The subtree split of the factorization between two threads after the last analysis (undefined: none). */
  get factorizationSplit(): { m: number; r: number; time: number } | undefined {
    return this.ldlt.split;
  }

  /** Whether the factorization runs on two threads, and the dense products the last one shared. */
  get factorizationThreads(): { parallel: boolean; sharedProducts: number } {
    return { parallel: this.ldlt.parallel, sharedProducts: this.ldlt.sharedProducts };
  }

  /** L·D·Lᵀ of the last matrix, for sparse right-hand sides (the constraint corrections' SupernodalCompliance); undefined before a factorization. */
  supernodalFactor(): SupernodalLDLT | undefined {
    return this.ldlt.factorized ? this.ldlt : undefined;
  }

  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    this.ldlt.solve(out, rhs);
  }
}
