/**
 * Quaternion (x, y, z, w) of SOFA's Euler angles in radians: R = Rz(c)·Ry(b)·Rx(a), i.e. a rotation
 * about x first, then y, then z (SOFA Quat::createQuaterFromEuler).
 */
export function quatFromEuler(out: Float64Array, a: number, b: number, c: number): Float64Array {
  const ca = Math.cos(a / 2), sa = Math.sin(a / 2);
  const cb = Math.cos(b / 2), sb = Math.sin(b / 2);
  const cc = Math.cos(c / 2), sc = Math.sin(c / 2);
  out[0] = sa * cb * cc - ca * sb * sc;
  out[1] = ca * sb * cc + sa * cb * sc;
  out[2] = ca * cb * sc - sa * sb * cc;
  out[3] = ca * cb * cc + sa * sb * sc;
  return out;
}

/** out = q·v·q⁻¹ for a unit quaternion q (x, y, z, w); out may alias v. */
export function rotateVec3(out: Float64Array, off: number, q: ArrayLike<number>, v: ArrayLike<number>, voff: number): void {
  const qx = q[0]!, qy = q[1]!, qz = q[2]!, qw = q[3]!;
  const vx = v[voff]!, vy = v[voff + 1]!, vz = v[voff + 2]!;
  // t = 2·(q_vec × v);  v' = v + w·t + q_vec × t
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[off] = vx + qw * tx + (qy * tz - qz * ty);
  out[off + 1] = vy + qw * ty + (qz * tx - qx * tz);
  out[off + 2] = vz + qw * tz + (qx * ty - qy * tx);
}

/** out = a ⊗ b (Hamilton product, x y z w layout); out may alias a or b. */
export function quatMultiply(out: Float64Array, off: number, a: ArrayLike<number>, b: ArrayLike<number>, boff: number): void {
  const ax = a[0]!, ay = a[1]!, az = a[2]!, aw = a[3]!;
  const bx = b[boff]!, by = b[boff + 1]!, bz = b[boff + 2]!, bw = b[boff + 3]!;
  out[off] = aw * bx + ax * bw + ay * bz - az * by;
  out[off + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[off + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[off + 3] = aw * bw - ax * bx - ay * by - az * bz;
}
