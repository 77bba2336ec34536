import type { StateType } from '@sofa-ts/core';
import { quatFromEulerAt, quatMultiplyAt, quatRotateAt } from '@sofa-ts/linalg';

/**
 * SOFA's MechanicalObject applyScale, applyRotation and applyTranslation on positions read from a
 * file (ReadState's scalePos, rotation, translation): p ← R·(s·p) + t for every point, with
 * R = Rz(γ)·Ry(β)·Rx(α) from Euler angles in degrees (SOFA createQuaterFromEuler); rigid frames also
 * get their orientation turned, q ← q_R ⊗ q. x: (size × coordSize), modified in place.
 */
export function transformPositions(
  x: Float64Array,
  type: StateType,
  scale: number,
  rotationDeg: ArrayLike<number>,
  translation: ArrayLike<number>,
): void {
  const c = type.coordSize;
  const spatial = type.isRigid ? (c === 7 ? 3 : 2) : Math.min(c, 3);
  const deg = Math.PI / 180;
  const q = new Float64Array(4);
  quatFromEulerAt(q, 0, rotationDeg[0] * deg, rotationDeg[1] * deg, rotationDeg[2] * deg);
  const rotate = rotationDeg[0] !== 0 || rotationDeg[1] !== 0 || rotationDeg[2] !== 0;
  const p = new Float64Array(3);
  for (let o = 0; o < x.length; o += c) {
    p[0] = 0;
    p[1] = 0;
    p[2] = 0;
    for (let k = 0; k < spatial; k++) p[k] = scale * x[o + k];
    if (rotate) quatRotateAt(p, 0, q, 0, p, 0);
    for (let k = 0; k < spatial; k++) x[o + k] = p[k] + translation[k];
    if (rotate && type.isRigid && c === 7) quatMultiplyAt(x, o + 3, q, 0, x, o + 3);
  }
}
