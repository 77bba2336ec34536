/**
 * An elastic link between two consecutive rigid frames i and j of a pseudo-rigid chain, with a 6×6
 * stiffness K = C⁻¹ (C the link's compliance) acting on the relative pose of j seen from i:
 *
 *   u = [d − d₀ ; θ],   d = R_iᵀ(p_j − p_i),   θ = log(R_iᵀR_j · Q₀ᵀ)   (Q₀ = R_iᵀR_j at rest)
 *   E = ½ uᵀ K u
 *
 * (d₀, Q₀ from the rest positions). With SOFA's rigid derivatives (linear velocity, world angular
 * velocity: δR = [ω]×R), δd = R_iᵀ(δp_j − δp_i + r × ω_i), r = p_j − p_i, and δθ = J_l⁻¹(θ)·R_iᵀ(ω_j − ω_i)
 * (J_l the left Jacobian of SO(3)), so that with g = K·u, F = R_i·g_d and τ = R_i·J_l⁻ᵀ(θ)·g_θ
 * the forces f = −∂E/∂q are
 *
 *   f_i = ( F, r × F + τ ),   f_j = ( −F, −τ )
 *
 * (no net force nor moment). Translations and rotations are given as frames of 7 numbers
 * (position, quaternion x y z w), derivatives as 6 (linear, angular).
 */

/** R (row-major 3×3) of the unit quaternion q at x[o + 3 … o + 7). */
export function quatToMatrix(x: ArrayLike<number>, o: number, R: Float64Array): void {
  const qx = x[o + 3],
    qy = x[o + 4],
    qz = x[o + 5],
    qw = x[o + 6];
  R[0] = 1 - 2 * (qy * qy + qz * qz);
  R[1] = 2 * (qx * qy - qz * qw);
  R[2] = 2 * (qx * qz + qy * qw);
  R[3] = 2 * (qx * qy + qz * qw);
  R[4] = 1 - 2 * (qx * qx + qz * qz);
  R[5] = 2 * (qy * qz - qx * qw);
  R[6] = 2 * (qx * qz - qy * qw);
  R[7] = 2 * (qy * qz + qx * qw);
  R[8] = 1 - 2 * (qx * qx + qy * qy);
}

/** out = Aᵀ·B (3×3 row-major). */
function mulTN(A: Float64Array, B: Float64Array, out: Float64Array): void {
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) out[3 * i + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
}

/** out = A·Bᵀ. */
function mulNT(A: Float64Array, B: Float64Array, out: Float64Array): void {
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) out[3 * i + j] = A[3 * i] * B[3 * j] + A[3 * i + 1] * B[3 * j + 1] + A[3 * i + 2] * B[3 * j + 2];
}

/** The rotation vector θ of R (|θ| ≤ π): R = exp([θ]×). */
export function rotationLog(R: Float64Array, out: Float64Array): void {
  const c = Math.min(1, Math.max(-1, (R[0] + R[4] + R[8] - 1) / 2));
  const a = Math.acos(c);
  const wx = R[7] - R[5],
    wy = R[2] - R[6],
    wz = R[3] - R[1];
  // θ/(2 sin θ), → 1/2 (+ θ²/12) at 0
  const k = a < 1e-6 ? 0.5 + (a * a) / 12 : a / (2 * Math.sin(a));
  out[0] = k * wx;
  out[1] = k * wy;
  out[2] = k * wz;
}

/** The working arrays of one link evaluation (allocated once). */
export class RigidPairScratch {
  readonly Ri = new Float64Array(9);
  readonly Rj = new Float64Array(9);
  readonly Q = new Float64Array(9);
  readonly E = new Float64Array(9);
  readonly u = new Float64Array(6);
  readonly g = new Float64Array(6);
  readonly theta = new Float64Array(3);
}

/** The rest quantities of a link: d₀ (3) and Q₀ (3×3). */
export interface RigidPairRest {
  d0: Float64Array;
  Q0: Float64Array;
}

/** d₀ and Q₀ of the frames i (at oi) and j (at oj) of x. */
export function rigidPairRest(x: ArrayLike<number>, oi: number, oj: number): RigidPairRest {
  const s = new RigidPairScratch();
  quatToMatrix(x, oi, s.Ri);
  quatToMatrix(x, oj, s.Rj);
  const d0 = new Float64Array(3),
    Q0 = new Float64Array(9);
  const r = [x[oj] - x[oi], x[oj + 1] - x[oi + 1], x[oj + 2] - x[oi + 2]];
  for (let a = 0; a < 3; a++) d0[a] = s.Ri[a] * r[0] + s.Ri[3 + a] * r[1] + s.Ri[6 + a] * r[2];
  mulTN(s.Ri, s.Rj, Q0);
  return { d0, Q0 };
}

/**
 * u of the link (into s.u; s.theta = θ) for the frames at oi and oj of x; returns the energy
 * ½uᵀKu (K row-major 6×6, symmetric).
 */
export function rigidPairResidual(
  x: ArrayLike<number>,
  oi: number,
  oj: number,
  rest: RigidPairRest,
  K: ArrayLike<number>,
  s: RigidPairScratch,
): number {
  quatToMatrix(x, oi, s.Ri);
  quatToMatrix(x, oj, s.Rj);
  const rx = x[oj] - x[oi],
    ry = x[oj + 1] - x[oi + 1],
    rz = x[oj + 2] - x[oi + 2];
  for (let a = 0; a < 3; a++) s.u[a] = s.Ri[a] * rx + s.Ri[3 + a] * ry + s.Ri[6 + a] * rz - rest.d0[a];
  mulTN(s.Ri, s.Rj, s.Q);
  mulNT(s.Q, rest.Q0, s.E);
  rotationLog(s.E, s.theta);
  s.u[3] = s.theta[0];
  s.u[4] = s.theta[1];
  s.u[5] = s.theta[2];
  let e = 0;
  for (let a = 0; a < 6; a++) {
    let ga = 0;
    for (let b = 0; b < 6; b++) ga += K[6 * a + b] * s.u[b];
    s.g[a] = ga;
    e += 0.5 * s.u[a] * ga;
  }
  return e;
}

/**
 * Adds the link's forces (scaled by coef) to f at the frames' derivative offsets di, dj; returns
 * the energy. See the top comment for the equations.
 */
export function addRigidPairForce(
  x: ArrayLike<number>,
  oi: number,
  oj: number,
  rest: RigidPairRest,
  K: ArrayLike<number>,
  coef: number,
  f: Float64Array,
  di: number,
  dj: number,
  s: RigidPairScratch,
): number {
  const e = rigidPairResidual(x, oi, oj, rest, K, s);
  const R = s.Ri,
    g = s.g,
    t = s.theta;
  // F = R_i g_d
  const Fx = coef * (R[0] * g[0] + R[1] * g[1] + R[2] * g[2]);
  const Fy = coef * (R[3] * g[0] + R[4] * g[1] + R[5] * g[2]);
  const Fz = coef * (R[6] * g[0] + R[7] * g[1] + R[8] * g[2]);
  // J_l⁻ᵀ g_θ = (I + ½[θ]× + β[θ]×²) g_θ, β = 1/θ² − (1 + cos θ)/(2θ sin θ)  (J_l⁻¹ = I − ½[θ]× + β[θ]×²)
  const a = Math.hypot(t[0], t[1], t[2]);
  const beta = a < 1e-4 ? 1 / 12 + (a * a) / 720 : 1 / (a * a) - (1 + Math.cos(a)) / (2 * a * Math.sin(a));
  const gx = g[3],
    gy = g[4],
    gz = g[5];
  // c1 = θ × g, c2 = θ × (θ × g)
  const c1x = t[1] * gz - t[2] * gy,
    c1y = t[2] * gx - t[0] * gz,
    c1z = t[0] * gy - t[1] * gx;
  const c2x = t[1] * c1z - t[2] * c1y,
    c2y = t[2] * c1x - t[0] * c1z,
    c2z = t[0] * c1y - t[1] * c1x;
  const hx = gx + 0.5 * c1x + beta * c2x,
    hy = gy + 0.5 * c1y + beta * c2y,
    hz = gz + 0.5 * c1z + beta * c2z;
  const tx = coef * (R[0] * hx + R[1] * hy + R[2] * hz);
  const ty = coef * (R[3] * hx + R[4] * hy + R[5] * hz);
  const tz = coef * (R[6] * hx + R[7] * hy + R[8] * hz);
  const rx = x[oj] - x[oi],
    ry = x[oj + 1] - x[oi + 1],
    rz = x[oj + 2] - x[oi + 2];
  f[di] += Fx;
  f[di + 1] += Fy;
  f[di + 2] += Fz;
  f[di + 3] += ry * Fz - rz * Fy + tx;
  f[di + 4] += rz * Fx - rx * Fz + ty;
  f[di + 5] += rx * Fy - ry * Fx + tz;
  f[dj] -= Fx;
  f[dj + 1] -= Fy;
  f[dj + 2] -= Fz;
  f[dj + 3] -= tx;
  f[dj + 4] -= ty;
  f[dj + 5] -= tz;
  return coef * e;
}
