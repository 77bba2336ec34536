/**
 * Coefficients of the variable-step backward differentiation formula of order p = times.length − 1
 * on the time samples t_0 < ... < t_p (t_p the new time): with ℓ_j the Lagrange basis polynomials
 * of the samples, y'(t_p) ≈ Σ_j ℓ_j'(t_p)·y_j. Scaled by h = t_p − t_{p−1} and normalised so that
 * a_p = 1, the formula reads  Σ_j a_j·y_j = h·b·y'(t_p),  with a_j = ℓ_j'(t_p)/ℓ_p'(t_p) and
 * b = 1/(h·ℓ_p'(t_p)). Constant steps give the classical BDF: order 1 a = (−1, 1), b = 1;
 * order 2 a = (1/3, −4/3, 1), b = 2/3.
 * `a` receives p + 1 values; returns b.
 */
export function bdfCoefficients(times: ArrayLike<number>, p: number, a: Float64Array): number {
  const tp = times[p];
  for (let j = 0; j <= p; j++) {
    // ℓ_j'(t_p) = Σ_{i≠j} 1/(t_j − t_i) · Π_{m≠i,j} (t_p − t_m)/(t_j − t_m)
    let d = 0;
    for (let i = 0; i <= p; i++) {
      if (i === j) continue;
      let prod = 1;
      for (let m = 0; m <= p; m++) if (m !== i && m !== j) prod *= (tp - times[m]) / (times[j] - times[m]);
      d += prod / (times[j] - times[i]);
    }
    a[j] = d;
  }
  const h = tp - times[p - 1];
  const ap = h * a[p];
  for (let j = 0; j < p; j++) a[j] = (h * a[j]) / ap;
  a[p] = 1;
  return 1 / ap;
}
