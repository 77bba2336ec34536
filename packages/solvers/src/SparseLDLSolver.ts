import { Bool, Int, sofaComponent, type SolverStats } from '@sofa-ts/core';
import { LinearSolver, type MBKFactors, type MechanicalSystem } from '@sofa-ts/assembly';
import { SparseLDLT, amdOrdering, type CsrMatrix } from '@sofa-ts/linalg';

/**
 * SOFA's SparseLDLSolver: direct solve of A = P(m·M + b·B + k·K)P = L·D·Lᵀ with a fill-reducing
 * (approximate minimum degree) ordering. The symbolic analysis is done once per sparsity pattern
 * and reused; every step refills the values and refactorises.
 */
@sofaComponent({
  name: 'SparseLDLSolver',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Direct',
  description: 'Direct linear solver based on a sparse LDL^T factorization.',
  templates: ['CompressedRowSparseMatrixd', 'CompressedRowSparseMatrixMat3x3d'],
  defaultTemplate: 'CompressedRowSparseMatrixMat3x3d',
})
export class SparseLDLSolver extends LinearSolver {
  readonly precomputeSymbolicDecomposition = this.initData({ name: 'precomputeSymbolicDecomposition', type: Bool, default: true, help: 'if true, the symbolic decomposition is computed once and reused while the pattern is unchanged' });
  readonly parallelInverseProduct = this.initData({ name: 'parallelInverseProduct', type: Bool, default: false, help: 'accepted for compatibility' });
  readonly nnzL = this.initData({ name: 'L_nnz', type: Int, default: 0, help: 'number of non-zero values in the lower triangular matrix of the factorization', output: true });

  private readonly ldlt = new SparseLDLT();
  private analysedVersion = -1;
  private analysedFor: MechanicalSystem | undefined;

  solveSystem(system: MechanicalSystem, factors: MBKFactors, rhs: Float64Array, out: Float64Array): SolverStats {
    const t0 = performance.now();
    const A: CsrMatrix = system.assembleMBK(factors);
    const version = system.matrixPatternVersion;
    if (this.analysedFor !== system || version !== this.analysedVersion || !this.precomputeSymbolicDecomposition.value) {
      this.ldlt.analyze(A, amdOrdering(A.rows, A.rowPtr, A.colInd));
      this.analysedVersion = version;
      this.analysedFor = system;
      this.nnzL.value = this.ldlt.nnzL;
    }
    try {
      this.ldlt.factorize(A);
    } catch (e) {
      throw this.error(`the system matrix cannot be factorised: ${(e as Error).message}`);
    }
    this.ldlt.solve(out, rhs);
    return { iterations: 1, residual: 0, timeMs: performance.now() - t0 };
  }
}
