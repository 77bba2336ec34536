import { BaseResponse, isResponse, type KKTSystem, type Node, type SparseMatrixLike } from '@sofa-ts/core';
import { FixedPatternAssembler, amdOrdering, type CsrMatrix } from '@sofa-ts/linalg';

/** The response component of a node (searched in the node only, as the Compliant solvers do). */
export function findResponse(node: Node): BaseResponse | undefined {
  return node.objects.find(isResponse);
}

/** out (rows) = A·x for a CSR matrix. */
export function spmvInto(out: Float64Array, A: SparseMatrixLike, x: Float64Array, xOffset = 0): void {
  const { rowPtr, colInd, values } = A;
  for (let r = 0; r < A.rows; r++) {
    let s = 0;
    for (let q = rowPtr[r]; q < rowPtr[r + 1]; q++) s += values[q] * x[xOffset + colInd[q]];
    out[r] = s;
  }
}

/** out (cols) += alpha·Aᵀ·x. */
export function spmvTransposeAddInto(out: Float64Array, A: SparseMatrixLike, x: Float64Array, alpha: number, xOffset = 0): void {
  const { rowPtr, colInd, values } = A;
  for (let r = 0; r < A.rows; r++) {
    const xr = alpha * x[xOffset + r];
    if (xr === 0) continue;
    for (let q = rowPtr[r]; q < rowPtr[r + 1]; q++) out[colInd[q]] += values[q] * xr;
  }
}

/**
 * The Schur complement of a KKT system on the constraint rows, formed densely:
 *   W = R⁻¹·(J·P)ᵀ   (m × n, column i = the response to row i of J·P)
 *   S = (J·P)·W + C  (n × n)
 * R is the response of H (a BaseResponse or a direct factorization). Buffers grow when the
 * sizes do and are reused otherwise; S is kept apart from its factorization.
 */
export class DenseSchur {
  m = 0;
  n = 0;
  /** (n × m) W stored by columns of W: W[i·m + k] = (R⁻¹ (J·P)ᵀ)_{k,i}. */
  W = new Float64Array(0);
  /** (n × n) row-major S. */
  S = new Float64Array(0);
  private col = new Float64Array(0);

  /** Forms W and S for the system with the response `solve(out, rhs)` of H. */
  compute(sys: KKTSystem, solve: (out: Float64Array, rhs: Float64Array) => void): void {
    const { m, n } = sys;
    this.m = m;
    this.n = n;
    if (this.W.length < m * n) this.W = new Float64Array(m * n);
    if (this.S.length < n * n) this.S = new Float64Array(n * n);
    if (this.col.length < m) this.col = new Float64Array(m);
    const JP = sys.JP;
    const col = this.col.subarray(0, m);
    for (let i = 0; i < n; i++) {
      col.fill(0);
      for (let q = JP.rowPtr[i]; q < JP.rowPtr[i + 1]; q++) col[JP.colInd[q]] = JP.values[q];
      solve(this.W.subarray(i * m, (i + 1) * m), col);
    }
    const S = this.S,
      W = this.W;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        let s = 0;
        const wj = j * m;
        for (let q = JP.rowPtr[i]; q < JP.rowPtr[i + 1]; q++) s += JP.values[q] * W[wj + JP.colInd[q]];
        S[i * n + j] = s;
      }
    }
    const C = sys.C;
    for (let i = 0; i < n; i++) for (let q = C.rowPtr[i]; q < C.rowPtr[i + 1]; q++) S[i * n + C.colInd[q]] += C.values[q];
  }

  /** out (m) += W·lambda. */
  addW(out: Float64Array, lambda: Float64Array, lambdaOffset = 0): void {
    const { m, n, W } = this;
    for (let i = 0; i < n; i++) {
      const l = lambda[lambdaOffset + i];
      if (l === 0) continue;
      const wi = i * m;
      for (let k = 0; k < m; k++) out[k] += W[wi + k] * l;
    }
  }
}

/**
 * The full KKT matrix in symmetric form, N = m + n:
 *   K = [ H     −(J·P)ᵀ ]      K·[v; λ] = [P·c; −b]
 *       [ −J·P   −C     ]
 * assembled with a fixed pattern (rebuilt when the system's patterns change).
 */
export class KKTMatrix {
  private asm: FixedPatternAssembler | undefined;
  private version = -1;
  /** Bumped when the pattern of `matrix` changed. */
  patternVersion = 0;

  assemble(sys: KKTSystem, damping = 0): CsrMatrix {
    const N = sys.m + sys.n;
    if (!this.asm || this.asm.rows !== N || this.version !== sys.patternVersion) {
      this.asm = new FixedPatternAssembler(N, N, { withDiagonal: true });
      this.version = sys.patternVersion;
    }
    const asm = this.asm;
    asm.beginNumeric();
    this.emit(asm, sys, damping);
    if (!asm.endNumeric()) {
      asm.beginSymbolic();
      this.emit(asm, sys, damping);
      asm.endSymbolic();
      this.patternVersion++;
    }
    return asm.matrix!;
  }

  private emit(asm: FixedPatternAssembler, sys: KKTSystem, damping: number): void {
    const { m, n, H, JP, C } = sys;
    for (let r = 0; r < m; r++) for (let q = H.rowPtr[r]; q < H.rowPtr[r + 1]; q++) asm.add(r, H.colInd[q], H.values[q]);
    for (let i = 0; i < n; i++) {
      for (let q = JP.rowPtr[i]; q < JP.rowPtr[i + 1]; q++) {
        const k = JP.colInd[q],
          v = JP.values[q];
        asm.add(m + i, k, -v);
        asm.add(k, m + i, -v);
      }
      for (let q = C.rowPtr[i]; q < C.rowPtr[i + 1]; q++) asm.add(m + i, m + C.colInd[q], -C.values[q]);
      asm.add(m + i, m + i, -damping);
    }
  }
}

/** rhs' = [P·c; −b], the right-hand side of the symmetric KKT form. */
export function symmetricRhs(out: Float64Array, rhs: Float64Array, m: number, n: number): void {
  for (let i = 0; i < m; i++) out[i] = rhs[i];
  for (let i = 0; i < n; i++) out[m + i] = -rhs[m + i];
}

/**
 * Elimination order of a KKT matrix (m dynamics rows first) for an LDLᵀ without pivoting: minimum
 * degree on the H block, then the constraint rows, so that the zero block of hard constraints is
 * only reached once H's pivots have filled it with −J·H⁻¹·Jᵀ.
 */
export function kktLdltOrdering(K: CsrMatrix, m: number): Int32Array {
  const hPtr = new Int32Array(m + 1);
  const hInd: number[] = [];
  for (let r = 0; r < m; r++) {
    for (let q = K.rowPtr[r]; q < K.rowPtr[r + 1]; q++) if (K.colInd[q] < m) hInd.push(K.colInd[q]);
    hPtr[r + 1] = hInd.length;
  }
  const perm = new Int32Array(K.rows);
  perm.set(amdOrdering(m, hPtr, Int32Array.from(hInd)));
  for (let i = m; i < K.rows; i++) perm[i] = i;
  return perm;
}

/** True when the diagonal of K's constraint block (rows ≥ m, holding −C) is strictly negative. */
export function constraintBlockDefinite(K: CsrMatrix, m: number): boolean {
  for (let r = m; r < K.rows; r++) {
    let d = 0;
    for (let q = K.rowPtr[r]; q < K.rowPtr[r + 1]; q++) if (K.colInd[q] === r) d = K.values[q];
    if (!(d < 0)) return false;
  }
  return true;
}
