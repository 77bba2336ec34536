import { CONTACT_SLOT, type ContactPointSet } from './contact-constraint.js';

/**
 * The points of a contact response (ContactPointSet): slot c holds either a Vec3 combination
 * x = Σ_k w_k·x_{idx_k} of up to CONTACT_SLOT points (n[c] > 0), or a point fixed in a rigid frame
 * (n[c] < 0: frame idx[S·c], local offset l = w[S·c .. S·c+3), x = c + R(q)·l, S = CONTACT_SLOT). These helpers are
 * the one place that evaluates and copies them, for the penalty, friction and stick responses.
 */

/** out[o..o+3) = R(q)·v for the unit quaternion q = (qx, qy, qz, qw). */
export function rotateByQuaternion(
  out: Float64Array,
  o: number,
  qx: number,
  qy: number,
  qz: number,
  qw: number,
  vx: number,
  vy: number,
  vz: number,
): void {
  // t = 2·(q × v); v' = v + w·t + q × t
  const tx = 2 * (qy * vz - qz * vy),
    ty = 2 * (qz * vx - qx * vz),
    tz = 2 * (qx * vy - qy * vx);
  out[o] = vx + qw * tx + (qy * tz - qz * ty);
  out[o + 1] = vy + qw * ty + (qz * tx - qx * tz);
  out[o + 2] = vz + qw * tz + (qx * ty - qy * tx);
}

/** out[o..o+3) = the point of slot c of `side` for the state's coordinates x (Vec3 or Rigid3 layout). */
export function contactPointPosition(out: Float64Array, o: number, x: ArrayLike<number>, side: ContactPointSet, c: number): void {
  const n = side.n[c];
  const b = CONTACT_SLOT * c;
  if (n < 0) {
    const f = 7 * side.idx[b];
    rotateByQuaternion(out, o, x[f + 3], x[f + 4], x[f + 5], x[f + 6], side.w[b], side.w[b + 1], side.w[b + 2]);
    out[o] += x[f];
    out[o + 1] += x[f + 1];
    out[o + 2] += x[f + 2];
    return;
  }
  let px = 0,
    py = 0,
    pz = 0;
  for (let k = 0; k < n; k++) {
    const i = 3 * side.idx[b + k];
    const w = side.w[b + k];
    px += w * x[i];
    py += w * x[i + 1];
    pz += w * x[i + 2];
  }
  out[o] = px;
  out[o + 1] = py;
  out[o + 2] = pz;
}

/** Slot c of dst = slot s of src (count, indices, weights). */
export function copyContactSlot(
  dst: { n: Int8Array; idx: Uint32Array; w: Float64Array },
  c: number,
  src: ContactPointSet,
  s: number,
): void {
  dst.n[c] = src.n[s];
  for (let k = 0; k < CONTACT_SLOT; k++) {
    dst.idx[CONTACT_SLOT * c + k] = src.idx[CONTACT_SLOT * s + k];
    dst.w[CONTACT_SLOT * c + k] = src.w[CONTACT_SLOT * s + k];
  }
}
