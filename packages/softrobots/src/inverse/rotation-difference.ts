/**
 * The rotation from orientation r to orientation q as a rotation vector in the world frame: the
 * axis·angle of q·r⁻¹, on the short way (angle ≤ π). q = q[qo .. qo+4) and r = r[ro .. ro+4) are
 * unit quaternions (x, y, z, w), SOFA's Rigid3 layout. To first order it is the angular
 * displacement ω that turns r into q, which is what a Rigid3 row's rotation part multiplies.
 */
export function rotationDifference(out: Float64Array, q: ArrayLike<number>, qo: number, r: ArrayLike<number>, ro: number): void {
  const qx = q[qo],
    qy = q[qo + 1],
    qz = q[qo + 2],
    qw = q[qo + 3];
  // r⁻¹ = conjugate of a unit quaternion
  const rx = -r[ro],
    ry = -r[ro + 1],
    rz = -r[ro + 2],
    rw = r[ro + 3];
  // e = q ⊗ r⁻¹
  let ex = qw * rx + qx * rw + qy * rz - qz * ry;
  let ey = qw * ry - qx * rz + qy * rw + qz * rx;
  let ez = qw * rz + qx * ry - qy * rx + qz * rw;
  let ew = qw * rw - qx * rx - qy * ry - qz * rz;
  if (ew < 0) {
    ex = -ex;
    ey = -ey;
    ez = -ez;
    ew = -ew;
  }
  const sn = Math.hypot(ex, ey, ez);
  const scale = sn < 1e-12 ? 2 / Math.max(ew, 1e-300) : (2 * Math.atan2(sn, ew)) / sn;
  out[0] = ex * scale;
  out[1] = ey * scale;
  out[2] = ez * scale;
}
