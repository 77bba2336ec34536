/**
 * Frame kernels of SOFA's BeamAdapter plugin: the cubic Bézier centre line between two beam
 * frames, the frame it interpolates inside a beam, its arc length, and the rotation vector of a
 * quaternion. A frame H = (p, q) maps local coordinates to global ones: x = M(q)·x_local + p.
 * Quaternions are (x, y, z, w), Hamilton products, taken as the Rigid3d state holds them: SOFA's
 * release build keeps a quaternion a scene writes with |q| ≠ 1 (`0.707 0 0.707 0`), and the
 * exponential-map integration keeps |q|, so the formulas are SOFA's for any |q|:
 *   M(q) = I + 2w[v]× + 2[v]×² = (1 − |q|²)·I + |q|²·R(q/|q|)   (Quat::rotate; Mᵀ: inverseRotate)
 *   q⁻¹ = conj(q)/|q|                                            (Quat::inverse, a unit quaternion)
 * and BeamAdapter's frames are SOFA's SolidTypes Transforms, which store the origin p of a frame
 * (p, q) as −M(q)ᵀ·p and give it back as −M(q)·(that): getOrigin = M(q)·M(q)ᵀ·p, p itself only
 * for a unit q (frameOrigin). With |q|² = 0.9997 and frames 15 m from the world origin that moves
 * them by 1e-2; the rest lengths, the centre line and the local displacements carry it, and
 * SOFA's SofaScene references record it.
 *
 * Control points of beam (H0, H1) with rest length L (BeamAdapter's getControlPointsFromFrame):
 *   P0 = o0,  P1 = o0 + M(q0)·e_x·L/3,  P2 = o1 − M(q1)·e_x·L/3,  P3 = o1,  o = M(q)·M(q)ᵀ·p.
 */
import { quatMultiplyAt as quatMul } from '@sofa-ts/linalg';
import { unitQuatRotationVector } from '../rotation.js';

/** M(q) (row-major 3×3, at R[ro..ro+9)) of the quaternion q at qs[o..o+4): SOFA's rotation formula, R(q) for a unit q. */
export function quatToMatrix(R: Float64Array, ro: number, qs: ArrayLike<number>, o: number): void {
  const x = qs[o],
    y = qs[o + 1],
    z = qs[o + 2],
    w = qs[o + 3];
  R[ro] = 1 - 2 * (y * y + z * z);
  R[ro + 1] = 2 * (x * y - z * w);
  R[ro + 2] = 2 * (z * x + y * w);
  R[ro + 3] = 2 * (x * y + z * w);
  R[ro + 4] = 1 - 2 * (z * z + x * x);
  R[ro + 5] = 2 * (y * z - x * w);
  R[ro + 6] = 2 * (z * x - y * w);
  R[ro + 7] = 2 * (y * z + x * w);
  R[ro + 8] = 1 - 2 * (y * y + x * x);
}

/** Normalises q at qs[o..o+4) in place. */
export function normalizeQuat(qs: Float64Array, o: number): void {
  const n = Math.hypot(qs[o], qs[o + 1], qs[o + 2], qs[o + 3]);
  if (n > 0) for (let c = 0; c < 4; c++) qs[o + c] = qs[o + c] / n;
}

/**
 * out = the rotation vector (axis·angle, angle in [0, π]) of the quaternion q at qs[o..o+4),
 * normalised first (SOFA's quatToRotationVector: asin of the vector part below 5°, acos above).
 */
export function rotationVector(out: Float64Array, oo: number, qs: ArrayLike<number>, o: number): void {
  const n = Math.hypot(qs[o], qs[o + 1], qs[o + 2], qs[o + 3]);
  const sgn = qs[o + 3] < 0 ? -1 / n : 1 / n;
  unitQuatRotationVector(out, oo, qs[o] * sgn, qs[o + 1] * sgn, qs[o + 2] * sgn, qs[o + 3] * sgn);
}

/**
 * out = q turned about an axis ⊥ its local x so that its x axis becomes the unit vector t
 * (BeamAdapter's RotateFrameForAlignX): with x0 = R(q)ᵀ·t, the turn is the rotation of angle
 * acos(x0_x) about (0, −x0_z, x0_y)/|·| in the frame of q; none when x0_x > 1 − 1e-10.
 */
export function alignFrameX(out: Float64Array, q: Float64Array, t: ArrayLike<number>, R: Float64Array): void {
  quatToMatrix(R, 0, q, 0);
  const x0 = R[0] * t[0] + R[3] * t[1] + R[6] * t[2];
  const y0 = R[1] * t[0] + R[4] * t[1] + R[7] * t[2];
  const z0 = R[2] * t[0] + R[5] * t[1] + R[8] * t[2];
  if (x0 > 0.9999999999) {
    out.set(q.subarray(0, 4));
    return;
  }
  const n = Math.hypot(z0, y0);
  const ay = n > 0 ? -z0 / n : 0,
    az = n > 0 ? y0 / n : 0;
  const sp = Math.sqrt(0.5 * (1 - x0)),
    cp = Math.sqrt(0.5 * (1 + x0));
  const r = [0, ay * sp, az * sp, cp];
  quatMul(out, 0, q, 0, r, 0);
}

/**
 * out = slerp(a, b, t) with the shortest path, normalised (SOFA's Quat::slerp with allowFlip: linear
 * weights when |cos| > 0.99).
 */
export function slerpQuat(out: Float64Array, a: Float64Array, b: Float64Array, t: number): void {
  const cos = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  let c1: number, c2: number;
  if (1 - Math.abs(cos) < 0.01) {
    c1 = 1 - t;
    c2 = t;
  } else {
    const angle = Math.acos(Math.abs(cos)),
      s = Math.sin(angle);
    c1 = Math.sin(angle * (1 - t)) / s;
    c2 = Math.sin(angle * t) / s;
  }
  if (cos < 0) c1 = -c1;
  for (let c = 0; c < 4; c++) out[c] = c1 * a[c] + c2 * b[c];
  normalizeQuat(out, 0);
}

/** Scratch of the spline kernels (one per component: not re-entrant). */
export class SplineScratch {
  readonly P = new Float64Array(12);
  readonly R = new Float64Array(9);
  readonly q0 = new Float64Array(4);
  readonly q1 = new Float64Array(4);
  readonly qs = new Float64Array(4);
  readonly t = new Float64Array(3);
}

/**
 * The origin SOFA gives back for the frame (p, q) at x[o..o+7) (SolidTypes Transform: stored as
 * −M(q)ᵀ·p, returned as −M(q)·(that)): out = M(q)·M(q)ᵀ·p, R = M(q) (row-major, given).
 */
export function frameOrigin(out: Float64Array, oo: number, R: ArrayLike<number>, ro: number, p: ArrayLike<number>, po: number): void {
  const px = p[po],
    py = p[po + 1],
    pz = p[po + 2];
  const a = R[ro] * px + R[ro + 3] * py + R[ro + 6] * pz;
  const b = R[ro + 1] * px + R[ro + 4] * py + R[ro + 7] * pz;
  const c = R[ro + 2] * px + R[ro + 5] * py + R[ro + 8] * pz;
  out[oo] = R[ro] * a + R[ro + 1] * b + R[ro + 2] * c;
  out[oo + 1] = R[ro + 3] * a + R[ro + 4] * b + R[ro + 5] * c;
  out[oo + 2] = R[ro + 6] * a + R[ro + 7] * b + R[ro + 8] * c;
}

/** P (4 points × 3) of the beam between frames (p0, q0) at x[o0..] and (p1, q1) at x[o1..] (7 numbers each), rest length L. */
export function controlPoints(P: Float64Array, x: ArrayLike<number>, o0: number, o1: number, L: number, R: Float64Array): void {
  quatToMatrix(R, 0, x, o0 + 3);
  frameOrigin(P, 0, R, 0, x, o0);
  for (let c = 0; c < 3; c++) P[3 + c] = P[c] + (R[3 * c] * L) / 3;
  quatToMatrix(R, 0, x, o1 + 3);
  frameOrigin(P, 9, R, 0, x, o1);
  for (let c = 0; c < 3; c++) P[6 + c] = P[9 + c] - (R[3 * c] * L) / 3;
}

/**
 * Arc length ∫₀¹ |P'(s)| ds of the Bézier curve P (4 points × 3), by the 4-point Gauss–Legendre rule
 * on [0, 1] (BeamAdapter's computeActualLength).
 */
export function splineLength(P: Float64Array): number {
  const a = 2 * Math.sqrt(6 / 5),
    b = Math.sqrt(30);
  const s1 = Math.sqrt((3 - a) / 7) / 2,
    s2 = Math.sqrt((3 + a) / 7) / 2;
  const nodes = [0.5 - s1, 0.5 + s1, 0.5 - s2, 0.5 + s2];
  const weights = [(18 + b) / 72, (18 + b) / 72, (18 - b) / 72, (18 - b) / 72];
  let len = 0;
  for (let g = 0; g < 4; g++) {
    const s = nodes[g];
    // P'(s) = −3(1−s)²·P0 + (3 − 12s + 9s²)·P1 + (6s − 9s²)·P2 + 3s²·P3
    const w0 = -3 * (1 - s) * (1 - s),
      w1 = 3 - 12 * s + 9 * s * s,
      w2 = 6 * s - 9 * s * s,
      w3 = 3 * s * s;
    let n2 = 0;
    for (let c = 0; c < 3; c++) {
      const d = w0 * P[c] + w1 * P[3 + c] + w2 * P[6 + c] + w3 * P[9 + c];
      n2 += d * d;
    }
    len += weights[g] * Math.sqrt(n2);
  }
  return len;
}

/**
 * The frame (pos, quat) at parameter s of the beam between frames at x[o0..] and x[o1..] with rest
 * length L (BeamAdapter's InterpolateTransformUsingSpline): the point of the Bézier curve, oriented
 * by aligning both end frames' x axes with the tangent, slerping them at s and aligning the result
 * again. A beam compressed below 0.4·L with its first two control segments opposed gets the linear
 * interpolation of its ends and the orientation of its first frame instead.
 */
export function interpolateFrame(
  pos: Float64Array,
  po: number,
  quat: Float64Array,
  qo: number,
  x: ArrayLike<number>,
  o0: number,
  o1: number,
  L: number,
  s: number,
  w: SplineScratch,
): void {
  const P = w.P;
  controlPoints(P, x, o0, o1, L, w.R);
  let dot01x12 = 0,
    d03 = 0;
  for (let c = 0; c < 3; c++) {
    dot01x12 += (P[3 + c] - P[c]) * (P[6 + c] - P[3 + c]);
    d03 += (P[9 + c] - P[c]) ** 2;
  }
  if (dot01x12 < 0 && Math.sqrt(d03) < 0.4 * L) {
    for (let c = 0; c < 3; c++) pos[po + c] = P[c] * (1 - s) + P[9 + c] * s;
    for (let c = 0; c < 4; c++) quat[qo + c] = x[o0 + 3 + c];
    return;
  }
  const u = 1 - s;
  const b0 = u * u * u,
    b1 = 3 * s * u * u,
    b2 = 3 * s * s * u,
    b3 = s * s * s;
  const t0 = -3 * u * u,
    t1 = 3 - 12 * s + 9 * s * s,
    t2 = 6 * s - 9 * s * s,
    t3 = 3 * s * s;
  const t = w.t;
  for (let c = 0; c < 3; c++) {
    pos[po + c] = b0 * P[c] + b1 * P[3 + c] + b2 * P[6 + c] + b3 * P[9 + c];
    t[c] = t0 * P[c] + t1 * P[3 + c] + t2 * P[6 + c] + t3 * P[9 + c];
  }
  const n = Math.hypot(t[0], t[1], t[2]);
  for (let c = 0; c < 3; c++) t[c] = t[c] / n;
  for (let c = 0; c < 4; c++) {
    w.qs[c] = x[o0 + 3 + c];
  }
  alignFrameX(w.q0, w.qs, t, w.R);
  for (let c = 0; c < 4; c++) w.qs[c] = x[o1 + 3 + c];
  alignFrameX(w.q1, w.qs, t, w.R);
  // SOFA passes s as a float to slerp (exact for the s = 0.5 the force field uses)
  slerpQuat(w.qs, w.q0, w.q1, Math.fround(s));
  alignFrameX(w.q0, w.qs, t, w.R);
  for (let c = 0; c < 4; c++) quat[qo + c] = w.q0[c];
}

/** Scratch of localEndVector: M(q_e), M(q_m), the origin of the beam frame, M(q_e)ᵀ·d. */
const LE = new Float64Array(24);

/**
 * The local displacement vector of end frame (p_e, q_e) at x[oe..] seen from the beam frame
 * (pm, qm), BeamAdapter's CreateSpatialVector of local_H_local_e = global_H_local⁻¹·global_H_local_e
 * in SOFA's Transform algebra (see the header):
 *   q_r = qm⁻¹ ⊗ q_e,  qm⁻¹ = conj(qm)/|qm|
 *   out[0..3) = M(q_r)·M(q_e)ᵀ·(p_e − o_m),  o_m = M(qm)·M(qm)ᵀ·pm
 *   out[3..6) = rotation vector of q_r (normalised first)
 * For unit quaternions: R_mᵀ·(p_e − pm) and the rotation vector of qm⁻¹ ⊗ q_e.
 */
export function localEndVector(
  out: Float64Array,
  oo: number,
  x: ArrayLike<number>,
  oe: number,
  pm: Float64Array,
  po: number,
  qm: Float64Array,
  qo: number,
  tmp: Float64Array,
): void {
  quatToMatrix(LE, 9, qm, qo);
  frameOrigin(LE, 18, LE, 9, pm, po);
  const dx = x[oe] - LE[18],
    dy = x[oe + 1] - LE[19],
    dz = x[oe + 2] - LE[20];
  quatToMatrix(LE, 0, x, oe + 3);
  const a = LE[0] * dx + LE[3] * dy + LE[6] * dz;
  const b = LE[1] * dx + LE[4] * dy + LE[7] * dz;
  const c = LE[2] * dx + LE[5] * dy + LE[8] * dz;
  const n = Math.hypot(qm[qo], qm[qo + 1], qm[qo + 2], qm[qo + 3]);
  tmp[4] = -qm[qo] / n;
  tmp[5] = -qm[qo + 1] / n;
  tmp[6] = -qm[qo + 2] / n;
  tmp[7] = qm[qo + 3] / n;
  quatMul(tmp, 0, tmp, 4, x, oe + 3);
  quatToMatrix(LE, 0, tmp, 0);
  out[oo] = LE[0] * a + LE[1] * b + LE[2] * c;
  out[oo + 1] = LE[3] * a + LE[4] * b + LE[5] * c;
  out[oo + 2] = LE[6] * a + LE[7] * b + LE[8] * c;
  rotationVector(out, oo + 3, tmp, 0);
}
