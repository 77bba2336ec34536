import { sofaComponent, type BaseResponse } from '@sofa-ts/core';
import { SparseLU, amdOrdering, type CsrMatrix } from '@sofa-ts/linalg';
import { DirectKKTSolver } from './direct-kkt-solver.js';
import { LUResponse } from './LUResponse.js';
import { denseLuFactor, denseLuSolve } from './dense-lu.js';

/**
 * The Compliant plugin's LUSolver: as LDLTSolver with LU factorizations (partial pivoting), for
 * systems that need no symmetry: the Schur complement S = J·R⁻¹·Jᵀ + C by dense LU (R: the node's
 * Response, else an LUResponse), or with schur="0" the whole KKT matrix by sparse LU.
 */
@sofaComponent({
  name: 'LUSolver',
  category: 'LinearSolver',
  module: 'Compliant',
  description: 'Direct LU solver of KKT systems (Schur complement by default).',
})
export class LUSolver extends DirectKKTSolver {
  /** (n × n) LU of the Schur complement, and its row swaps */
  private lu = new Float64Array(0);
  private piv = new Int32Array(0);
  private readonly sparse = new SparseLU();

  protected defaultResponse(): BaseResponse {
    return new LUResponse();
  }

  protected factorDense(S: Float64Array, n: number): void {
    if (this.lu.length < n * n) this.lu = new Float64Array(n * n);
    if (this.piv.length < n) this.piv = new Int32Array(n);
    this.lu.set(S.subarray(0, n * n));
    denseLuFactor(this.lu, n, this.piv);
  }

  protected solveDense(out: Float64Array, b: Float64Array, n: number): void {
    denseLuSolve(out, this.lu, n, this.piv, b);
  }

  protected factorSparse(K: CsrMatrix, _m: number, analyze: boolean): void {
    if (analyze) this.sparse.analyze(K, amdOrdering(K.rows, K.rowPtr, K.colInd));
    this.sparse.factorize(K);
  }

  protected solveSparse(out: Float64Array, b: Float64Array): void {
    this.sparse.solve(out, b);
  }
}
