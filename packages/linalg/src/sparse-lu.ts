import { type CsrMatrix, csrNnz } from './csr.js';
import { invertPermutation } from './ordering/permutation.js';

/** Thrown by {@link SparseLU.factorize} when a column has no usable pivot (A is singular). */
export class SingularMatrixError extends Error {
  /** Elimination step (column of the preordered matrix) where no pivot was found. */
  readonly column: number;
  constructor(column: number, what: string) {
    super(`${what}: no nonzero pivot at elimination step ${column}; the matrix is singular`);
    this.name = 'SingularMatrixError';
    this.column = column;
  }
}

/** Options of {@link SparseLU.analyze}. */
export interface SparseLuOptions {
  /**
   * Threshold partial pivoting: the diagonal entry of the preordered matrix is kept as pivot when
   * |a_kk| >= pivotThreshold · max_i |a_ik| over the candidate rows; otherwise the largest entry
   * is taken. 1 is plain partial pivoting, small values keep the fill-reducing preordering.
   * Default 1.
   */
  pivotThreshold?: number;
}

/**
 * Sparse LU factorization with threshold partial pivoting (Gilbert & Peierls' left-looking
 * algorithm, "Sparse partial pivoting in time proportional to arithmetic operations", SIAM J. Sci.
 * Stat. Comput. 9(5), 1988):
 *
 *   B = A(q, q)  (a symmetric fill-reducing preordering q, new → old),   P·B = L·U
 *
 * with L unit lower triangular and U upper triangular, both stored by columns. Column k is found
 * by one sparse triangular solve L·x = B(:,k) restricted to the rows reachable from the nonzeros
 * of B(:,k) in the graph of L (a depth-first search gives them in topological order); the pivot is
 * then chosen among the rows not yet pivotal, U(:,k) takes the pivotal part of x and
 * L(:,k) = x / pivot the rest.
 *
 * - `analyze(A, q)` (init / pattern change; allocates): B in compressed columns with the A-slot of
 *   each entry, workspaces, a first guess of the storage of L and U.
 * - `factorize(A)` (every step): numeric factorization for new values on the same pattern. L and U
 *   grow (doubling) only when the pivot sequence makes them larger than ever before, so a steady
 *   state allocates nothing.
 * - `solve(out, b)` (no allocation): x = A⁻¹ b.
 */
export class SparseLU {
  n = 0;
  /** (n) preordering, new → old. */
  perm: Int32Array = new Int32Array(0);
  /** (n) row pivoting of B: pinv[i] = k when row i of B is the k-th pivot row. */
  pinv: Int32Array = new Int32Array(0);
  /** (n+1) column pointers of L; the first entry of each column is its unit diagonal. */
  Lp: Int32Array = new Int32Array(1);
  /** (cap) row indices of L (pivot numbering after factorize). */
  Li: Int32Array = new Int32Array(0);
  Lx: Float64Array = new Float64Array(0);
  /** (n+1) column pointers of U; the last entry of each column is its diagonal. */
  Up: Int32Array = new Int32Array(1);
  Ui: Int32Array = new Int32Array(0);
  Ux: Float64Array = new Float64Array(0);
  analyzed = false;
  factorized = false;

  private pivotThreshold = 1;
  private nnzA = 0;
  // B = A(q, q) in compressed columns: row index (new numbering) and source slot in A.values.
  private bPtr: Int32Array = new Int32Array(1);
  private bRow: Int32Array = new Int32Array(0);
  private bSrc: Int32Array = new Int32Array(0);
  // Workspaces (n or 2n).
  private x: Float64Array = new Float64Array(0);
  private xi: Int32Array = new Int32Array(0); // (2n) reach (top part) and DFS stack (bottom part)
  private pstack: Int32Array = new Int32Array(0); // (n) DFS position in each column
  private mark: Int32Array = new Int32Array(0); // (n) DFS visit stamp
  private stamp = 0;
  private y: Float64Array = new Float64Array(0); // (n) solve workspace

  /** Entries of L strictly below the diagonal. */
  get nnzL(): number {
    return this.Lp[this.n] - this.n;
  }

  /** Entries of U (diagonal included). */
  get nnzU(): number {
    return this.Up[this.n];
  }

  /** Symbolic part for the square CSR matrix A and preordering q (new → old; identity by default). */
  analyze(A: CsrMatrix, q?: ArrayLike<number>, options: SparseLuOptions = {}): this {
    if (A.rows !== A.cols) throw new Error(`SparseLU.analyze: matrix must be square, got ${A.rows}x${A.cols}`);
    const n = A.rows;
    this.n = n;
    this.nnzA = csrNnz(A);
    this.pivotThreshold = options.pivotThreshold ?? 1;
    this.analyzed = false;
    this.factorized = false;
    const perm = new Int32Array(n);
    if (q) {
      if (q.length !== n) throw new Error(`SparseLU.analyze: ordering has ${q.length} entries, expected ${n}`);
      for (let k = 0; k < n; k++) perm[k] = q[k];
    } else for (let k = 0; k < n; k++) perm[k] = k;
    const qinv = invertPermutation(perm);
    this.perm = perm;

    // B(i, j) = A(q i, q j): entry (r, c) of A lands in column qinv[c], row qinv[r].
    const { rowPtr, colInd } = A;
    const bPtr = new Int32Array(n + 1);
    for (let r = 0; r < n; r++) for (let k = rowPtr[r]; k < rowPtr[r + 1]; k++) bPtr[qinv[colInd[k]] + 1]++;
    for (let j = 0; j < n; j++) bPtr[j + 1] += bPtr[j];
    const nnz = bPtr[n];
    const bRow = new Int32Array(nnz);
    const bSrc = new Int32Array(nnz);
    const next = bPtr.slice(0, n);
    for (let r = 0; r < n; r++) {
      for (let k = rowPtr[r]; k < rowPtr[r + 1]; k++) {
        const p = next[qinv[colInd[k]]]++;
        bRow[p] = qinv[r];
        bSrc[p] = k;
      }
    }
    this.bPtr = bPtr;
    this.bRow = bRow;
    this.bSrc = bSrc;

    this.pinv = new Int32Array(n);
    this.Lp = new Int32Array(n + 1);
    this.Up = new Int32Array(n + 1);
    const guess = 4 * nnz + n;
    if (this.Li.length < guess) {
      this.Li = new Int32Array(guess);
      this.Lx = new Float64Array(guess);
      this.Ui = new Int32Array(guess);
      this.Ux = new Float64Array(guess);
    }
    this.x = new Float64Array(n);
    this.xi = new Int32Array(2 * n);
    this.pstack = new Int32Array(n);
    this.mark = new Int32Array(n);
    this.stamp = 0;
    this.y = new Float64Array(n);
    this.analyzed = true;
    return this;
  }

  /** Numeric factorization of A (same pattern as analysed). Throws SingularMatrixError. */
  factorize(A: CsrMatrix): this {
    if (!this.analyzed) throw new Error('SparseLU.factorize: analyze first');
    if (A.rows !== this.n || csrNnz(A) !== this.nnzA)
      throw new Error('SparseLU.factorize: matrix pattern differs from the analysed one (re-run analyze)');
    this.factorized = false;
    const n = this.n;
    const av = A.values;
    const { bPtr, bRow, bSrc, pinv, Lp, Up, x, xi } = this;
    const tol = this.pivotThreshold;
    pinv.fill(-1);
    let lnz = 0;
    let unz = 0;
    for (let k = 0; k < n; k++) {
      // Room for a whole column in L and U.
      if (lnz + n > this.Li.length) this.growL(2 * this.Li.length + n);
      if (unz + n > this.Ui.length) this.growU(2 * this.Ui.length + n);
      Lp[k] = lnz;
      Up[k] = unz;
      const Li = this.Li;
      const Lx = this.Lx;

      // x = L \ B(:,k) on the reach of B(:,k) (rows in B numbering, xi[top..n) in topological order).
      const top = this.reach(k);
      for (let p = top; p < n; p++) x[xi[p]] = 0;
      for (let p = bPtr[k]; p < bPtr[k + 1]; p++) x[bRow[p]] += av[bSrc[p]];
      for (let p = top; p < n; p++) {
        const j = xi[p];
        const J = pinv[j];
        if (J < 0) continue; // row not pivotal yet: no column of L to apply
        const xj = x[j];
        // Column J of L: first entry is the unit diagonal.
        for (let q = Lp[J] + 1; q < Lp[J + 1]; q++) x[Li[q]] -= Lx[q] * xj;
      }

      // Pivot: largest candidate, or the diagonal row k when it passes the threshold.
      let ipiv = -1;
      let amax = -1;
      for (let p = top; p < n; p++) {
        const i = xi[p];
        if (pinv[i] < 0) {
          const a = Math.abs(x[i]);
          if (a > amax) {
            amax = a;
            ipiv = i;
          }
        } else {
          this.Ui[unz] = pinv[i];
          this.Ux[unz++] = x[i];
        }
      }
      if (ipiv === -1 || !(amax > 0) || !Number.isFinite(amax)) throw new SingularMatrixError(k, 'SparseLU');
      if (pinv[k] < 0 && x[k] !== 0 && Math.abs(x[k]) >= amax * tol) ipiv = k;
      const pivot = x[ipiv];
      this.Ui[unz] = k; // diagonal last
      this.Ux[unz++] = pivot;
      pinv[ipiv] = k;
      Li[lnz] = ipiv; // unit diagonal first
      Lx[lnz++] = 1;
      for (let p = top; p < n; p++) {
        const i = xi[p];
        if (pinv[i] < 0) {
          Li[lnz] = i;
          Lx[lnz++] = x[i] / pivot;
        }
        x[i] = 0;
      }
    }
    Lp[n] = lnz;
    Up[n] = unz;
    // Row indices of L in pivot numbering.
    const Li = this.Li;
    for (let p = 0; p < lnz; p++) Li[p] = pinv[Li[p]];
    this.factorized = true;
    return this;
  }

  /**
   * Rows reachable from the pattern of B(:,k) in the graph of the columns of L computed so far
   * (row i leads to the rows of column pinv[i] of L when i is pivotal). Returns top: the rows are
   * xi[top .. n) in topological order.
   */
  private reach(k: number): number {
    const n = this.n;
    const { bPtr, bRow, pinv, Lp, xi, pstack, mark } = this;
    const Li = this.Li;
    const stamp = ++this.stamp;
    let top = n;
    for (let p = bPtr[k]; p < bPtr[k + 1]; p++) {
      const start = bRow[p];
      if (mark[start] === stamp) continue;
      // Iterative DFS; the stack lives in xi[0 .. head].
      let head = 0;
      xi[0] = start;
      while (head >= 0) {
        const j = xi[head];
        const J = pinv[j];
        if (mark[j] !== stamp) {
          mark[j] = stamp;
          pstack[head] = J < 0 ? 0 : Lp[J] + 1;
        }
        let done = true;
        const end = J < 0 ? 0 : Lp[J + 1];
        for (let q = pstack[head]; q < end; q++) {
          const i = Li[q];
          if (mark[i] === stamp) continue;
          pstack[head] = q + 1;
          xi[++head] = i;
          done = false;
          break;
        }
        if (done) {
          head--;
          xi[--top] = j;
        }
      }
    }
    return top;
  }

  private growL(cap: number): void {
    const Li = new Int32Array(cap);
    Li.set(this.Li);
    const Lx = new Float64Array(cap);
    Lx.set(this.Lx);
    this.Li = Li;
    this.Lx = Lx;
  }

  private growU(cap: number): void {
    const Ui = new Int32Array(cap);
    Ui.set(this.Ui);
    const Ux = new Float64Array(cap);
    Ux.set(this.Ux);
    this.Ui = Ui;
    this.Ux = Ux;
  }

  /** out (n) = A⁻¹ b. out may alias b. No allocation. */
  solve(out: Float64Array, b: ArrayLike<number>): Float64Array {
    if (!this.factorized) throw new Error('SparseLU.solve: no valid factorization');
    const n = this.n;
    const { perm, pinv, Lp, Li, Lx, Up, Ui, Ux, y } = this;
    // y = P·b(q): row i of B is row q[i] of A.
    for (let i = 0; i < n; i++) y[pinv[i]] = b[perm[i]];
    // L z = y (unit diagonal first in each column)
    for (let j = 0; j < n; j++) {
      const yj = y[j];
      if (yj === 0) continue;
      for (let p = Lp[j] + 1; p < Lp[j + 1]; p++) y[Li[p]] -= Lx[p] * yj;
    }
    // U w = z (diagonal last in each column)
    for (let j = n - 1; j >= 0; j--) {
      const d = Up[j + 1] - 1;
      const yj = (y[j] /= Ux[d]);
      if (yj === 0) continue;
      for (let p = Up[j]; p < d; p++) y[Ui[p]] -= Ux[p] * yj;
    }
    // x(q) = w
    for (let j = 0; j < n; j++) out[perm[j]] = y[j];
    return out;
  }
}
