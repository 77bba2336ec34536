/**
 * Spectral radius max |eig(A)| of a symmetric n×n matrix (row-major), by cyclic Jacobi rotations:
 * each rotation zeroes one off-diagonal pair (p, q) of a working copy; the sweeps stop when the
 * off-diagonal part is below 1e-15 of the matrix's Frobenius norm, and the eigenvalues are then
 * the diagonal. `scratch` (length ≥ n²) receives the copy, so nothing is allocated here.
 * Only the upper triangle of A is read (a non-symmetric A is taken as its symmetric part by the caller).
 */
export function symmetricSpectralRadius(A: ArrayLike<number>, n: number, scratch: Float64Array): number {
  if (n === 0) return 0;
  const a = scratch;
  let frob = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      const v = A[i * n + j]!;
      a[i * n + j] = v;
      a[j * n + i] = v;
      frob += (i === j ? 1 : 2) * v * v;
    }
  }
  const threshold = 1e-30 * frob;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += 2 * a[p * n + q]! * a[p * n + q]!;
    if (off <= threshold) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        if (apq === 0) continue;
        // rotation angle: tan(2θ) = 2·a_pq / (a_qq − a_pp), t = tan θ (the smaller root)
        const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          // columns p, q ← rotated
          const akp = a[k * n + p]!, akq = a[k * n + q]!;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          // rows p, q ← rotated
          const apk = a[p * n + k]!, aqk = a[q * n + k]!;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
      }
    }
  }
  let radius = 0;
  for (let i = 0; i < n; i++) radius = Math.max(radius, Math.abs(a[i * n + i]!));
  return radius;
}

/** Largest |A_ij − A_ji| relative to the largest |A_ij| (0 for a symmetric matrix). */
export function asymmetry(A: ArrayLike<number>, n: number): number {
  let maxAbs = 0, maxDiff = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      maxAbs = Math.max(maxAbs, Math.abs(A[i * n + j]!));
      if (j > i) maxDiff = Math.max(maxDiff, Math.abs(A[i * n + j]! - A[j * n + i]!));
    }
  }
  return maxAbs > 0 ? maxDiff / maxAbs : 0;
}
