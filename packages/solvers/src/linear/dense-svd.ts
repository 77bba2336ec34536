/**
 * Dense singular value decompositions A = U·Σ·Vᵀ (n × n) for SVDLinearSolver, and the
 * pseudo-inverse solve x = V·Σ⁺·Uᵀ·b (σ_j ≤ threshold count as 0).
 *
 * - symmetric A: the eigendecomposition A = E·Λ·Eᵀ is an SVD with σ_j = |λ_j|, V_j = e_j and
 *   U_j = sign(λ_j)·e_j, so A⁺ = Σ_{|λ_j| > thr} e_j·e_jᵀ/λ_j. Householder reduction to a
 *   tridiagonal T = Qᵀ·A·Q (4/3·n³ flops), then implicit QL iterations with shifts on T, T = Z·Λ·Zᵀ
 *   (O(n²)). E = Q·Z is kept factored: the Householder vectors of Q and the Givens rotations whose
 *   product is Z, so a solve costs O(n²) and the decomposition no more than the reduction.
 * - otherwise: one-sided Jacobi (Hestenes) on the columns of A, ≈ 3n³ flops per sweep, U and V
 *   stored as rows (`ut`, `vt`, n·n each; rows keep the inner loops contiguous).
 */

/** A decomposition of size n and its scratch (reused while n does not change). */
export class DenseSvdWorkspace {
  /** Which decomposition the workspace holds. */
  kind: 'symmetric' | 'jacobi' = 'symmetric';
  /** (n) σ_j ≥ 0; (n) λ_j (symmetric: σ_j = |λ_j|). */
  readonly sigma: Float64Array;
  readonly d: Float64Array;
  /** (n) subdiagonal of T; (n) Householder β_k; (n), (n) vector scratch. */
  readonly e: Float64Array;
  readonly beta: Float64Array;
  readonly p: Float64Array;
  readonly y: Float64Array;
  /** Symmetric: (n·n) row k holds the Householder vector v_k in entries k+1..n−1. */
  readonly house: Float64Array;
  /** Symmetric: the Givens rotations (c, s, first index i) of Z, in the order applied; count. */
  rotC = new Float64Array(0);
  rotS = new Float64Array(0);
  rotI = new Int32Array(0);
  rotations = 0;
  /** Jacobi: (n·n) rows U_j and V_j, allocated on first use. */
  ut = new Float64Array(0);
  vt = new Float64Array(0);
  constructor(readonly n: number) {
    this.sigma = new Float64Array(n);
    this.d = new Float64Array(n);
    this.e = new Float64Array(n);
    this.beta = new Float64Array(n);
    this.p = new Float64Array(n);
    this.y = new Float64Array(n);
    this.house = new Float64Array(n * n);
  }

  /** Records the rotation (c, s) of indices (i, i+1), growing the arrays by doubling. */
  pushRotation(c: number, s: number, i: number): void {
    if (this.rotations === this.rotC.length) {
      const size = Math.max(1024, 2 * this.rotC.length);
      const c2 = new Float64Array(size),
        s2 = new Float64Array(size),
        i2 = new Int32Array(size);
      c2.set(this.rotC);
      s2.set(this.rotS);
      i2.set(this.rotI);
      this.rotC = c2;
      this.rotS = s2;
      this.rotI = i2;
    }
    this.rotC[this.rotations] = c;
    this.rotS[this.rotations] = s;
    this.rotI[this.rotations++] = i;
  }

  /** out (n) = V·Σ⁺·Uᵀ·rhs, σ_j ≤ thr counting as 0. */
  solve(out: Float64Array, rhs: Float64Array, thr: number): void {
    if (this.kind === 'symmetric') this.solveSymmetric(out, rhs, thr);
    else this.solveJacobi(out, rhs, thr);
  }

  /** x = Q·Z·Λ⁺·Zᵀ·Qᵀ·b */
  private solveSymmetric(out: Float64Array, rhs: Float64Array, thr: number): void {
    const n = this.n,
      { house: h, beta, y, d, rotC, rotS, rotI } = this;
    y.set(rhs.subarray(0, n));
    // y = Qᵀ·b = H_{n−3}···H₀·b
    for (let k = 0; k < n - 2; k++) applyHouseholder(y, h, k, n, beta[k]);
    // y = Zᵀ·y = G_Rᵀ···G₁ᵀ·y
    for (let r = 0; r < this.rotations; r++) {
      const i = rotI[r],
        c = rotC[r],
        s = rotS[r];
      const a = y[i],
        b = y[i + 1];
      y[i] = c * a - s * b;
      y[i + 1] = s * a + c * b;
    }
    // y = Λ⁺·y
    for (let j = 0; j < n; j++) y[j] = Math.abs(d[j]) > thr ? y[j] / d[j] : 0;
    // y = Z·y = G₁···G_R·y
    for (let r = this.rotations - 1; r >= 0; r--) {
      const i = rotI[r],
        c = rotC[r],
        s = rotS[r];
      const a = y[i],
        b = y[i + 1];
      y[i] = c * a + s * b;
      y[i + 1] = c * b - s * a;
    }
    // x = Q·y = H₀···H_{n−3}·y
    for (let k = n - 3; k >= 0; k--) applyHouseholder(y, h, k, n, beta[k]);
    out.set(y);
  }

  /** x = Σ_j [σ_j > thr] V_j·(U_j·b)/σ_j */
  private solveJacobi(out: Float64Array, rhs: Float64Array, thr: number): void {
    const n = this.n,
      { ut: u, vt: v, sigma, y: t } = this;
    for (let j = 0; j < n; j++) {
      if (!(sigma[j] > thr)) {
        t[j] = 0;
        continue;
      }
      let s = 0;
      const rj = j * n;
      for (let i = 0; i < n; i++) s += u[rj + i] * rhs[i];
      t[j] = s / sigma[j];
    }
    out.fill(0, 0, n);
    for (let j = 0; j < n; j++) {
      const tj = t[j];
      if (tj === 0) continue;
      const rj = j * n;
      for (let i = 0; i < n; i++) out[i] += v[rj + i] * tj;
    }
  }
}

/** y[k+1:] −= β·v·(vᵀ·y[k+1:]), v in row k of h (entries k+1..n−1). */
function applyHouseholder(y: Float64Array, h: Float64Array, k: number, n: number, beta: number): void {
  if (beta === 0) return;
  const rk = k * n;
  let s = 0;
  for (let i = k + 1; i < n; i++) s += h[rk + i] * y[i];
  s *= beta;
  for (let i = k + 1; i < n; i++) y[i] = y[i] - s * h[rk + i];
}

/** True when the dense row-major a (n·n) equals its transpose within tol·max|a|. */
export function isSymmetric(a: Float64Array, n: number, tol: number): boolean {
  let scale = 0;
  for (let k = 0; k < n * n; k++) scale = Math.max(scale, Math.abs(a[k]));
  const lim = tol * scale;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (Math.abs(a[i * n + j] - a[j * n + i]) > lim) return false;
  return true;
}

/**
 * SVD of the symmetric a (n·n row-major, destroyed) through its eigendecomposition, kept factored
 * in w. Returns false when a QL iteration does not converge in 60 iterations for one eigenvalue.
 */
export function symmetricSvd(w: DenseSvdWorkspace, a: Float64Array): boolean {
  const n = w.n,
    { d, e, p, beta, house: h } = w;
  w.kind = 'symmetric';
  w.rotations = 0;
  // Householder, column k: v with (I − β·v·vᵀ)·a[k+1:, k] = α·e₁, then A₂₂ ← H·A₂₂·H on the lower
  // triangle (rows i > k, columns k < j ≤ i)
  for (let k = 0; k < n - 2; k++) {
    const rk = k * n;
    d[k] = a[rk + k];
    // x = a[k+1:, k] (lower triangle, column k)
    let norm2 = 0;
    for (let i = k + 1; i < n; i++) {
      const x = a[i * n + k];
      h[rk + i] = x;
      norm2 += x * x;
    }
    const x0 = h[rk + k + 1];
    if (norm2 - x0 * x0 <= 1e-300 * Math.max(1, norm2)) {
      // already tridiagonal in this column
      e[k] = x0;
      beta[k] = 0;
      continue;
    }
    const norm = Math.sqrt(norm2);
    const alpha = x0 > 0 ? -norm : norm;
    e[k] = alpha;
    // v = x − α·e₁, β = 2/(vᵀv)
    h[rk + k + 1] = x0 - alpha;
    const b = 2 / (norm2 - x0 * x0 + (x0 - alpha) * (x0 - alpha));
    beta[k] = b;
    // p = β·A₂₂·v from the lower triangle: row i contributes a_ij·v_j (j ≤ i) and a_ij·v_i to p_j (j < i)
    for (let i = k + 1; i < n; i++) p[i] = 0;
    for (let i = k + 1; i < n; i++) {
      const ri = i * n,
        vi = h[rk + i];
      let s = a[ri + i] * vi;
      for (let j = k + 1; j < i; j++) {
        const aij = a[ri + j];
        s += aij * h[rk + j];
        p[j] += aij * vi;
      }
      p[i] += s;
    }
    // w = p − (β/2)(pᵀv)·v with p scaled by β;  A₂₂ −= v·wᵀ + w·vᵀ
    let pv = 0;
    for (let i = k + 1; i < n; i++) {
      p[i] = b * p[i];
      pv += p[i] * h[rk + i];
    }
    const half = 0.5 * b * pv;
    for (let i = k + 1; i < n; i++) p[i] = p[i] - half * h[rk + i];
    for (let i = k + 1; i < n; i++) {
      const ri = i * n,
        vi = h[rk + i],
        wi = p[i];
      for (let j = k + 1; j <= i; j++) a[ri + j] = a[ri + j] - vi * p[j] - wi * h[rk + j];
    }
  }
  if (n >= 2) {
    d[n - 2] = a[(n - 2) * n + n - 2];
    e[n - 2] = a[(n - 1) * n + n - 2];
  }
  if (n >= 1) d[n - 1] = a[n * n - 1];
  if (n >= 1) e[n - 1] = 0;
  // implicit QL on (d, e), e[i] coupling i and i+1; each Givens rotation is recorded (Z ← Z·G)
  for (let l = 0; l < n; l++) {
    let iter = 0;
    for (;;) {
      let m = l;
      for (; m < n - 1; m++) {
        const dd = Math.abs(d[m]) + Math.abs(d[m + 1]);
        if (Math.abs(e[m]) <= Number.EPSILON * dd) break;
      }
      if (m === l) break;
      if (++iter > 60) return false;
      // shift: the eigenvalue of the leading 2×2 block closer to d[l]
      let g = (d[l + 1] - d[l]) / (2 * e[l]);
      let r = Math.hypot(g, 1);
      g = d[m] - d[l] + e[l] / (g + (g >= 0 ? r : -r));
      let s = 1,
        c = 1,
        shift = 0;
      let deflated = false;
      for (let i = m - 1; i >= l; i--) {
        const f = s * e[i],
          bb = c * e[i];
        r = Math.hypot(f, g);
        e[i + 1] = r;
        if (r === 0) {
          d[i + 1] = d[i + 1] - shift;
          e[m] = 0;
          deflated = true;
          break;
        }
        s = f / r;
        c = g / r;
        g = d[i + 1] - shift;
        r = (d[i] - g) * s + 2 * c * bb;
        shift = s * r;
        d[i + 1] = g + shift;
        g = c * r - bb;
        w.pushRotation(c, s, i);
      }
      if (deflated) continue;
      d[l] = d[l] - shift;
      e[l] = g;
      e[m] = 0;
    }
  }
  for (let j = 0; j < n; j++) w.sigma[j] = Math.abs(d[j]);
  return true;
}

/**
 * SVD of a general a (n·n row-major) by one-sided Jacobi: the columns of A (rows of `ut`, a copy
 * of Aᵀ) are rotated pairwise until |a_pᵀa_q| ≤ ε·|a_p|·|a_q|, the rotations accumulating V (rows
 * of `vt`); then σ_j = |a_j| and U_j = a_j/σ_j. Returns the number of sweeps (maxSweeps: not converged).
 */
export function jacobiSvd(w: DenseSvdWorkspace, a: Float64Array, maxSweeps: number): number {
  const n = w.n;
  w.kind = 'jacobi';
  if (w.ut.length !== n * n) {
    w.ut = new Float64Array(n * n);
    w.vt = new Float64Array(n * n);
  }
  const { ut: at, vt: v, sigma } = w;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) at[j * n + i] = a[i * n + j];
  v.fill(0);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  const eps = 1e-15;
  let sweep = 0;
  for (; sweep < maxSweeps; sweep++) {
    let rotated = false;
    for (let p = 0; p < n - 1; p++) {
      const rp = p * n;
      for (let q = p + 1; q < n; q++) {
        const rq = q * n;
        let al = 0,
          be = 0,
          ga = 0;
        for (let i = 0; i < n; i++) {
          const x = at[rp + i],
            y = at[rq + i];
          al += x * x;
          be += y * y;
          ga += x * y;
        }
        if (ga === 0 || Math.abs(ga) <= eps * Math.sqrt(al * be)) continue;
        rotated = true;
        // the rotation making columns p and q orthogonal
        const zeta = (be - al) / (2 * ga);
        const t = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t),
          s = c * t;
        for (let i = 0; i < n; i++) {
          const x = at[rp + i],
            y = at[rq + i];
          at[rp + i] = c * x - s * y;
          at[rq + i] = s * x + c * y;
          const vx = v[rp + i],
            vy = v[rq + i];
          v[rp + i] = c * vx - s * vy;
          v[rq + i] = s * vx + c * vy;
        }
      }
    }
    if (!rotated) break;
  }
  // vt rows hold V's columns: V_j = row j (the rotations acted on rows p, q of vt = columns of V)
  for (let j = 0; j < n; j++) {
    const rj = j * n;
    let s = 0;
    for (let i = 0; i < n; i++) s += at[rj + i] * at[rj + i];
    s = Math.sqrt(s);
    sigma[j] = s;
    if (s > 0) for (let i = 0; i < n; i++) at[rj + i] = at[rj + i] / s;
  }
  return sweep;
}
