import { Bool, Int, sofaComponent } from '@sofa-ts/core';
import { SupernodalLDLT, type CsrMatrix } from '@sofa-ts/linalg';
import { DirectSparseSolver, crsTemplates } from './linear/matrix-linear-solver.js';

/**
 * SOFA's SparseLDLSolver: direct solve of A = P(m·M + b·B + k·K)P = L·D·Lᵀ with the fill-reducing
 * ordering of the `orderingMethod` component (in SOFA, as here, approximate minimum degree when the
 * node has none). The symbolic analysis is done once per sparsity pattern and reused; every step
 * refills the values and refactorises. The factorization is supernodal (SupernodalLDLT: dense
 * kernels on blocks of columns of L sharing one structure); it gives SOFA's scalar LDLᵀ up to round-off.
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
      this.ldlt.analyze(A, this.permutation(A));
      this.nnzL.value = this.ldlt.nnzL;
    }
    this.factorizations++;
    this.ldlt.factorize(A);
  }

  /** L·D·Lᵀ of the last matrix, for sparse right-hand sides (the constraint corrections' SupernodalCompliance); undefined before a factorization. */
  supernodalFactor(): SupernodalLDLT | undefined {
    return this.ldlt.factorized ? this.ldlt : undefined;
  }

  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    this.ldlt.solve(out, rhs);
  }
}
