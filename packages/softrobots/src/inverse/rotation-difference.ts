import { quatMultiplyConjugateAt } from '@sofa-ts/linalg';

const scratch = new Float64Array(4);

/**
 * The rotation from orientation r to orientation q as a rotation vector in the world frame: the
 * axis·angle of q·r⁻¹, on the short way (angle ≤ π). q = q[qo .. qo+4) and r = r[ro .. ro+4) are
 * unit quaternions (x, y, z, w), SOFA's Rigid3 layout. To first order it is the angular
 * displacement ω that turns r into q, which is what a Rigid3 row's rotation part multiplies.
 */
export function rotationDifference(out: Float64Array, q: ArrayLike<number>, qo: number, r: ArrayLike<number>, ro: number): void {
  // e = q ⊗ r⁻¹ (the conjugate of a unit quaternion)
  const e = scratch;
  quatMultiplyConjugateAt(e, 0, q, qo, r, ro);
  let ex = e[0],
    ey = e[1],
    ez = e[2],
    ew = e[3];
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
