/**
 * Projection of a symmetric 3×3 matrix onto the negative semi-definite cone: with A = V·diag(λ)·Vᵀ,
 * A⁻ = V·diag(min(λ, 0))·Vᵀ (the nearest NSD matrix in Frobenius norm). The eigen decomposition
 * uses cyclic Jacobi rotations, which converge quadratically for 3×3 matrices.
 * `a` is row-major (9) and symmetric; it is overwritten with A⁻. `scratch` holds 9 numbers.
 */
export function nsdProject3(a: Float64Array, scratch: Float64Array = new Float64Array(9)): void {
  const v = scratch;
  v.fill(0);
  v[0] = v[4] = v[8] = 1;
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = a[1]! * a[1]! + a[2]! * a[2]! + a[5]! * a[5]!;
    const diag = a[0]! * a[0]! + a[4]! * a[4]! + a[8]! * a[8]!;
    if (off <= 1e-32 * diag || off === 0) break;
    for (let p = 0; p < 2; p++) {
      for (let q = p + 1; q < 3; q++) {
        const apq = a[3 * p + q]!;
        if (apq === 0) continue;
        const app = a[3 * p + p]!;
        const aqq = a[3 * q + q]!;
        // Rotation angle zeroing a_pq: tan(2θ) = 2·a_pq / (a_qq − a_pp).
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        // A ← Gᵀ·A·G on rows/columns p and q; V ← V·G.
        for (let k = 0; k < 3; k++) {
          const akp = a[3 * k + p]!;
          const akq = a[3 * k + q]!;
          a[3 * k + p] = c * akp - s * akq;
          a[3 * k + q] = s * akp + c * akq;
        }
        for (let k = 0; k < 3; k++) {
          const apk = a[3 * p + k]!;
          const aqk = a[3 * q + k]!;
          a[3 * p + k] = c * apk - s * aqk;
          a[3 * q + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 3; k++) {
          const vkp = v[3 * k + p]!;
          const vkq = v[3 * k + q]!;
          v[3 * k + p] = c * vkp - s * vkq;
          v[3 * k + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const l0 = Math.min(a[0]!, 0);
  const l1 = Math.min(a[4]!, 0);
  const l2 = Math.min(a[8]!, 0);
  // A⁻ = Σ_k λ_k⁻ · v_k v_kᵀ (v_k = column k of V)
  for (let i = 0; i < 3; i++) {
    for (let j = i; j < 3; j++) {
      const x = l0 * v[3 * i]! * v[3 * j]! + l1 * v[3 * i + 1]! * v[3 * j + 1]! + l2 * v[3 * i + 2]! * v[3 * j + 2]!;
      a[3 * i + j] = x;
      a[3 * j + i] = x;
    }
  }
}
