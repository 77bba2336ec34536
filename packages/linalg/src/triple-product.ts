import { type CsrMatrix, createCsr, csrNnz, csrTranspose } from './csr.js';
import { spgemmNumeric, spgemmSymbolic } from './spgemm.js';

/**
 * Plan for C = Jᵀ H J (J: m x n, H: m x m, C: n x n), the Compliant-style projection of a
 * constraint-space matrix H onto the independent DOFs through the Jacobian J.
 *
 * The constructor does all symbolic work once: the pattern of Jᵀ (with a slot map from J), of
 * HJ = H J and of C = Jᵀ (HJ). `compute(out)` then refills numerically with no allocation:
 *   Jᵀ.values <- J.values (via the slot map);  HJ <- H J;  out <- Jᵀ HJ.
 * `compute` reads the *current* values of J and H (the ones given to the constructor, or
 * matrices with exactly the same patterns passed explicitly). Pattern changes need a new plan.
 */
export class TripleProductPlan {
  readonly n: number;
  readonly m: number;
  /** Pattern of the result (n x n); shared with matrices from `createOutput`. */
  readonly pattern: CsrMatrix;
  private readonly J: CsrMatrix;
  private readonly H: CsrMatrix;
  private readonly Jt: CsrMatrix; // n x m
  private readonly jtSlot: Int32Array; // (nnz J): J.values[k] goes to Jt.values[jtSlot[k]]
  private readonly HJ: CsrMatrix; // m x n
  private readonly acc: Float64Array; // (n) zeroed scratch row

  constructor(J: CsrMatrix, H: CsrMatrix) {
    if (H.rows !== J.rows || H.cols !== J.rows) {
      throw new Error(`TripleProductPlan: H must be ${J.rows}x${J.rows}, got ${H.rows}x${H.cols}`);
    }
    this.J = J;
    this.H = H;
    this.m = J.rows;
    this.n = J.cols;
    this.jtSlot = new Int32Array(csrNnz(J));
    this.Jt = csrTranspose(J, this.jtSlot);
    this.HJ = spgemmSymbolic(H, J);
    this.pattern = spgemmSymbolic(this.Jt, this.HJ);
    this.acc = new Float64Array(this.n);
  }

  /** A new result matrix on the plan's pattern (row/column arrays shared, fresh values). */
  createOutput(): CsrMatrix {
    const P = this.pattern;
    return createCsr(P.rows, P.cols, P.rowPtr, P.colInd, new Float64Array(csrNnz(P)));
  }

  /**
   * out.values = (Jᵀ H J). `out` must carry the plan's pattern (from `createOutput`, or a copy of
   * `pattern`). No allocation.
   */
  compute(out: CsrMatrix, J: CsrMatrix = this.J, H: CsrMatrix = this.H): CsrMatrix {
    const slot = this.jtSlot;
    const nnzJ = slot.length;
    if (csrNnz(J) !== nnzJ || csrNnz(H) !== csrNnz(this.H) || csrNnz(out) !== csrNnz(this.pattern)) {
      throw new Error('TripleProductPlan.compute: pattern differs from the planned one');
    }
    const jv = J.values;
    const jtv = this.Jt.values;
    for (let k = 0; k < nnzJ; k++) jtv[slot[k]] = jv[k];
    spgemmNumeric(this.HJ, H, J, this.acc);
    spgemmNumeric(out, this.Jt, this.HJ, this.acc);
    return out;
  }
}

/** Jᵀ H J as a new matrix (plan + one compute). Init-time helper. */
export function transposeProductTriple(J: CsrMatrix, H: CsrMatrix): CsrMatrix {
  const plan = new TripleProductPlan(J, H);
  return plan.compute(plan.createOutput());
}
