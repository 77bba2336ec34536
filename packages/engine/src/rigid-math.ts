import { quatFromEulerAt, quatMultiplyCyclicAt, quatToMatrix3At } from '@sofa-ts/linalg';

/**
 * Quaternion and 4×4 matrix helpers of the transform engines. Quaternions are (x, y, z, w) with
 * SOFA's conventions: (a⊗b).rotate(v) = a.rotate(b.rotate(v)); Euler angles in degrees compose
 * about x first, then y, then z (R = Rz·Ry·Rx). Matrices are row-major 4×4 (16 numbers). The
 * products and conversions themselves are linalg's (quaternion.ts); these give them the tuple form
 * the engines build their outputs from.
 */
export type Quat = [number, number, number, number];

/** a ⊗ b (Hamilton product, in the summation order the engines have always used: quatMultiplyCyclicAt). */
export function quatMul(a: ArrayLike<number>, b: ArrayLike<number>): Quat {
  const out: Quat = [0, 0, 0, 0];
  quatMultiplyCyclicAt(out, 0, a, 0, b, 0);
  return out;
}

/** q⁻¹ = conj(q)/|q|². */
export function quatInverse(q: ArrayLike<number>): Quat {
  const n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  return [-q[0] / n, -q[1] / n, -q[2] / n, q[3] / n];
}

/** out[o..o+2] = R(q)·v (q unit). */
export function quatRotate(q: ArrayLike<number>, vx: number, vy: number, vz: number, out: Float64Array | number[], o = 0): void {
  const x = q[0],
    y = q[1],
    z = q[2],
    w = q[3];
  // v' = v + 2w(u×v) + 2u×(u×v), u = (x, y, z)
  const cx = y * vz - z * vy,
    cy = z * vx - x * vz,
    cz = x * vy - y * vx;
  out[o] = vx + 2 * (w * cx + y * cz - z * cy);
  out[o + 1] = vy + 2 * (w * cy + z * cx - x * cz);
  out[o + 2] = vz + 2 * (w * cz + x * cy - y * cx);
}

/** The rotation of Euler angles in degrees (x, then y, then z). */
export function quatFromEulerDeg(r: ArrayLike<number>): Quat {
  const k = Math.PI / 180;
  const q: Quat = [0, 0, 0, 0];
  quatFromEulerAt(q, 0, r[0] * k, r[1] * k, r[2] * k);
  return q;
}

/** The rotation of `angle` radians about `axis` (normalised here; a zero axis gives the identity). */
export function quatFromAxisAngle(axis: ArrayLike<number>, angle: number): Quat {
  const n = Math.hypot(axis[0], axis[1], axis[2]);
  if (n === 0) return [0, 0, 0, 1];
  const s = Math.sin(angle / 2) / n;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/** The rotation whose matrix has columns x, y, z (an orthonormal frame). */
export function quatFromFrame(x: ArrayLike<number>, y: ArrayLike<number>, z: ArrayLike<number>): Quat {
  // R = [x y z]; Shepperd's method on the largest of trace, R00, R11, R22.
  const m00 = x[0],
    m10 = x[1],
    m20 = x[2];
  const m01 = y[0],
    m11 = y[1],
    m21 = y[2];
  const m02 = z[0],
    m12 = z[1],
    m22 = z[2];
  const tr = m00 + m11 + m22;
  let q: Quat;
  if (tr > 0) {
    const s = 2 * Math.sqrt(tr + 1);
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, s / 4];
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    q = [s / 4, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    q = [(m01 + m10) / s, s / 4, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    q = [(m02 + m20) / s, (m12 + m21) / s, s / 4, (m10 - m01) / s];
  }
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** The homogeneous matrix [R(q) c; 0 1] of a rigid frame (centre c, orientation q). */
export function rigidMatrix4(c: ArrayLike<number>, q: ArrayLike<number>): Float64Array {
  const r = new Float64Array(9);
  quatToMatrix3At(r, 0, q, 0);
  return Float64Array.of(r[0], r[1], r[2], c[0], r[3], r[4], r[5], c[1], r[6], r[7], r[8], c[2], 0, 0, 0, 1);
}

/** a·b for row-major 4×4 matrices. */
export function mat4Mul(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  const out = new Float64Array(16);
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[4 * i + k] * b[4 * k + j];
      out[4 * i + j] = s;
    }
  }
  return out;
}

/**
 * The inverse of an affine 4×4 matrix [A t; 0 1]: [A⁻¹ −A⁻¹t; 0 1]; undefined when A is singular
 * (SOFA's transformInvertMatrix).
 */
export function mat4InvertAffine(m: ArrayLike<number>): Float64Array | undefined {
  const a = m[0],
    b = m[1],
    c = m[2],
    d = m[4],
    e = m[5],
    f = m[6],
    g = m[8],
    h = m[9],
    i = m[10];
  const A = e * i - f * h,
    B = -(d * i - f * g),
    C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (det === 0 || !Number.isFinite(det)) return undefined;
  const inv = [A, -(b * i - c * h), b * f - c * e, B, a * i - c * g, -(a * f - c * d), C, -(a * h - b * g), a * e - b * d].map(
    (v) => v / det,
  );
  const t = [m[3], m[7], m[11]];
  const out = new Float64Array(16);
  for (let r = 0; r < 3; r++) {
    for (let k = 0; k < 3; k++) out[4 * r + k] = inv[3 * r + k];
    out[4 * r + 3] = -(inv[3 * r] * t[0] + inv[3 * r + 1] * t[1] + inv[3 * r + 2] * t[2]);
  }
  out[15] = 1;
  return out;
}
