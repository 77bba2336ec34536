/**
 * Test helpers shared by the specs of the beams on Rigid3d frames (BeamFEMForceField and
 * BeamAdapter's AdaptiveBeamForceFieldAndMass); not part of the package.
 */

/** Quaternion (x y z w) of a rotation of angle a about the unit axis u. */
export function quat(u: number[], a: number): number[] {
  const s = Math.sin(a / 2);
  return [u[0] * s, u[1] * s, u[2] * s, Math.cos(a / 2)];
}

/** max |K − FD| over max |K| (dense n × n). */
export function maxRelError(K: number[][], FD: number[][]): number {
  let err = 0,
    scale = 0;
  for (let i = 0; i < K.length; i++)
    for (let j = 0; j < K.length; j++) {
      err = Math.max(err, Math.abs(K[i][j] - FD[i][j]));
      scale = Math.max(scale, Math.abs(K[i][j]));
    }
  return err / scale;
}

/** Frames x0 moved rigidly: centres Q·c + t, orientations q ⊗ q_i. */
export function rigidMotion(x0: number[], q: number[], t: number[]): Float64Array {
  const out = Float64Array.from(x0);
  const [qx, qy, qz, qw] = q as [number, number, number, number];
  const R = [
    1 - 2 * (qy * qy + qz * qz),
    2 * (qx * qy - qz * qw),
    2 * (qz * qx + qy * qw),
    2 * (qx * qy + qz * qw),
    1 - 2 * (qz * qz + qx * qx),
    2 * (qy * qz - qx * qw),
    2 * (qz * qx - qy * qw),
    2 * (qy * qz + qx * qw),
    1 - 2 * (qy * qy + qx * qx),
  ];
  for (let i = 0; i < x0.length / 7; i++) {
    const o = 7 * i;
    for (let r = 0; r < 3; r++) out[o + r] = R[3 * r] * x0[o] + R[3 * r + 1] * x0[o + 1] + R[3 * r + 2] * x0[o + 2] + t[r];
    const bx = x0[o + 3],
      by = x0[o + 4],
      bz = x0[o + 5],
      bw = x0[o + 6];
    out[o + 3] = qw * bx + qx * bw + qy * bz - qz * by;
    out[o + 4] = qw * by - qx * bz + qy * bw + qz * bx;
    out[o + 5] = qw * bz + qx * by - qy * bx + qz * bw;
    out[o + 6] = qw * bw - qx * bx - qy * by - qz * bz;
  }
  return out;
}
