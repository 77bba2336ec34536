import type { StateType } from '@sofa-ts/core';

/**
 * SOFA's MechanicalObject applyScale, applyRotation and applyTranslation on positions read from a
 * file (ReadState's scalePos, rotation, translation): p ← R·(s·p) + t for every point, with
 * R = Rz(γ)·Ry(β)·Rx(α) from Euler angles in degrees (SOFA createQuaterFromEuler); rigid frames also
 * get their orientation turned, q ← q_R ⊗ q. x: (size × coordSize), modified in place.
 */
export function transformPositions(x: Float64Array, type: StateType, scale: number, rotationDeg: ArrayLike<number>, translation: ArrayLike<number>): void {
  const c = type.coordSize;
  const spatial = type.isRigid ? (c === 7 ? 3 : 2) : Math.min(c, 3);
  const q = quatFromEulerDeg(rotationDeg[0]!, rotationDeg[1]!, rotationDeg[2]!);
  const rotate = rotationDeg[0] !== 0 || rotationDeg[1] !== 0 || rotationDeg[2] !== 0;
  const p = new Float64Array(3);
  for (let o = 0; o < x.length; o += c) {
    p[0] = 0;
    p[1] = 0;
    p[2] = 0;
    for (let k = 0; k < spatial; k++) p[k] = scale * x[o + k]!;
    if (rotate) rotateInPlace(p, q);
    for (let k = 0; k < spatial; k++) x[o + k] = p[k]! + translation[k]!;
    if (rotate && type.isRigid && c === 7) multiplyQuatInPlace(q, x, o + 3);
  }
}

/** (x, y, z, w) of R = Rz(c)·Ry(b)·Rx(a), angles in degrees. */
function quatFromEulerDeg(aDeg: number, bDeg: number, cDeg: number): Float64Array {
  const h = Math.PI / 360;
  const ca = Math.cos(aDeg * h), sa = Math.sin(aDeg * h);
  const cb = Math.cos(bDeg * h), sb = Math.sin(bDeg * h);
  const cc = Math.cos(cDeg * h), sc = Math.sin(cDeg * h);
  return Float64Array.of(sa * cb * cc - ca * sb * sc, ca * sb * cc + sa * cb * sc, ca * cb * sc - sa * sb * cc, ca * cb * cc + sa * sb * sc);
}

/** v ← q·v·q⁻¹ (unit q). */
function rotateInPlace(v: Float64Array, q: Float64Array): void {
  const qx = q[0]!, qy = q[1]!, qz = q[2]!, qw = q[3]!;
  const vx = v[0]!, vy = v[1]!, vz = v[2]!;
  // t = 2·(q_vec × v);  v' = v + w·t + q_vec × t
  const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
  v[0] = vx + qw * tx + (qy * tz - qz * ty);
  v[1] = vy + qw * ty + (qz * tx - qx * tz);
  v[2] = vz + qw * tz + (qx * ty - qy * tx);
}

/** x[o..o+4] ← a ⊗ x[o..o+4] (Hamilton product, x y z w). */
function multiplyQuatInPlace(a: Float64Array, x: Float64Array, o: number): void {
  const ax = a[0]!, ay = a[1]!, az = a[2]!, aw = a[3]!;
  const bx = x[o]!, by = x[o + 1]!, bz = x[o + 2]!, bw = x[o + 3]!;
  x[o] = aw * bx + ax * bw + ay * bz - az * by;
  x[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  x[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  x[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}
