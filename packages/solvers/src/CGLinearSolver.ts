import {
  Bool,
  Int,
  nonNegative,
  orReset,
  Real,
  sofaComponent,
  type CheckpointReader,
  type CheckpointRecord,
  type SolverStats,
} from '@sofa-ts/core';
import { LinearSolver, type MBKFactors, type MechanicalSystem } from '@sofa-ts/assembly';
import {
  Bsr3Wasm,
  CgWorkspace,
  BSR3_STANDARD_ORDER,
  KERNEL_ORDER,
  bsr3HasWholeBlocks,
  bsr3PatternOfCsr,
  bsr3RefillFromCsr,
  bsr3RefillWholeBlocks,
  bsr3ScatterMap,
  bsr3Spmv,
  conjugateGradient,
  spmv,
  type Bsr3Matrix,
  type CsrMatrix,
  type LinearOperator,
} from '@sofa-ts/linalg';

/**
 * SOFA's CGLinearSolver: conjugate gradient on A = P(m·M + b·B + k·K)P, stopped by the number of
 * iterations, the relative residual |r|/|b| ≤ tolerance, or a small denominator |pᵀAp| ≤ threshold
 * (SOFA's rules, including its leniency at the first iteration of the very first solve).
 * Template GraphScattered (default) works matrix-free over the scene graph; the
 * CompressedRowSparseMatrix templates assemble A with a fixed pattern and use sparse products;
 * with CompressedRowSparseMatrixMat3x3d the products run on 3x3 blocks (one column index per
 * block: fewer bytes through this memory-bound loop, about 2x faster than scalar CSR).
 */
@sofaComponent({
  name: 'CGLinearSolver',
  aliases: ['CGSolver', 'ConjugateGradient'],
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Iterative',
  description: 'Linear system solver using the conjugate gradient iterative algorithm.',
  templates: ['GraphScattered', 'CompressedRowSparseMatrixd', 'CompressedRowSparseMatrixMat3x3d'],
  defaultTemplate: 'GraphScattered',
})
export class CGLinearSolver extends LinearSolver {
  readonly iterations = this.initData({
    name: 'iterations',
    type: Int,
    default: 25,
    range: nonNegative,
    help: 'maximum number of iterations of the Conjugate Gradient solution',
    renamedFrom: ['maxIter'],
  });
  readonly tolerance = this.initData({
    name: 'tolerance',
    type: Real,
    default: 1e-5,
    range: orReset(nonNegative, 1e-5),
    help: 'desired accuracy of the Conjugate Gradient solution evaluating: |r|/|b| (ratio of current residual norm over initial residual norm)',
  });
  readonly threshold = this.initData({
    name: 'threshold',
    type: Real,
    default: 1e-5,
    range: orReset(nonNegative, 1e-5),
    help: 'minimum value of the denominator (pT A p) in the conjugate Gradient solution',
    renamedFrom: ['smallDenominatorThreshold'],
  });
  readonly warmStart = this.initData({
    name: 'warmStart',
    type: Bool,
    default: false,
    help: 'use previous solution as initial solution, which may improve the initial guess if your system is evolving smoothly',
  });
  readonly parallelInverseProduct = this.initData({
    name: 'parallelInverseProduct',
    type: Bool,
    default: false,
    help: 'accepted for compatibility',
  });

  // Initialised here, not at the first solve: a field first assigned later is taken by the JIT for a
  // constant, and replacing it (a recompiled system after a topological change) would throw away
  // the compiled step code.
  private ws: CgWorkspace | undefined = undefined;
  private solves = 0;
  private A: CsrMatrix | undefined;
  /** The 3x3 block copy of A (Mat3x3 template), how it is refilled (BlockRefill), and the A it was built for. */
  private blocks: ({ B: Bsr3Matrix; of: CsrMatrix } & BlockRefill) | undefined;
  private sys: MechanicalSystem | undefined = undefined;
  private factors: MBKFactors = { m: 0, b: 0, k: 0 };
  /** The operator, bound once so that no closure is created per solve. */
  private readonly applyAssembled: LinearOperator = (out, p) => {
    spmv(out, this.A!, p);
  };
  private readonly applyBlocks: LinearOperator = (out, p) => {
    this.blockProduct(out, this.blocks!.B, p);
  };

  /** The WebAssembly product of the block matrix (bit for bit bsr3Spmv), when available. */
  private wasmBlocks: Bsr3Wasm | undefined;

  /** out = B·p with the 3x3-block matrix (ParallelCGLinearSolver runs it on threads). */
  protected blockProduct(out: Float64Array, B: Bsr3Matrix, p: Float64Array): void {
    if (this.wasmBlocks?.matrix === B) this.wasmBlocks.apply(out, p);
    else bsr3Spmv(out, B, p);
  }

  /**
   * The 3x3-block matrix of A's pattern (made when the pattern changes; refilled every solve), in
   * the memory of the WebAssembly product where there is one.
   */
  protected blockMatrix(A: CsrMatrix): { matrix: Bsr3Matrix } & BlockRefill {
    const pattern = bsr3PatternOfCsr(A);
    const w = (this.wasmBlocks = Bsr3Wasm.create(pattern));
    return {
      matrix: w ? w.matrix : pattern,
      ...blockRefill(A, pattern, w ? KERNEL_ORDER : BSR3_STANDARD_ORDER, (s) => (w ? w.kernelScatter(s) : s)),
    };
  }
  private readonly applyGraph: LinearOperator = (out, p) => {
    this.sys!.applyMBK(out, this.factors, p);
  };
  /** SOFA's node-by-node scalar product of the current system, bound once (one call target for CG across recompilations). */
  private readonly graphDot = (a: Float64Array, b: Float64Array): number => this.sys!.dot(a, b);

  /** Checkpoint: the number of solves (SOFA's leniency at the very first one). */
  checkpointState(): CheckpointRecord {
    return { solves: this.solves };
  }

  restoreState(saved: CheckpointReader): void {
    this.solves = saved.number('solves');
  }

  /** The assembled matrix of the last solve (undefined matrix-free: GraphScattered assembles none). */
  systemMatrix(): CsrMatrix | undefined {
    return this.assembled ? this.A : undefined;
  }

  get assembled(): boolean {
    return this.template !== '' && this.template !== 'GraphScattered';
  }

  solveSystem(system: MechanicalSystem, factors: MBKFactors, rhs: Float64Array, out: Float64Array): SolverStats {
    const t0 = performance.now();
    if (!this.ws || this.ws.n !== rhs.length) this.ws = new CgWorkspace(rhs.length);
    this.sys = system;
    this.factors = factors;
    let op = this.applyGraph;
    let kernel: Bsr3Wasm | undefined;
    if (this.assembled) {
      const A = (this.A = system.assembleMBK(factors));
      op = this.applyAssembled;
      if (this.template.endsWith('CompressedRowSparseMatrixMat3x3d') && A.rows % 3 === 0) {
        // A new matrix object means a new pattern (FixedPatternAssembler); otherwise refill.
        if (this.blocks?.of !== A) {
          const { matrix, ...refill } = this.blockMatrix(A);
          this.blocks = { B: matrix, of: A, ...refill };
        }
        if (this.blocks.scatter) bsr3RefillFromCsr(this.blocks.B, A, this.blocks.scatter);
        else bsr3RefillWholeBlocks(this.blocks.B, A, this.blocks.order);
        op = this.applyBlocks;
        // the iterations' vectors and operations in the WebAssembly kernel's memory: no copy per product
        if (this.wasmBlocks?.matrix === this.blocks.B) kernel = this.wasmBlocks;
      }
    }
    const res = conjugateGradient(
      op,
      rhs,
      out,
      {
        maxIterations: this.iterations.value,
        tolerance: this.tolerance.value,
        threshold: this.threshold.value,
        warmStart: this.warmStart.value,
        firstSolve: this.solves === 0,
        // SOFA's GraphScattered vectors sum node by node; its assembled vectors (FullVector) flat;
        // a system without a graph order (a bare matrix system handed by a caller) sums flat too
        // (matrix-free: the iteration in the force field's WebAssembly memory where the system allows it)
        ...(this.assembled
          ? { kernel }
          : system.dot === undefined
            ? {}
            : { dot: this.graphDot, kernel: system.matrixFreeKernel?.(factors) }),
      },
      this.ws,
    );
    this.solves++;
    return { iterations: res.iterations, residual: res.residual, timeMs: performance.now() - t0 };
  }
}

/**
 * How a block matrix is refilled from A at each solve: A made of its whole blocks (the assembled
 * mesh of Vec3 points) needs no map, its values copied in order (`order`: where each entry of a
 * block is stored); otherwise through a scatter map (one Int32 per entry of A).
 */
export interface BlockRefill {
  scatter?: Int32Array;
  order: readonly number[];
}

/** The refill of B (the pattern of A) stored in `order`; `toStorage` turns a standard scatter map into the storage's. */
export function blockRefill(A: CsrMatrix, B: Bsr3Matrix, order: readonly number[], toStorage: (s: Int32Array) => Int32Array): BlockRefill {
  if (bsr3HasWholeBlocks(B, A)) return { order };
  return { scatter: toStorage(bsr3ScatterMap(A, B)), order };
}
