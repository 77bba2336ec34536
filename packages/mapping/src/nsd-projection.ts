import { symmetricEigen3 } from '@sofa-ts/linalg';

/**
 * Projection of a symmetric 3×3 matrix onto the negative semi-definite cone: with A = V·diag(λ)·Vᵀ,
 * A⁻ = V·diag(min(λ, 0))·Vᵀ (the nearest NSD matrix in Frobenius norm).
 * `a` is row-major (9) and symmetric; it is overwritten with A⁻. `v` (9) and `w` (3) are scratch
 * for the eigenvectors and eigenvalues.
 */
export function nsdProject3(a: Float64Array, v: Float64Array = new Float64Array(9), w: Float64Array = new Float64Array(3)): void {
  symmetricEigen3(v, w, a);
  const l0 = Math.min(w[0], 0);
  const l1 = Math.min(w[1], 0);
  const l2 = Math.min(w[2], 0);
  // A⁻ = Σ_k λ_k⁻ · v_k v_kᵀ (v_k = column k of V)
  for (let i = 0; i < 3; i++) {
    for (let j = i; j < 3; j++) {
      const x = l0 * v[3 * i] * v[3 * j] + l1 * v[3 * i + 1] * v[3 * j + 1] + l2 * v[3 * i + 2] * v[3 * j + 2];
      a[3 * i + j] = x;
      a[3 * j + i] = x;
    }
  }
}
