/**
 * Orthogonal factorisation of an active-set method's working set, kept up to date as constraint
 * normals join and leave instead of being refactorised:
 *
 *   N = [n_0 … n_{q−1}]  (n × q, the normals in working-set order)  =  J · [R; 0]
 *
 * with J (n × n) orthogonal and R (q × q) upper triangular. The first q columns of J span the
 * normals; the last n − q columns, Z, are an orthonormal basis of the directions p with
 * N ᵀp = 0 (moves that keep every working constraint at its value). Appending a normal costs
 * n − q − 1 Givens rotations of J's trailing columns, O(n (n − q)); removing one restores R's
 * triangle with Givens rotations of rows, O(n q). (Gill, Golub, Murray & Saunders 1974; the same
 * J, R pair is what Goldfarb & Idnani's dual method updates when its Hessian is the identity.)
 *
 * Optionally ({@link track}) it also keeps M = JᵀQJ for a symmetric Q: every rotation of J's columns
 * (a, b) is applied to M's rows and columns (a, b), O(n) each, so that the reduced Hessian ZᵀQZ of an
 * active-set method is M's trailing block at any time without an O(n²(n − q)) product.
 *
 * Storage: J is row-major n × n (J(i, c) = J[i·n + c]); R is row-major in an n × n buffer of which
 * the leading q × q upper triangle is meaningful; M is row-major n × n, full. `d` (n) is the scratch
 * that receives Jᵀ·a.
 */
export class WorkingSetQR {
  /** Number of variables. */
  readonly n: number;
  /** Number of normals in the working set (columns of R). */
  q = 0;
  /** (n × n) row-major orthogonal factor. */
  readonly J: Float64Array;
  /** (n × n buffer, q × q upper triangle used) row-major triangular factor. */
  readonly R: Float64Array;
  /** (n) Jᵀ·a for the last normal passed to projectRow/projectUnit; {@link append} consumes it. */
  readonly d: Float64Array;
  /** ‖d[q..n)‖² after projectRow/projectUnit. */
  tail2 = 0.5;
  /** (n × n) row-major JᵀQJ while {@link tracking}. */
  readonly M: Float64Array;
  /** True when M is kept up to date. */
  tracking = false;
  private readonly qj: Float64Array; // (n × n) scratch Q·J

  constructor(n: number) {
    this.n = n;
    this.J = new Float64Array(n * n);
    this.R = new Float64Array(n * n);
    this.d = new Float64Array(n);
    this.M = new Float64Array(n * n);
    this.qj = new Float64Array(n * n);
    this.reset();
  }

  /** Empty working set: J = I, q = 0; M no longer tracked. */
  reset(): void {
    const { n, J } = this;
    J.fill(0);
    for (let i = 0; i < n; i++) J[i * n + i] = 1;
    this.q = 0;
    this.tracking = false;
  }

  /** M = JᵀQJ (Q symmetric n × n row-major), kept up to date by later appends and removals. O(n³) once. */
  track(Q: ArrayLike<number>): void {
    const { n, J, M, qj } = this;
    // qj = Q J
    qj.fill(0);
    for (let i = 0; i < n; i++) {
      const oi = i * n;
      for (let j = 0; j < n; j++) {
        const v = Q[oi + j];
        if (v === 0) continue;
        const oj = j * n;
        for (let c = 0; c < n; c++) qj[oi + c] += v * J[oj + c];
      }
    }
    // M = Jᵀ qj, upper triangle then mirrored
    for (let a = 0; a < n; a++) for (let b = a; b < n; b++) M[a * n + b] = 0;
    for (let i = 0; i < n; i++) {
      const oi = i * n;
      for (let a = 0; a < n; a++) {
        const ja = J[oi + a];
        if (ja === 0) continue;
        const oa = a * n;
        for (let b = a; b < n; b++) M[oa + b] += ja * qj[oi + b];
      }
    }
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) M[b * n + a] = M[a * n + b];
    this.tracking = true;
  }

  /** J(:, a) ← c·J(:, a) + s·J(:, b), J(:, b) ← c·J(:, b) − s·J(:, a); M ← GᵀMG on rows and columns (a, b). */
  private rotate(a: number, b: number, cs: number, sn: number): void {
    const { n, J } = this;
    for (let k = 0; k < n; k++) {
      const o = k * n;
      const u = J[o + a],
        v = J[o + b];
      J[o + a] = cs * u + sn * v;
      J[o + b] = cs * v - sn * u;
    }
    if (!this.tracking) return;
    const M = this.M;
    const oa = a * n,
      ob = b * n;
    for (let t = 0; t < n; t++) {
      const u = M[oa + t],
        v = M[ob + t];
      M[oa + t] = cs * u + sn * v;
      M[ob + t] = cs * v - sn * u;
    }
    for (let t = 0; t < n; t++) {
      const o = t * n;
      const u = M[o + a],
        v = M[o + b];
      M[o + a] = cs * u + sn * v;
      M[o + b] = cs * v - sn * u;
    }
  }

  /** d = Jᵀ (sign·a), a = row `row` of the row-major matrix A (n columns); tail2 = ‖d[q..n)‖² (the part of a outside the span of the working normals). */
  projectRow(A: ArrayLike<number>, row: number, sign: number): void {
    const { n, J, d } = this;
    d.fill(0);
    const o = row * n;
    for (let i = 0; i < n; i++) {
      const ai = sign * A[o + i];
      if (ai === 0) continue;
      const ji = i * n;
      for (let c = 0; c < n; c++) d[c] += J[ji + c] * ai;
    }
    this.tailNorm2();
  }

  /** d = Jᵀ (sign·e_j): row j of J; tail2 = ‖d[q..n)‖². */
  projectUnit(j: number, sign: number): void {
    const { n, J, d } = this;
    const o = j * n;
    for (let c = 0; c < n; c++) d[c] = sign * J[o + c];
    this.tailNorm2();
  }

  // (A field rather than a return value: a double returned from a call that is not inlined is boxed.)
  private tailNorm2(): void {
    const { n, q, d } = this;
    let s = 0;
    for (let c = q; c < n; c++) s += d[c] * d[c];
    this.tail2 = s;
  }

  /** out (n) = Z Zᵀ a = Σ_{c ≥ q} d[c]·J(:, c): the component of the last projected normal orthogonal to the working normals. */
  nullComponent(out: Float64Array): void {
    const { n, q, J, d } = this;
    for (let i = 0; i < n; i++) {
      const ji = i * n;
      let s = 0;
      for (let c = q; c < n; c++) s += J[ji + c] * d[c];
      out[i] = s;
    }
  }

  /**
   * Appends the last projected normal as column q of N: Givens rotations of J's columns (q, i),
   * for each i > q with d[i] ≠ 0, gather d[q..n) into d[q]; then R(:, q) = d[0..q]. Only nonzero
   * entries cost a rotation, so a bound (a unit normal) joining while the trailing part of J is still
   * a permutation costs one rotation, not n − q − 1. The caller has checked that the normal is
   * independent of the working set (tail2 > 0).
   */
  append(): void {
    const { n, R, d } = this;
    const q = this.q;
    for (let i = q + 1; i < n; i++) {
      const b = d[i];
      if (b === 0) continue;
      const a = d[q];
      const r = Math.sqrt(a * a + b * b);
      d[q] = r;
      d[i] = 0;
      this.rotate(q, i, a / r, b / r);
    }
    for (let i = 0; i <= q; i++) R[i * n + q] = d[i];
    this.q = q + 1;
  }

  /**
   * Removes column k of N: R's columns k+1 … q−1 move one left (upper Hessenberg from k on), and
   * Givens rotations of rows (j, j+1), j = k … q−2, zero the subdiagonal again; J's columns
   * (j, j+1) take the same rotations so that N = J [R; 0] still holds.
   */
  remove(k: number): void {
    const { n, R } = this;
    const q = this.q;
    for (let i = 0; i < q; i++) {
      const o = i * n;
      for (let c = k; c < q - 1; c++) R[o + c] = R[o + c + 1];
      R[o + q - 1] = 0;
    }
    for (let j = k; j < q - 1; j++) {
      const oj = j * n,
        oj1 = (j + 1) * n;
      const a = R[oj + j],
        b = R[oj1 + j];
      if (b === 0) continue;
      const r = Math.sqrt(a * a + b * b);
      const cs = a / r,
        sn = b / r;
      R[oj + j] = r;
      R[oj1 + j] = 0;
      for (let c = j + 1; c < q - 1; c++) {
        const u = R[oj + c],
          v = R[oj1 + c];
        R[oj + c] = cs * u + sn * v;
        R[oj1 + c] = cs * v - sn * u;
      }
      this.rotate(j, j + 1, cs, sn);
    }
    this.q = q - 1;
  }

  /** out (q) = R⁻¹ rhs (back substitution). out may alias rhs. */
  solveR(out: Float64Array, rhs: ArrayLike<number>): void {
    const { n, R, q } = this;
    for (let i = q - 1; i >= 0; i--) {
      const o = i * n;
      let s = rhs[i];
      for (let c = i + 1; c < q; c++) s -= R[o + c] * out[c];
      out[i] = s / R[o + i];
    }
  }

  /** out (q) = R⁻ᵀ rhs (forward substitution). out may alias rhs. */
  solveRT(out: Float64Array, rhs: ArrayLike<number>): void {
    const { n, R, q } = this;
    for (let i = 0; i < q; i++) {
      let s = rhs[i];
      for (let c = 0; c < i; c++) s -= R[c * n + i] * out[c];
      out[i] = s / R[i * n + i];
    }
  }

  /** out (n) += J₁ y: adds the combination of J's first q columns with coefficients y (q). */
  addRange(out: Float64Array, y: ArrayLike<number>): void {
    const { n, J, q } = this;
    for (let i = 0; i < n; i++) {
      const o = i * n;
      let s = 0;
      for (let c = 0; c < q; c++) s += J[o + c] * y[c];
      out[i] += s;
    }
  }

  /** out (q) = J₁ᵀ v: the coordinates of v along J's first q columns. */
  rangeCoordinates(out: Float64Array, v: ArrayLike<number>): void {
    const { n, J, q } = this;
    for (let c = 0; c < q; c++) out[c] = 0;
    for (let i = 0; i < n; i++) {
      const vi = v[i];
      if (vi === 0) continue;
      const o = i * n;
      for (let c = 0; c < q; c++) out[c] += J[o + c] * vi;
    }
  }
}
