/**
 * Spectral radius max |eig(A)| of a symmetric n×n matrix (row-major): Householder reduction of a
 * working copy to a tridiagonal T (same eigenvalues, ~n³ flops), then the largest and smallest
 * eigenvalues of T by bisection on Sturm counts (the number of eigenvalues below x is the number of
 * negative pivots of T − x·I). `scratch` (length ≥ n² + 3n) holds the copy and the vectors, so
 * nothing is allocated here. Only the lower triangle of A is read (the caller takes the symmetric
 * part of a non-symmetric A).
 */
export function symmetricSpectralRadius(A: ArrayLike<number>, n: number, scratch: Float64Array): number {
  if (n === 0) return 0;
  const a = scratch;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      a[i * n + j] = A[i * n + j];
      a[j * n + i] = A[i * n + j];
    }
  }
  const diag = scratch.subarray(n * n, n * n + n);
  const sub = scratch.subarray(n * n + n, n * n + 2 * n);
  const p = scratch.subarray(n * n + 2 * n, n * n + 3 * n);
  for (let k = 0; k < n - 2; k++) {
    // x = column k below the diagonal; H = I − 2·v·vᵀ maps x to (α, 0, …), α = −sign(x₀)·‖x‖
    let norm2 = 0;
    for (let i = k + 1; i < n; i++) norm2 += a[i * n + k] * a[i * n + k];
    diag[k] = a[k * n + k];
    if (norm2 === 0) {
      sub[k] = 0;
      continue;
    }
    const x0 = a[(k + 1) * n + k];
    const alpha = x0 > 0 ? -Math.sqrt(norm2) : Math.sqrt(norm2);
    sub[k] = alpha;
    // v (stored in column k below the diagonal) = (x − α·e₁) / ‖x − α·e₁‖
    a[(k + 1) * n + k] = x0 - alpha;
    const vNorm = Math.sqrt(norm2 - x0 * x0 + (x0 - alpha) * (x0 - alpha));
    for (let i = k + 1; i < n; i++) a[i * n + k] /= vNorm;
    // trailing block B ← H·B·H = B − 2·v·qᵀ − 2·q·vᵀ, p = B·v, q = p − (vᵀp)·v
    let K = 0;
    for (let i = k + 1; i < n; i++) {
      let s = 0;
      for (let j = k + 1; j < n; j++) s += a[i * n + j] * a[j * n + k];
      p[i] = s;
      K += a[i * n + k] * s;
    }
    for (let i = k + 1; i < n; i++) p[i] -= K * a[i * n + k];
    for (let i = k + 1; i < n; i++) {
      const vi = a[i * n + k],
        qi = p[i];
      for (let j = k + 1; j < n; j++) a[i * n + j] -= 2 * (vi * p[j] + qi * a[j * n + k]);
    }
  }
  if (n >= 2) {
    diag[n - 2] = a[(n - 2) * n + n - 2];
    sub[n - 2] = a[(n - 1) * n + n - 2];
  }
  diag[n - 1] = a[(n - 1) * n + n - 1];
  // Gershgorin interval of T
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const r = (i > 0 ? Math.abs(sub[i - 1]) : 0) + (i < n - 1 ? Math.abs(sub[i]) : 0);
    lo = Math.min(lo, diag[i] - r);
    hi = Math.max(hi, diag[i] + r);
  }
  const below = (x: number): number => {
    let count = 0;
    let q = diag[0] - x;
    if (q < 0) count++;
    for (let i = 1; i < n; i++) {
      const e = sub[i - 1];
      q = diag[i] - x - (e * e) / (q !== 0 ? q : 1e-300);
      if (q < 0) count++;
    }
    return count;
  };
  const bisect = (want: (x: number) => boolean): number => {
    // smallest x in [lo, hi] with want(x) (want monotone: false then true)
    let l = lo,
      h = hi;
    for (let it = 0; it < 200 && h - l > 1e-15 * Math.max(Math.abs(l), Math.abs(h), 1e-300); it++) {
      const m = 0.5 * (l + h);
      if (want(m)) h = m;
      else l = m;
    }
    return 0.5 * (l + h);
  };
  const largest = bisect((x) => below(x) === n);
  const smallest = bisect((x) => below(x) >= 1);
  return Math.max(Math.abs(largest), Math.abs(smallest));
}

/** Largest |A_ij − A_ji| relative to the largest |A_ij| (0 for a symmetric matrix). */
export function asymmetry(A: ArrayLike<number>, n: number): number {
  let maxAbs = 0,
    maxDiff = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      maxAbs = Math.max(maxAbs, Math.abs(A[i * n + j]));
      if (j > i) maxDiff = Math.max(maxDiff, Math.abs(A[i * n + j] - A[j * n + i]));
    }
  }
  return maxAbs > 0 ? maxDiff / maxAbs : 0;
}
