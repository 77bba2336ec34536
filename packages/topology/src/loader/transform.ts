import { quatFromEulerAt, quatToMatrix3At } from '@sofa-ts/linalg';

/**
 * The rigid-plus-scale transform SOFA's loaders apply to the points they read.
 *
 * M = T(translation) · R(rotation) · S(scale3d), a 4×4 homogeneous matrix stored row-major
 * (16 numbers); a point p becomes M·[p; 1]. The rotation is given as Euler angles in degrees and
 * composed as SOFA's Quat::createQuaterFromEuler does by default: about x first, then y, then z,
 * i.e. R = Rz(γ)·Ry(β)·Rx(α), built through the unit quaternion of that rotation (linalg's
 * quatFromEulerAt and quatToMatrix3At).
 */

/** M = T·R·S as a row-major 4×4 matrix; rotation in degrees (SOFA's Euler order). */
export function trsMatrix(translation: ArrayLike<number>, rotationDeg: ArrayLike<number>, scale: ArrayLike<number>): Float64Array {
  const k = Math.PI / 180;
  const q = new Float64Array(4),
    r = new Float64Array(9);
  quatFromEulerAt(q, 0, rotationDeg[0] * k, rotationDeg[1] * k, rotationDeg[2] * k);
  quatToMatrix3At(r, 0, q, 0);
  const m = new Float64Array(16);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) m[4 * i + j] = r[3 * i + j] * scale[j];
    m[4 * i + 3] = translation[i];
  }
  m[15] = 1;
  return m;
}

export function isIdentity4(m: ArrayLike<number>): boolean {
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) if (m[4 * i + j] !== (i === j ? 1 : 0)) return false;
  return true;
}

/** An affine transform: the last row is (0, 0, 0, 1) (SOFA ignores other matrices). */
export function isAffine4(m: ArrayLike<number>): boolean {
  return m[12] === 0 && m[13] === 0 && m[14] === 0 && m[15] === 1;
}

/** points (n × 3) ← M·[p; 1] for each point, in place. */
export function applyTransform4(m: ArrayLike<number>, points: Float64Array): void {
  for (let p = 0; p < points.length; p += 3) {
    const x = points[p],
      y = points[p + 1],
      z = points[p + 2];
    for (let i = 0; i < 3; i++) points[p + i] = m[4 * i] * x + m[4 * i + 1] * y + m[4 * i + 2] * z + m[4 * i + 3];
  }
}
