import { type CsrMatrix, csrNnz } from './csr.js';
import { invertPermutation } from './ordering/permutation.js';

/**
 * Sparse QR factorization by Givens rotations, row by row (George & Heath, "Solution of sparse
 * linear least squares problems using Givens rotations", Linear Algebra Appl. 34, 1980):
 *
 *   A(:, q) = Q·R,   R upper triangular (n x n), Q orthogonal (kept as the list of rotations)
 *
 * Rows of A are merged into R one at a time, in the order of their leading column. A row whose
 * leading column j meets an empty row j of R becomes that row; otherwise a rotation of the pair
 * (R_j, row) zeroes the row's entry j, R_j takes the union of both patterns and the row carries on
 * with its next leading column. The sequence of rotations depends only on the pattern, so
 * `analyze` simulates it once (patterns as sets) and fixes the final pattern of every row of R;
 * `factorize` replays the rotations on those fixed slots (entries not yet reached are zeros), and
 * records (c, s) so that `solve` can apply Qᵀ to a right-hand side.
 *
 * `solve` gives the least-squares solution for m >= n (the exact one for square nonsingular A).
 * A rank-deficient R (|R_jj| <= threshold, as Eigen's SparseQR default 20·(m+n)·max‖A(:,j)‖·ε)
 * gets z_j = 0 for the dependent columns (a basic solution, not the minimum-norm one).
 */
export class SparseQR {
  rows = 0;
  cols = 0;
  /** (cols) column ordering, new → old. */
  perm: Int32Array = new Int32Array(0);
  /** (cols+1) row pointers of R (final patterns, sorted; the first slot of a nonempty row is its diagonal). */
  rPtr: Int32Array = new Int32Array(1);
  rCol: Int32Array = new Int32Array(0);
  rVal: Float64Array = new Float64Array(0);
  analyzed = false;
  factorized = false;
  /** Pivot threshold used by the last factorization. */
  threshold = 0;

  private nnzA = 0;
  // Rows of A in processing order, columns in the new numbering (sorted), with their source slots.
  private order: Int32Array = new Int32Array(0); // (rows) processing order → row of A
  private aPtr: Int32Array = new Int32Array(1);
  private aCol: Int32Array = new Int32Array(0);
  private aSrc: Int32Array = new Int32Array(0);
  // Per processed row: rotation targets seqTarget[seqPtr[k] .. seqPtr[k+1]) and final placement.
  private seqPtr: Int32Array = new Int32Array(1);
  private seqTarget: Int32Array = new Int32Array(0);
  private seqC: Float64Array = new Float64Array(0);
  private seqS: Float64Array = new Float64Array(0);
  private place: Int32Array = new Int32Array(0); // row of R taken, or −1 when the row vanished
  private w: Float64Array = new Float64Array(0); // (cols) dense work row
  private y: Float64Array = new Float64Array(0); // (cols) Qᵀb restricted to R's rows
  private colNorm: Float64Array = new Float64Array(0);

  /** Symbolic analysis of the rows x cols CSR matrix A (rows >= cols) with column ordering q. */
  analyze(A: CsrMatrix, q?: ArrayLike<number>): this {
    const m = A.rows;
    const n = A.cols;
    if (m < n) throw new Error(`SparseQR.analyze: needs rows >= cols, got ${m}x${n}`);
    this.rows = m;
    this.cols = n;
    this.nnzA = csrNnz(A);
    this.analyzed = false;
    this.factorized = false;
    const perm = new Int32Array(n);
    if (q) {
      if (q.length !== n) throw new Error(`SparseQR.analyze: ordering has ${q.length} entries, expected ${n}`);
      for (let k = 0; k < n; k++) perm[k] = q[k];
    } else for (let k = 0; k < n; k++) perm[k] = k;
    this.perm = perm;
    const qinv = invertPermutation(perm);

    // Rows of A with renumbered, sorted columns; processing order by leading column.
    const rowCols: Int32Array[] = [];
    const rowSrc: Int32Array[] = [];
    const lead = new Int32Array(m);
    for (let r = 0; r < m; r++) {
      const s = A.rowPtr[r];
      const e = A.rowPtr[r + 1];
      const idx = Array.from({ length: e - s }, (_, t) => s + t).sort((a, b) => qinv[A.colInd[a]] - qinv[A.colInd[b]]);
      rowCols.push(Int32Array.from(idx, (k) => qinv[A.colInd[k]]));
      rowSrc.push(Int32Array.from(idx));
      lead[r] = idx.length > 0 ? rowCols[r][0] : n;
    }
    const order = Int32Array.from({ length: m }, (_, i) => i).sort((a, b) => lead[a] - lead[b] || a - b);
    this.order = order;
    const aPtr = new Int32Array(m + 1);
    for (let k = 0; k < m; k++) aPtr[k + 1] = aPtr[k] + rowCols[order[k]].length;
    const aCol = new Int32Array(aPtr[m]);
    const aSrc = new Int32Array(aPtr[m]);
    for (let k = 0; k < m; k++) {
      aCol.set(rowCols[order[k]], aPtr[k]);
      aSrc.set(rowSrc[order[k]], aPtr[k]);
    }
    this.aPtr = aPtr;
    this.aCol = aCol;
    this.aSrc = aSrc;

    // Simulate the merges on patterns.
    const R: number[][] = Array.from({ length: n }, () => []);
    const seqPtr = new Int32Array(m + 1);
    const targets: number[] = [];
    const place = new Int32Array(m).fill(-1);
    for (let k = 0; k < m; k++) {
      let w: number[] = Array.from(aCol.subarray(aPtr[k], aPtr[k + 1]));
      while (w.length > 0) {
        const j = w[0];
        if (R[j].length === 0) {
          R[j] = w;
          place[k] = j;
          break;
        }
        targets.push(j);
        const u = mergeSorted(R[j], w);
        R[j] = u;
        w = u.slice(1); // u starts with j
      }
      seqPtr[k + 1] = targets.length;
    }
    this.seqPtr = seqPtr;
    this.seqTarget = Int32Array.from(targets);
    this.seqC = new Float64Array(targets.length);
    this.seqS = new Float64Array(targets.length);
    this.place = place;
    const rPtr = new Int32Array(n + 1);
    for (let j = 0; j < n; j++) rPtr[j + 1] = rPtr[j] + R[j].length;
    const rCol = new Int32Array(rPtr[n]);
    for (let j = 0; j < n; j++) rCol.set(R[j], rPtr[j]);
    this.rPtr = rPtr;
    this.rCol = rCol;
    this.rVal = new Float64Array(rPtr[n]);
    this.w = new Float64Array(n);
    this.y = new Float64Array(n);
    this.colNorm = new Float64Array(n);
    this.analyzed = true;
    return this;
  }

  /** Numeric factorization of A (same pattern as analysed). No allocation. */
  factorize(A: CsrMatrix): this {
    if (!this.analyzed) throw new Error('SparseQR.factorize: analyze first');
    if (A.rows !== this.rows || A.cols !== this.cols || csrNnz(A) !== this.nnzA)
      throw new Error('SparseQR.factorize: matrix pattern differs from the analysed one (re-run analyze)');
    const m = this.rows;
    const n = this.cols;
    const av = A.values;
    const { aPtr, aCol, aSrc, seqPtr, seqTarget, seqC, seqS, place, rPtr, rCol, rVal, w, colNorm } = this;
    rVal.fill(0);
    colNorm.fill(0);
    for (let k = 0; k < m; k++) {
      for (let p = aPtr[k]; p < aPtr[k + 1]; p++) {
        const v = av[aSrc[p]];
        w[aCol[p]] = v;
        colNorm[aCol[p]] += v * v;
      }
      for (let t = seqPtr[k]; t < seqPtr[k + 1]; t++) {
        const j = seqTarget[t];
        const d = rPtr[j];
        const r = rVal[d];
        const a = w[j];
        let c = 1;
        let s = 0;
        if (a !== 0) {
          if (r === 0) {
            c = 0;
            s = 1;
          } else {
            const h = Math.hypot(r, a);
            c = r / h;
            s = a / h;
          }
        }
        seqC[t] = c;
        seqS[t] = s;
        // [R_j; w] ← [c s; −s c]·[R_j; w] on the slots of R_j (w's pattern is inside them).
        for (let p = d; p < rPtr[j + 1]; p++) {
          const col = rCol[p];
          const rv = rVal[p];
          const wv = w[col];
          rVal[p] = c * rv + s * wv;
          w[col] = c * wv - s * rv;
        }
        w[j] = 0;
      }
      const j = place[k];
      if (j >= 0) {
        for (let p = rPtr[j]; p < rPtr[j + 1]; p++) {
          rVal[p] = w[rCol[p]];
          w[rCol[p]] = 0;
        }
      }
    }
    let maxNorm = 0;
    for (let j = 0; j < n; j++) maxNorm = Math.max(maxNorm, Math.sqrt(colNorm[j]));
    this.threshold = 20 * (m + n) * maxNorm * Number.EPSILON;
    this.factorized = true;
    return this;
  }

  /** Number of diagonal entries of R above the threshold (the numerical rank). */
  get rank(): number {
    let r = 0;
    for (let j = 0; j < this.cols; j++) {
      if (this.rPtr[j + 1] > this.rPtr[j] && Math.abs(this.rVal[this.rPtr[j]]) > this.threshold) r++;
    }
    return r;
  }

  /** out (cols) = argmin ‖A·x − b‖ (b has rows entries). out must not alias b. No allocation. */
  solve(out: Float64Array, b: ArrayLike<number>): Float64Array {
    if (!this.factorized) throw new Error('SparseQR.solve: no valid factorization');
    const m = this.rows;
    const n = this.cols;
    const { order, seqPtr, seqTarget, seqC, seqS, place, rPtr, rCol, rVal, y, perm } = this;
    // y = Qᵀ b, replaying the rotations on the right-hand side.
    y.fill(0);
    for (let k = 0; k < m; k++) {
      let beta = b[order[k]];
      for (let t = seqPtr[k]; t < seqPtr[k + 1]; t++) {
        const j = seqTarget[t];
        const c = seqC[t];
        const s = seqS[t];
        const rho = y[j];
        y[j] = c * rho + s * beta;
        beta = c * beta - s * rho;
      }
      if (place[k] >= 0) y[place[k]] = beta;
    }
    // R z = y, dependent columns set to zero.
    const thr = this.threshold;
    for (let j = n - 1; j >= 0; j--) {
      const d = rPtr[j];
      if (d === rPtr[j + 1] || !(Math.abs(rVal[d]) > thr)) {
        y[j] = 0;
        continue;
      }
      let s = y[j];
      for (let p = d + 1; p < rPtr[j + 1]; p++) s -= rVal[p] * y[rCol[p]];
      y[j] = s / rVal[d];
    }
    for (let j = 0; j < n; j++) out[perm[j]] = y[j];
    return out;
  }
}

// Union of two sorted index lists.
function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) out.push(a[i++]);
    else if (i >= a.length || b[j] < a[i]) out.push(b[j++]);
    else {
      out.push(a[i++]);
      j++;
    }
  }
  return out;
}
