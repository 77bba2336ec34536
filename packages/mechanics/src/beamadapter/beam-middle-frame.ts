import { controlPoints, interpolateFrame, quatToMatrix, splineLength, type SplineScratch } from './beam-frames.js';

/**
 * The frame of a beam whose end frames are E[0..7) and E[7..14) (rest length L): its middle point
 * pm, orientation qm (the centre line's frame at s = ½, beam-frames.ts) and the rotation Rm
 * (row-major) of qm/|qm|, the one BeamAdapter turns the stiffness and the mass with (the adjoint of
 * the inverse frame, whose quaternion SOFA normalises; qm is unit unless the beam is compressed
 * below 0.4·L, where it is the first frame's).
 */
export function middleFrameOfEnds(
  pm: Float64Array,
  po: number,
  qm: Float64Array,
  qo: number,
  Rm: Float64Array,
  ro: number,
  E: ArrayLike<number>,
  L: number,
  w: SplineScratch,
): void {
  interpolateFrame(pm, po, qm, qo, E, 0, 7, L, 0.5, w);
  const q = w.qs,
    n = Math.hypot(qm[qo], qm[qo + 1], qm[qo + 2], qm[qo + 3]);
  for (let c = 0; c < 4; c++) q[c] = qm[qo + c] / n;
  quatToMatrix(Rm, ro, q, 0);
}

/** The arc length of the centre line between the end frames E (with the rest length L for the control points). */
export function centreLineLength(E: ArrayLike<number>, L: number, w: SplineScratch): number {
  controlPoints(w.P, E, 0, 7, L, w.R);
  return splineLength(w.P);
}
