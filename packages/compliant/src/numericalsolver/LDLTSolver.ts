import { sofaComponent, type BaseResponse } from '@sofa-ts/core';
import { SupernodalLDLT, ZeroPivotError, amdOrdering, denseLdltFactor, denseLdltSolve, type CsrMatrix } from '@sofa-ts/linalg';
import { DirectKKTSolver } from './direct-kkt-solver.js';
import { constraintBlockDefinite, kktLdltOrdering } from './kkt-support.js';
import { LDLTResponse } from './LDLTResponse.js';

/**
 * The Compliant plugin's LDLTSolver: a direct solve of the KKT system of bilateral constraints
 * (projectors are ignored). By default through the Schur complement S = J·R⁻¹·Jᵀ + C, factored
 * S = L·D·Lᵀ (R: the node's Response, else an LDLTResponse); with schur="0" the symmetric KKT
 * matrix [H −Jᵀ; −J −C] is factored L·D·Lᵀ: in minimum degree order when every constraint row is
 * compliant (the matrix is then quasi-definite, any order has non-zero pivots), otherwise with the
 * dynamics rows first and the constraint rows last, so that no pivot vanishes when C = 0.
 */
@sofaComponent({
  name: 'LDLTSolver',
  category: 'LinearSolver',
  module: 'Compliant',
  description: 'Direct LDL^T solver of KKT systems (Schur complement by default).',
})
export class LDLTSolver extends DirectKKTSolver {
  /** (n × n) the factored Schur complement */
  private ld = new Float64Array(0);
  private readonly sparse = new SupernodalLDLT();
  /** The sparse KKT factorization eliminates H's rows first. */
  private hFirst = true;

  protected defaultResponse(): BaseResponse {
    return new LDLTResponse();
  }

  protected factorDense(S: Float64Array, n: number): void {
    if (this.ld.length < n * n) this.ld = new Float64Array(n * n);
    this.ld.set(S.subarray(0, n * n));
    denseLdltFactor(this.ld, n);
  }

  protected solveDense(out: Float64Array, b: Float64Array, n: number): void {
    denseLdltSolve(out, this.ld, n, b);
  }

  protected factorSparse(K: CsrMatrix, m: number, analyze: boolean): void {
    if (analyze) {
      // quasi-definite (every constraint row compliant): any symmetric order works, take minimum
      // degree on the whole matrix; otherwise H's rows first
      this.hFirst = !constraintBlockDefinite(K, m);
      this.sparse.analyze(K, this.hFirst ? kktLdltOrdering(K, m) : amdOrdering(K.rows, K.rowPtr, K.colInd));
    }
    try {
      this.sparse.factorize(K);
    } catch (e) {
      if (!(e instanceof ZeroPivotError) || this.hFirst) throw e;
      this.hFirst = true;
      this.sparse.analyze(K, kktLdltOrdering(K, m));
      this.sparse.factorize(K);
    }
  }

  protected solveSparse(out: Float64Array, b: Float64Array): void {
    this.sparse.solve(out, b);
  }
}
