/**
 * The penalty law of SOFA's EllipsoidForceField and InteractionEllipsoidForceField, in the
 * ellipsoid's frame (N ≤ 3 dimensions). With p the point relative to the centre, r the radii,
 *   g = p ⊙ r⁻²  (the gradient of ½·Σ p_j²/r_j²),   s = √(Σ p_j²/r_j²),   v = s − 1,
 * (u read at u[uo..uo+N)). A point with (s² − 1)·k < 0 (inside for k > 0, outside for k < 0) is pushed along g:
 *   f = −|k|·v·g/|g| − c·|v|·u       (u the point's velocity, c the damping)
 * and the stiffness part has the derivative
 *   ∂f_i/∂p_j = −|k|·( g_i·g_j/(s·|g|) + v·δ_ij/(r_i²·|g|) − v·g_i·g_j/(r_j²·|g|³) ).
 * SOFA's third term is −|k|·v·g_i·g_j/(r_j²·|g|²): sofa-ts uses the exact derivative.
 */
export function ellipsoidContact(
  N: number,
  p: ArrayLike<number>,
  invR2: ArrayLike<number>,
  k: number,
  c: number,
  u: ArrayLike<number>,
  uo: number,
  force: Float64Array,
  m: Float64Array,
): boolean {
  let s2 = 0;
  for (let j = 0; j < N; j++) s2 += p[j] * p[j] * invR2[j];
  if (!((s2 - 1) * k < 0)) return false;
  const s = Math.sqrt(s2),
    v = s - 1,
    ka = Math.abs(k);
  let g2 = 0;
  for (let j = 0; j < N; j++) g2 += (p[j] * invR2[j]) ** 2;
  const gl = Math.sqrt(g2);
  const fi = (-ka * v) / gl,
    fd = c * Math.abs(v);
  for (let i = 0; i < N; i++) force[i] = p[i] * invR2[i] * fi - u[uo + i] * fd;
  const f1 = -ka / (s * gl),
    f3 = (ka * v) / (g2 * gl),
    f2 = (-ka * v) / gl;
  for (let i = 0; i < N; i++) {
    const gi = p[i] * invR2[i];
    for (let j = 0; j < N; j++) m[i * N + j] = gi * p[j] * invR2[j] * (f1 + f3 * invR2[j]);
    m[i * N + i] += f2 * invR2[i];
  }
  return true;
}
