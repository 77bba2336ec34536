import { type CsrMatrix, csrNnz } from './csr.js';
import {
  type LdltAnalyzeOptions,
  type LdltOrdering,
  checkAnalysedPattern,
  columnCounts,
  countNegative,
  eliminationTree,
  fillReducingOrdering,
  squareOrder,
  upperColumns,
} from './ldlt-analysis.js';
import { invertPermutation } from './ordering/permutation.js';

export type { LdltAnalyzeOptions, LdltOrdering, SymmetricStorage } from './ldlt-analysis.js';

/** Thrown by {@link SparseLDLT.factorize} when a pivot vanishes. */
export class ZeroPivotError extends Error {
  /** Column of the permuted matrix (elimination step) where the pivot vanished. */
  readonly column: number;
  /** Original row/column index of that pivot: perm[column]. */
  readonly index: number;
  readonly pivot: number;
  /** `factorization` names the class that threw it in the message. */
  constructor(column: number, index: number, pivot: number, factorization = 'SparseLDLT') {
    super(
      `${factorization}: zero pivot D = ${pivot} at elimination step ${column} (original row/column ${index}); the matrix is singular or needs pivoting`,
    );
    this.name = 'ZeroPivotError';
    this.column = column;
    this.index = index;
    this.pivot = pivot;
  }
}

/**
 * Sparse LDLᵀ factorization P A Pᵀ = L D Lᵀ of a symmetric matrix (L unit lower triangular,
 * D diagonal, possibly with negative entries), without numerical pivoting: it works for SPD
 * matrices and for indefinite ones whose pivots in the chosen order do not vanish.
 *
 * - `analyze(A, ordering)` (init / pattern change; allocates): ordering, permuted upper triangle
 *   C = triu(P A Pᵀ) in compressed columns with the A-slot of each entry, the elimination tree,
 *   the column counts of L, and L's storage.
 * - `factorize(A)` (every step; no allocation): numeric factorization for new values on the same
 *   pattern. It is "up-looking": step k computes row k of L from column k of C by the sparse
 *   triangular solve  L(0:k,0:k) D y = C(0:k,k),  L(k,j) = y_j / D_j,  D_k = C(k,k) − Σ_j L(k,j) y_j.
 *   The nonzeros of y are the nodes reached from the entries of C(:,k) by climbing the
 *   elimination tree, collected in an order where every j comes after its descendants.
 * - `solve(out, b)` (no allocation): x = Pᵀ L⁻ᵀ D⁻¹ L⁻¹ P b.
 * After analyze, the stored pattern/size are checked cheaply (n, nnz) by factorize, not entry by entry.
 */
export class SparseLDLT {
  /** Matrix size. */
  n = 0;
  /** (n) ordering, new → old: row/column perm[k] of A is the k-th of the factor. */
  perm: Int32Array = new Int32Array(0);
  /** (n) inverse ordering, old → new. */
  pinv: Int32Array = new Int32Array(0);
  /** (n) elimination tree of P A Pᵀ: parent[j] (−1 for a root). */
  parent: Int32Array = new Int32Array(0);
  /** (n+1) column pointers of the strict lower part of L. */
  Lp: Int32Array = new Int32Array(1);
  /** (nnzL) row indices of L, column by column (increasing within a column). */
  Li: Int32Array = new Int32Array(0);
  /** (nnzL) values of L. */
  Lx: Float64Array = new Float64Array(0);
  /** (n) the diagonal D. */
  D: Float64Array = new Float64Array(0);
  /** Whether analyze has run / the last factorize succeeded. */
  analyzed = false;
  factorized = false;

  private pivotTolerance = 0;
  private nnzA = 0;
  // Permuted upper triangle C in compressed columns.
  private cPtr: Int32Array = new Int32Array(1); // (n+1)
  private cRow: Int32Array = new Int32Array(0); // (nnzC) row index (new numbering) ≤ column
  private cSrc: Int32Array = new Int32Array(0); // (nnzC) index into A.values
  // Numeric scratch.
  private y: Float64Array = new Float64Array(0); // (n) dense accumulator / solve vector
  private stack: Int32Array = new Int32Array(0); // (n) nonzero pattern of row k of L
  private flag: Int32Array = new Int32Array(0); // (n) flag[j] = k once j is in row k's pattern
  private colFill: Int32Array = new Int32Array(0); // (n) entries written so far in each column of L

  /** Number of stored entries of L strictly below the diagonal (the unit diagonal is implicit). */
  get nnzL(): number {
    return this.Lp[this.n];
  }

  /** Number of negative pivots in D (the number of negative eigenvalues of A, by Sylvester's law). */
  get negativePivots(): number {
    return countNegative(this.D);
  }

  /** Symbolic analysis of the symmetric matrix A (square CSR). Returns this. */
  analyze(A: CsrMatrix, ordering: LdltOrdering = 'amd', options: LdltAnalyzeOptions = {}): this {
    const n = squareOrder(A, 'SparseLDLT');
    this.pivotTolerance = options.pivotTolerance ?? 0;
    this.n = n;
    this.nnzA = csrNnz(A);
    this.analyzed = false;
    this.factorized = false;
    const perm = fillReducingOrdering(A, ordering, 'SparseLDLT');
    this.perm = perm;
    this.pinv = invertPermutation(perm);

    // C = triu(P A Pᵀ) by columns, its elimination tree, and the column counts of L.
    const C = upperColumns(A, options.storage ?? 'full', this.pinv);
    this.cPtr = C.ptr;
    this.cRow = C.row;
    this.cSrc = C.src;
    this.parent = eliminationTree(n, C.ptr, C.row);
    const counts = columnCounts(n, C.ptr, C.row, this.parent);
    const Lp = new Int32Array(n + 1);
    for (let j = 0; j < n; j++) Lp[j + 1] = Lp[j] + counts[j];
    this.Lp = Lp;
    this.Li = new Int32Array(Lp[n]);
    this.Lx = new Float64Array(Lp[n]);
    this.D = new Float64Array(n);
    this.y = new Float64Array(n);
    this.stack = new Int32Array(n);
    this.flag = new Int32Array(n);
    this.colFill = counts; // reused as the per-column fill counter
    this.analyzed = true;
    return this;
  }

  /** Numeric factorization of A (same pattern as analysed). No allocation; throws ZeroPivotError. */
  factorize(A: CsrMatrix): this {
    checkAnalysedPattern(A, this.analyzed, this.n, this.nnzA, 'SparseLDLT');
    this.factorized = false;
    const n = this.n;
    const av = A.values;
    const { cPtr, cRow, cSrc, parent, Lp, Li, Lx, D, y, stack, flag, colFill } = this;
    const tol = this.pivotTolerance;
    flag.fill(-1);
    colFill.fill(0);
    for (let k = 0; k < n; k++) {
      // Scatter C(:,k) into y and collect the pattern of row k of L (top of `stack`, in an order
      // where every node comes before its ancestors).
      let top = n;
      flag[k] = k;
      y[k] = 0;
      for (let q = cPtr[k]; q < cPtr[k + 1]; q++) {
        let j = cRow[q];
        y[j] += av[cSrc[q]];
        let len = 0;
        for (; flag[j] !== k; j = parent[j]) {
          stack[len++] = j; // path from the entry up to an already visited node
          flag[j] = k;
        }
        while (len > 0) stack[--top] = stack[--len];
      }
      // Sparse triangular solve for row k, using the columns j < k already computed.
      let dk = y[k];
      y[k] = 0;
      for (; top < n; top++) {
        const j = stack[top];
        const yj = y[j];
        y[j] = 0;
        const start = Lp[j];
        const end = start + colFill[j];
        for (let p = start; p < end; p++) y[Li[p]] -= Lx[p] * yj;
        const lkj = yj / D[j];
        dk -= lkj * yj;
        Li[end] = k;
        Lx[end] = lkj;
        colFill[j]++;
      }
      if (!(Math.abs(dk) > tol) || !Number.isFinite(dk)) throw new ZeroPivotError(k, this.perm[k], dk);
      D[k] = dk;
    }
    this.factorized = true;
    return this;
  }

  /** out (n) = A⁻¹ b. out may alias b. No allocation. */
  solve(out: Float64Array, b: Float64Array): Float64Array {
    if (!this.factorized) throw new Error('SparseLDLT.solve: no valid factorization');
    const n = this.n;
    const { perm, Lp, Li, Lx, D, y } = this;
    for (let k = 0; k < n; k++) y[k] = b[perm[k]];
    // L z = P b (column-oriented forward substitution)
    for (let j = 0; j < n; j++) {
      const yj = y[j];
      if (yj === 0) continue;
      for (let p = Lp[j]; p < Lp[j + 1]; p++) y[Li[p]] -= Lx[p] * yj;
    }
    // D w = z
    for (let j = 0; j < n; j++) y[j] /= D[j];
    // Lᵀ v = w (row-oriented back substitution on the columns of L)
    for (let j = n - 1; j >= 0; j--) {
      let s = y[j];
      for (let p = Lp[j]; p < Lp[j + 1]; p++) s -= Lx[p] * y[Li[p]];
      y[j] = s;
    }
    for (let k = 0; k < n; k++) out[perm[k]] = y[k];
    return out;
  }
}
