import { BaseKKTSolver, Bool, SofaError, type BaseResponse, type KKTSystem } from '@sofa-ts/core';
import type { CsrMatrix } from '@sofa-ts/linalg';
import { DenseSchur, KKTMatrix, findResponse, symmetricRhs } from './kkt-support.js';

/**
 * Shared part of the direct KKT solvers (LDLTSolver, LUSolver). Two ways to solve
 *   [H −Jᵀ; J C] [v; λ] = [P·c; b]   (J standing for J·P):
 * - Schur complement (`schur`, the default): R = the response of H (the node's Response
 *   component, else the solver's own), W = R⁻¹Jᵀ, S = J·W + C factored densely, then
 *     v₀ = R⁻¹·P·c,   S·λ = b − J·v₀,   v = v₀ + W·λ;
 * - full KKT: the symmetric matrix [H −Jᵀ; −J −C] factored sparse (H's rows first).
 * The correction pass reuses the factorization (the damping hint is not needed by direct solves).
 */
export abstract class DirectKKTSolver extends BaseKKTSolver {
  readonly schur = this.initData({
    name: 'schur',
    type: Bool,
    default: true,
    help: 'solve the Schur complement of the constraints (else factor the whole KKT matrix)',
  });

  protected response!: BaseResponse;
  private readonly dense = new DenseSchur();
  private readonly kktMatrix = new KKTMatrix();
  private kktVersion = -1;
  /** (n) and (m + n) work vectors, grown as needed. */
  private t = new Float64Array(0);
  private w = new Float64Array(0);

  /** The response used when the node holds none. */
  protected abstract defaultResponse(): BaseResponse;
  /** Factors the dense n × n Schur complement S (row-major, may be overwritten). */
  protected abstract factorDense(S: Float64Array, n: number): void;
  /** out = S⁻¹·b with the last dense factorization. */
  protected abstract solveDense(out: Float64Array, b: Float64Array, n: number): void;
  /** Factors the full KKT matrix K (m dynamics rows first); `analyze` when its pattern changed. */
  protected abstract factorSparse(K: CsrMatrix, m: number, analyze: boolean): void;
  /** out = K⁻¹·b with the last sparse factorization. */
  protected abstract solveSparse(out: Float64Array, b: Float64Array): void;

  override init(): void {
    this.response = findResponse(this.context) ?? this.defaultResponse();
  }

  factor(sys: KKTSystem): void {
    this.warnProjectors(sys);
    if (this.schur.value) {
      this.response.factor(sys.H, !sys.isPIdentity);
      if (sys.n > 0) {
        this.dense.compute(sys, (out, rhs) => this.response.solve(out, rhs));
        this.wrapErrors(() => this.factorDense(this.dense.S, sys.n));
      }
      return;
    }
    const K = this.kktMatrix.assemble(sys);
    const analyze = this.kktVersion !== this.kktMatrix.patternVersion;
    this.kktVersion = this.kktMatrix.patternVersion;
    this.wrapErrors(() => this.factorSparse(K, sys.m, analyze));
  }

  /**
   * A direct solve treats every constraint row as bilateral (as the Compliant plugin's direct
   * solvers do): a unilateral or friction projector is not applied, which the scene is told once.
   */
  private warnProjectors(sys: KKTSystem): void {
    if (this.warnedProjectors) return;
    const c = sys.constraints.find((x) => x.projector !== undefined);
    if (!c) return;
    this.warnedProjectors = true;
    this.warn(
      `${c.projector!.describe()} (on ${c.state.describe()}) is not applied: ${this.className} solves every constraint row as bilateral (an equality); use SequentialSolver for unilateral and friction constraints`,
    );
  }
  private warnedProjectors = false;

  solve(x: Float64Array, sys: KKTSystem, rhs: Float64Array): void {
    const t0 = performance.now();
    const { m, n } = sys;
    if (this.t.length < n) this.t = new Float64Array(n);
    if (this.w.length < m + n) this.w = new Float64Array(m + n);
    if (this.schur.value) {
      const v = x.subarray(0, m);
      // v₀ = R⁻¹·P·c
      this.response.solve(v, rhs.subarray(0, m));
      if (n > 0) {
        // S·λ = b − J·v₀,  v = v₀ + W·λ
        const t = this.t.subarray(0, n);
        const JP = sys.JP;
        for (let i = 0; i < n; i++) {
          let s = rhs[m + i];
          for (let q = JP.rowPtr[i]; q < JP.rowPtr[i + 1]; q++) s -= JP.values[q] * v[JP.colInd[q]];
          t[i] = s;
        }
        const lambda = x.subarray(m, m + n);
        this.solveDense(lambda, t, n);
        this.dense.addW(v, lambda);
      }
    } else {
      const b = this.w.subarray(0, m + n);
      symmetricRhs(b, rhs, m, n);
      this.solveSparse(x.subarray(0, m + n), b);
    }
    this.lastStats = { iterations: 1, residual: 0, timeMs: performance.now() - t0 };
  }

  private wrapErrors(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      if (e instanceof Error && !(e instanceof SofaError)) {
        throw this.error(`${e.message} (redundant or conflicting hard constraints? give them a small compliance)`);
      }
      throw e;
    }
  }
}
