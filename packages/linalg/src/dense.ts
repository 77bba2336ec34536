/**
 * Small dense kernels. 3x3 matrices are row-major (9): m[3*i + j] = M(i, j); 3-vectors have 3
 * entries. The 3x3 products compute everything into locals first, so `out` may alias inputs.
 * General n x n matrices are row-major Float64Array (n*n) and factorised in place.
 */

/** det(M) */
export function mat3Det(m: ArrayLike<number>): number {
  return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
}

/**
 * out[oo..oo+9) = M⁻¹ via the adjugate: M⁻¹ = adj(M)·(1/det(M)). Returns det(M); out untouched if
 * det = 0. The other two inversions below give other bits (division instead of the reciprocal,
 * another determinant): each is kept for the callers whose results are pinned by it.
 */
export function mat3Invert(out: Float64Array, m: ArrayLike<number>, oo = 0): number {
  const a0 = m[0],
    a1 = m[1],
    a2 = m[2];
  const a3 = m[3],
    a4 = m[4],
    a5 = m[5];
  const a6 = m[6],
    a7 = m[7],
    a8 = m[8];
  // Cofactors of the first row (also the first column of the adjugate).
  const c0 = a4 * a8 - a5 * a7;
  const c1 = a5 * a6 - a3 * a8;
  const c2 = a3 * a7 - a4 * a6;
  const det = a0 * c0 + a1 * c1 + a2 * c2;
  if (det === 0) return 0;
  const s = 1 / det;
  out[oo] = c0 * s;
  out[oo + 1] = (a2 * a7 - a1 * a8) * s;
  out[oo + 2] = (a1 * a5 - a2 * a4) * s;
  out[oo + 3] = c1 * s;
  out[oo + 4] = (a0 * a8 - a2 * a6) * s;
  out[oo + 5] = (a2 * a3 - a0 * a5) * s;
  out[oo + 6] = c2 * s;
  out[oo + 7] = (a1 * a6 - a0 * a7) * s;
  out[oo + 8] = (a0 * a4 - a1 * a3) * s;
  return det;
}

/**
 * out = M⁻¹ with every cofactor divided by det(M) (the determinant expanded along the first row),
 * no test of det: a singular M gives non-finite entries. UncoupledConstraintCorrection's rigid inertia was
 * inverted so, and keeps these bits. Returns det(M).
 */
export function mat3InvertDivided(out: Float64Array, m: ArrayLike<number>): number {
  const a = m[0],
    b = m[1],
    c = m[2],
    d = m[3],
    e = m[4],
    f = m[5],
    g = m[6],
    h = m[7],
    i = m[8];
  // The negated cofactors are written −(x − y), not y − x: the same value but for the sign of a zero.
  const A = e * i - f * h,
    B = -(d * i - f * g),
    C = d * h - e * g;
  const det = a * A + b * B + c * C;
  out[0] = A / det;
  out[1] = -(b * i - c * h) / det;
  out[2] = (b * f - c * e) / det;
  out[3] = B / det;
  out[4] = (a * i - c * g) / det;
  out[5] = -(a * f - c * d) / det;
  out[6] = C / det;
  out[7] = -(a * h - b * g) / det;
  out[8] = (a * e - b * d) / det;
  return det;
}

/**
 * out = M⁻¹ for M given by its entries, as SOFA's invertMatrix computes it: the determinant by the
 * rule of Sarrus (six products), every cofactor divided by it. Returns false, out untouched, when
 * |det| ≤ 1e-300. The bilateral constraint resolutions of three rows use it.
 */
export function mat3InvertSarrus(
  out: Float64Array,
  a00: number,
  a01: number,
  a02: number,
  a10: number,
  a11: number,
  a12: number,
  a20: number,
  a21: number,
  a22: number,
): boolean {
  const det = a00 * a11 * a22 + a10 * a21 * a02 + a20 * a01 * a12 - a00 * a21 * a12 - a10 * a01 * a22 - a20 * a11 * a02;
  if (Math.abs(det) <= 1e-300) return false;
  out[0] = (a11 * a22 - a21 * a12) / det;
  out[3] = (a12 * a20 - a22 * a10) / det;
  out[6] = (a10 * a21 - a20 * a11) / det;
  out[1] = (a21 * a02 - a01 * a22) / det;
  out[4] = (a22 * a00 - a02 * a20) / det;
  out[7] = (a20 * a01 - a00 * a21) / det;
  out[2] = (a01 * a12 - a11 * a02) / det;
  out[5] = (a02 * a10 - a12 * a00) / det;
  out[8] = (a00 * a11 - a10 * a01) / det;
  return true;
}

/** out = Mᵀ */
export function mat3Transpose(out: Float64Array, m: ArrayLike<number>): Float64Array {
  const m1 = m[1],
    m2 = m[2],
    m5 = m[5];
  out[0] = m[0];
  out[4] = m[4];
  out[8] = m[8];
  out[1] = m[3];
  out[3] = m1;
  out[2] = m[6];
  out[6] = m2;
  out[5] = m[7];
  out[7] = m5;
  return out;
}

/** out = A B */
export function mat3Multiply(out: Float64Array, a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  return mat3Product(out, a, b, false, false);
}

/** out = Aᵀ B */
export function mat3TransposeMultiply(out: Float64Array, a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  return mat3Product(out, a, b, true, false);
}

/** out = A Bᵀ */
export function mat3MultiplyTranspose(out: Float64Array, a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  return mat3Product(out, a, b, false, true);
}

// out(i,j) = Σ_k op(A)(i,k) op(B)(k,j), op = identity or transpose.
function mat3Product(out: Float64Array, a: ArrayLike<number>, b: ArrayLike<number>, ta: boolean, tb: boolean): Float64Array {
  let r0 = 0,
    r1 = 0,
    r2 = 0,
    r3 = 0,
    r4 = 0,
    r5 = 0,
    r6 = 0,
    r7 = 0,
    r8 = 0;
  for (let k = 0; k < 3; k++) {
    const a0 = ta ? a[3 * k] : a[k];
    const a1 = ta ? a[3 * k + 1] : a[3 + k];
    const a2 = ta ? a[3 * k + 2] : a[6 + k];
    const b0 = tb ? b[k] : b[3 * k];
    const b1 = tb ? b[3 + k] : b[3 * k + 1];
    const b2 = tb ? b[6 + k] : b[3 * k + 2];
    r0 += a0 * b0;
    r1 += a0 * b1;
    r2 += a0 * b2;
    r3 += a1 * b0;
    r4 += a1 * b1;
    r5 += a1 * b2;
    r6 += a2 * b0;
    r7 += a2 * b1;
    r8 += a2 * b2;
  }
  out[0] = r0;
  out[1] = r1;
  out[2] = r2;
  out[3] = r3;
  out[4] = r4;
  out[5] = r5;
  out[6] = r6;
  out[7] = r7;
  out[8] = r8;
  return out;
}

/** out (3) = M v */
export function mat3MulVec(out: Float64Array, m: ArrayLike<number>, v: ArrayLike<number>): Float64Array {
  const x = v[0],
    y = v[1],
    z = v[2];
  out[0] = m[0] * x + m[1] * y + m[2] * z;
  out[1] = m[3] * x + m[4] * y + m[5] * z;
  out[2] = m[6] * x + m[7] * y + m[8] * z;
  return out;
}

/** out (3) = Mᵀ v */
export function mat3TransposeMulVec(out: Float64Array, m: ArrayLike<number>, v: ArrayLike<number>): Float64Array {
  const x = v[0],
    y = v[1],
    z = v[2];
  out[0] = m[0] * x + m[3] * y + m[6] * z;
  out[1] = m[1] * x + m[4] * y + m[7] * z;
  out[2] = m[2] * x + m[5] * y + m[8] * z;
  return out;
}

/** out (rows) = A x with A row-major (rows*cols), x (cols). out must not alias x. */
export function denseMatVec(out: Float64Array, A: ArrayLike<number>, rows: number, cols: number, x: ArrayLike<number>): Float64Array {
  for (let i = 0; i < rows; i++) {
    let s = 0;
    const o = i * cols;
    for (let j = 0; j < cols; j++) s += A[o + j] * x[j];
    out[i] = s;
  }
  return out;
}

/**
 * In-place Cholesky A = L Lᵀ of a symmetric positive definite n x n row-major matrix. Only the
 * lower triangle is read; on return it holds L (the strict upper triangle is left as is).
 * Column by column: L(j,j) = √(A(j,j) − Σ_k<j L(j,k)²), L(i,j) = (A(i,j) − Σ_k<j L(i,k) L(j,k)) / L(j,j).
 * Throws if a pivot is not positive (matrix not SPD).
 */
export function denseCholeskyFactor(a: Float64Array, n: number): Float64Array {
  for (let j = 0; j < n; j++) {
    const rj = j * n;
    let d = a[rj + j];
    for (let k = 0; k < j; k++) d -= a[rj + k] * a[rj + k];
    if (!(d > 0)) throw new Error(`denseCholeskyFactor: non-positive pivot ${d} at column ${j} (matrix not SPD)`);
    const ljj = Math.sqrt(d);
    a[rj + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      const ri = i * n;
      let s = a[ri + j];
      for (let k = 0; k < j; k++) s -= a[ri + k] * a[rj + k];
      a[ri + j] = s / ljj;
    }
  }
  return a;
}

/** out (n) = A⁻¹ b given L from {@link denseCholeskyFactor}: L y = b, then Lᵀ x = y. out may alias b. */
export function denseCholeskySolve(out: Float64Array, L: Float64Array, n: number, b: ArrayLike<number>): Float64Array {
  for (let i = 0; i < n; i++) {
    let s = b[i];
    const ri = i * n;
    for (let k = 0; k < i; k++) s -= L[ri + k] * out[k];
    out[i] = s / L[ri + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = out[i];
    for (let k = i + 1; k < n; k++) s -= L[k * n + i] * out[k];
    out[i] = s / L[i * n + i];
  }
  return out;
}

/**
 * In-place LDLᵀ (no pivoting) of a symmetric n x n row-major matrix; only the lower triangle is
 * read. On return the strict lower triangle holds the unit-lower L and the diagonal holds D.
 *   D(j) = A(j,j) − Σ_k<j L(j,k)² D(k);  L(i,j) = (A(i,j) − Σ_k<j L(i,k) L(j,k) D(k)) / D(j).
 * Works for indefinite matrices whose leading minors are nonzero; throws on a zero pivot.
 */
export function denseLdltFactor(a: Float64Array, n: number): Float64Array {
  for (let j = 0; j < n; j++) {
    const rj = j * n;
    let d = a[rj + j];
    for (let k = 0; k < j; k++) d -= a[rj + k] * a[rj + k] * a[k * n + k];
    if (d === 0 || !Number.isFinite(d)) throw new Error(`denseLdltFactor: zero pivot at column ${j}`);
    a[rj + j] = d;
    for (let i = j + 1; i < n; i++) {
      const ri = i * n;
      let s = a[ri + j];
      for (let k = 0; k < j; k++) s -= a[ri + k] * a[rj + k] * a[k * n + k];
      a[ri + j] = s / d;
    }
  }
  return a;
}

/** out (n) = A⁻¹ b from {@link denseLdltFactor}'s output: L y = b, z = D⁻¹ y, Lᵀ x = z. out may alias b. */
export function denseLdltSolve(out: Float64Array, LD: Float64Array, n: number, b: ArrayLike<number>): Float64Array {
  for (let i = 0; i < n; i++) {
    let s = b[i];
    const ri = i * n;
    for (let k = 0; k < i; k++) s -= LD[ri + k] * out[k];
    out[i] = s;
  }
  for (let i = 0; i < n; i++) out[i] /= LD[i * n + i];
  for (let i = n - 1; i >= 0; i--) {
    let s = out[i];
    for (let k = i + 1; k < n; k++) s -= LD[k * n + i] * out[k];
    out[i] = s;
  }
  return out;
}

const eigenScratch = new Float64Array(9);

/**
 * Eigen-decomposition of a symmetric 3x3 matrix a by cyclic Jacobi rotations:
 * a = v·diag(w)·vᵀ, v's columns the eigenvectors (row-major, v[3·r + c]), eigenvalues unsorted.
 * Quadratic convergence for 3x3; no allocation.
 */
export function symmetricEigen3(v: Float64Array, w: Float64Array, a: ArrayLike<number>): void {
  const s = eigenScratch;
  for (let k = 0; k < 9; k++) s[k] = a[k];
  v.fill(0);
  v[0] = v[4] = v[8] = 1;
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = Math.abs(s[1]) + Math.abs(s[2]) + Math.abs(s[5]);
    const scale = Math.abs(s[0]) + Math.abs(s[4]) + Math.abs(s[8]);
    if (off <= 1e-300 || off <= 1e-17 * scale) break;
    for (let p = 0; p < 2; p++) {
      for (let q = p + 1; q < 3; q++) {
        const apq = s[3 * p + q];
        if (apq === 0) continue;
        const app = s[3 * p + p];
        const aqq = s[3 * q + q];
        // rotation angle zeroing s[p][q]
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const sn = t * c;
        for (let k = 0; k < 3; k++) {
          const skp = s[3 * k + p];
          const skq = s[3 * k + q];
          s[3 * k + p] = c * skp - sn * skq;
          s[3 * k + q] = sn * skp + c * skq;
        }
        for (let k = 0; k < 3; k++) {
          const spk = s[3 * p + k];
          const sqk = s[3 * q + k];
          s[3 * p + k] = c * spk - sn * sqk;
          s[3 * q + k] = sn * spk + c * sqk;
        }
        for (let k = 0; k < 3; k++) {
          const vkp = v[3 * k + p];
          const vkq = v[3 * k + q];
          v[3 * k + p] = c * vkp - sn * vkq;
          v[3 * k + q] = sn * vkp + c * vkq;
        }
      }
    }
  }
  w[0] = s[0];
  w[1] = s[4];
  w[2] = s[8];
}
