import { quatMultiplyAt } from '@sofa-ts/linalg';

/** out = a ⊗ b (Hamilton product, x y z w layout; a at a[0..4)); out may alias a or b. */
export function quatMultiply(out: Float64Array, off: number, a: ArrayLike<number>, b: ArrayLike<number>, boff: number): void {
  quatMultiplyAt(out, off, a, 0, b, boff);
}

/**
 * out[o..o+3] = axis·angle of the unit quaternion (x, y, z, w), angle in [0, π] (SOFA's
 * quatToRotationVector): the quaternion taken with w ≥ 0, the angle from asin of the vector part
 * when w > 0.999 (small angles, where acos loses digits), from acos(w) otherwise; zero when the
 * angle is below machine precision.
 */
export function unitQuatRotationVector(out: Float64Array, o: number, x: number, y: number, z: number, w: number): void {
  if (w < 0) {
    x = -x;
    y = -y;
    z = -z;
    w = -w;
  }
  let s: number, angle: number;
  if (w > 0.999) {
    s = Math.sqrt(x * x + y * y + z * z);
    angle = 2 * Math.asin(s);
  } else {
    const half = Math.acos(w);
    s = Math.sin(half);
    angle = 2 * half;
  }
  if (s < Number.EPSILON) {
    out[o] = out[o + 1] = out[o + 2] = 0;
    return;
  }
  out[o] = (x / s) * angle;
  out[o + 1] = (y / s) * angle;
  out[o + 2] = (z / s) * angle;
}

const scratchB = new Float64Array(4),
  scratchD = new Float64Array(4);

/**
 * The rotation taking orientation q0 to q, as SOFA's rigid springs measure it: dq = q ⊗ q0⁻¹
 * (q0⁻¹ the conjugate over |q0|, zero for a zero q0), normalised (a zero dq becomes the identity),
 * taken with w ≥ 0 so the angle is in [0, π]; then axis and angle, the angle from asin of |dq_xyz|
 * when w > 0.999 (small angles) and from acos(w) otherwise, the axis (0, 1, 0) when the angle is
 * below machine precision. Writes axis·angle to out[0..2] (the rotation vector, world frame).
 * q at x[qo..qo+3] and q0 at x0[q0o..q0o+3], both (x, y, z, w).
 */
export function rotationVectorBetween(out: Float64Array, x: ArrayLike<number>, qo: number, x0: ArrayLike<number>, q0o: number): void {
  const n0 = Math.hypot(x0[q0o], x0[q0o + 1], x0[q0o + 2], x0[q0o + 3]);
  const inv = n0 !== 0 ? 1 / n0 : 0;
  // b = q0⁻¹ = conj(q0)/|q0|
  const b = scratchB;
  b[0] = -x0[q0o] * inv;
  b[1] = -x0[q0o + 1] * inv;
  b[2] = -x0[q0o + 2] * inv;
  b[3] = x0[q0o + 3] * inv;
  // dq = q ⊗ b
  const d = scratchD;
  quatMultiplyAt(d, 0, x, qo, b, 0);
  let dx = d[0],
    dy = d[1],
    dz = d[2],
    dw = d[3];
  const m2 = dx * dx + dy * dy + dz * dz + dw * dw;
  if (Math.abs(m2 - 1) > 1e-10) {
    if (m2 !== 0) {
      const s = 1 / Math.sqrt(m2);
      dx *= s;
      dy *= s;
      dz *= s;
      dw *= s;
    } else dw = 1;
  }
  if (dw < 0) {
    dx = -dx;
    dy = -dy;
    dz = -dz;
    dw = -dw;
  }
  let sinHalf: number, angle: number;
  if (dw > 0.999) {
    sinHalf = Math.sqrt(dx * dx + dy * dy + dz * dz);
    angle = 2 * Math.asin(Math.min(1, sinHalf));
  } else {
    const half = Math.acos(dw);
    sinHalf = Math.sin(half);
    angle = 2 * half;
  }
  if (sinHalf < Number.EPSILON) {
    out[0] = 0;
    out[1] = angle;
    out[2] = 0;
    return;
  }
  const s = angle / sinHalf;
  out[0] = dx * s;
  out[1] = dy * s;
  out[2] = dz * s;
}

/**
 * SOFA's Quat::slerp2: the spherical interpolation from a to b at t ∈ [0, 1] (no shortest-path
 * flip); a when |a·b| ≥ 1; the plain average of a and b when they are half a turn apart
 * (|sin θ/2| < 0.001). out may alias neither input.
 */
export function quatSlerp2(out: Float64Array, a: ArrayLike<number>, b: ArrayLike<number>, t: number): Float64Array {
  const c = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  if (Math.abs(c) >= 1) {
    for (let k = 0; k < 4; k++) out[k] = a[k];
    return out;
  }
  const half = Math.acos(c);
  const s = Math.sqrt(1 - c * c);
  if (Math.abs(s) < 0.001) {
    for (let k = 0; k < 4; k++) out[k] = 0.5 * a[k] + 0.5 * b[k];
    return out;
  }
  const wa = Math.sin((1 - t) * half) / s,
    wb = Math.sin(t * half) / s;
  for (let k = 0; k < 4; k++) out[k] = a[k] * wa + b[k] * wb;
  return out;
}
