import { quatConjugateMultiplyAt, quatMultiplyAt } from '@sofa-ts/linalg';

/**
 * The violation of SOFA's BilateralLagrangianConstraint<Rigid3> between two frames
 * (c, q) = (centre, unit quaternion x y z w):
 *   δ_pos = c2 − c1,
 *   δ_rot = R(q1)·θ,  θ = rotation vector of q1⁻¹ ⊗ q2 (the rotation from frame 1 to frame 2 in the
 *           local axes of frame 1, shortest way: q2 is negated when q1·q2 < 0),
 * i.e. the world-frame rotation vector from frame 1 to frame 2 (SOFA: dof1.rotate(angularDisplacement)).
 * At δ = 0 its derivative is +I on (v2, ω2) and −I on (v1, ω1): the constraint's Jacobian rows.
 */

/** out[o..o+6) = (c2 − c1, R(q1)·θ); frame i at x_i[o_i..o_i+7). */
export function rigidFrameDifference(
  out: Float64Array,
  o: number,
  x1: ArrayLike<number>,
  o1: number,
  x2: ArrayLike<number>,
  o2: number,
): void {
  for (let k = 0; k < 3; k++) out[o + k] = x2[o2 + k] - x1[o1 + k];
  // unit q1, q2
  let ax = x1[o1 + 3],
    ay = x1[o1 + 4],
    az = x1[o1 + 5],
    aw = x1[o1 + 6];
  let bx = x2[o2 + 3],
    by = x2[o2 + 4],
    bz = x2[o2 + 5],
    bw = x2[o2 + 6];
  const na = 1 / Math.hypot(ax, ay, az, aw),
    nb = 1 / Math.hypot(bx, by, bz, bw);
  ax *= na;
  ay *= na;
  az *= na;
  aw *= na;
  bx *= nb;
  by *= nb;
  bz *= nb;
  bw *= nb;
  if (ax * bx + ay * by + az * bz + aw * bw < 0) {
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  // d = q1⁻¹ ⊗ q2 = conj(q1) ⊗ q2
  const d = relativeRotation(ax, ay, az, aw, bx, by, bz, bw);
  const dx = d[0],
    dy = d[1],
    dz = d[2],
    dw = d[3];
  // θ = axis·angle, angle = 2·atan2(|d_xyz|, d_w) (d_w ≥ 0: angle in [0, π])
  const s = Math.hypot(dx, dy, dz);
  const f = s > 1e-300 ? (2 * Math.atan2(s, dw)) / s : 2 / dw;
  const tx = dx * f,
    ty = dy * f,
    tz = dz * f;
  // R(q1)·θ = θ + 2w(u × θ) + 2u × (u × θ), u = (ax, ay, az)
  const cx = ay * tz - az * ty,
    cy = az * tx - ax * tz,
    cz = ax * ty - ay * tx;
  out[o + 3] = tx + 2 * (aw * cx + ay * cz - az * cy);
  out[o + 4] = ty + 2 * (aw * cy + az * cx - ax * cz);
  out[o + 5] = tz + 2 * (aw * cz + ax * cy - ay * cx);
}

/**
 * keepOrientationDifference: the initial difference of two frames, out[o..o+7) = (c2 − c1, q1⁻¹ ⊗ q2)
 * (unit quaternions, q2 negated when q1·q2 < 0: SOFA's quatDiff), so that frame 1 carrying it,
 * (c1 + Δc, q1 ⊗ Δq), coincides with frame 2 at rest.
 */
export function rigidInitialDifference(
  out: Float64Array,
  o: number,
  x1: ArrayLike<number>,
  o1: number,
  x2: ArrayLike<number>,
  o2: number,
): void {
  for (let k = 0; k < 3; k++) out[o + k] = x2[o2 + k] - x1[o1 + k];
  let ax = x1[o1 + 3],
    ay = x1[o1 + 4],
    az = x1[o1 + 5],
    aw = x1[o1 + 6];
  let bx = x2[o2 + 3],
    by = x2[o2 + 4],
    bz = x2[o2 + 5],
    bw = x2[o2 + 6];
  const na = 1 / Math.hypot(ax, ay, az, aw),
    nb = 1 / Math.hypot(bx, by, bz, bw);
  ax *= na;
  ay *= na;
  az *= na;
  aw *= na;
  bx *= nb;
  by *= nb;
  bz *= nb;
  bw *= nb;
  if (ax * bx + ay * by + az * bz + aw * bw < 0) {
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  const d = relativeRotation(ax, ay, az, aw, bx, by, bz, bw);
  let dx = d[0],
    dy = d[1],
    dz = d[2],
    dw = d[3];
  const n = 1 / Math.hypot(dx, dy, dz, dw);
  dx *= n;
  dy *= n;
  dz *= n;
  dw *= n;
  out[o + 3] = dx;
  out[o + 4] = dy;
  out[o + 5] = dz;
  out[o + 6] = dw;
}

/** out[0..7) = frame 1 carrying the initial difference d (7): (c1 + Δc, q1 ⊗ Δq). */
export function rigidFrameWithDifference(out: Float64Array, x1: ArrayLike<number>, o1: number, d: ArrayLike<number>, od: number): void {
  for (let k = 0; k < 3; k++) out[k] = x1[o1 + k] + d[od + k];
  quatMultiplyAt(out, 3, x1, o1 + 3, d, od + 3);
}

/** The two quaternions a, b (0..8) and conj(a) ⊗ b (8..12) of relativeRotation: no allocation per call. */
const quats = new Float64Array(12);

/** conj(a) ⊗ b of the quaternions a = (ax, ay, az, aw), b = (bx, by, bz, bw), in `quats`[8..12). */
function relativeRotation(ax: number, ay: number, az: number, aw: number, bx: number, by: number, bz: number, bw: number): Float64Array {
  quats[0] = ax;
  quats[1] = ay;
  quats[2] = az;
  quats[3] = aw;
  quats[4] = bx;
  quats[5] = by;
  quats[6] = bz;
  quats[7] = bw;
  quatConjugateMultiplyAt(quats, 8, quats, 0, quats, 4);
  return quats.subarray(8, 12);
}
