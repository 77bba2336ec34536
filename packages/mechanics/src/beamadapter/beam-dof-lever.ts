import { addBlock3, type MatrixAccumulator } from '@sofa-ts/core';

/**
 * A beam whose ends are not on its frames (BeamAdapter's DOF0TransformNode0 / DOF1TransformNode1,
 * dofsAndBeamsAligned="false"), seen from the frames. End e of the beam is the point p_e + r_e of
 * its frame (DOF) e and turns with it, r_e = M(q_e)·t_e the world offset of the transformation's
 * translation t_e; a twist (v, ω) of the DOF moves the end by (v + ω × r_e, ω). In the beam frame R_m
 * the twist of end e is A_e·(v, ω),
 *   A_e = [[R_mᵀ, −R_mᵀ·[r_e]×], [0, R_mᵀ]],
 * and a local force (f, τ) at end e acts on its DOF as A_eᵀ·(f, τ) = (R_m·f, R_m·τ + r_e × R_m·f):
 * the lever arm moves the force to the frame's origin. BeamAdapter's m_A0Ref / m_A1Ref are these A_e
 * (the adjoint of the DOF-to-node frame of origin r_e and rotation R_m); like BeamAdapter, the
 * stiffness A·k·Aᵀ has no derivative of r_e or R_m (exact at rest and under rigid motions).
 * With r_e = 0 the operators are diag(R_m ×4), the aligned case (the force field keeps its own
 * loops for it, unchanged).
 *
 * Layout: a beam's 12 local values are (u_0, θ_0, u_1, θ_1); R_m row-major at R[ro..ro+9)
 * (local → world); the two offsets at lev[lo..lo+6) (r_0, r_1); DOF values at vec[o_e..o_e+6).
 */

/** loc[0..12) = A·v: the local twists of the two ends from the DOFs' twists at vec[o0..], vec[o1..]. */
export function leveredToLocal(
  loc: Float64Array,
  vec: ArrayLike<number>,
  o0: number,
  o1: number,
  R: Float64Array,
  ro: number,
  lev: Float64Array,
  lo: number,
): void {
  for (let e = 0; e < 2; e++) {
    const o = e === 0 ? o0 : o1,
      l = lo + 3 * e;
    const wx = vec[o + 3],
      wy = vec[o + 4],
      wz = vec[o + 5];
    // v + ω × r
    const vx = vec[o] + wy * lev[l + 2] - wz * lev[l + 1],
      vy = vec[o + 1] + wz * lev[l] - wx * lev[l + 2],
      vz = vec[o + 2] + wx * lev[l + 1] - wy * lev[l];
    for (let c = 0; c < 3; c++) {
      loc[6 * e + c] = R[ro + c] * vx + R[ro + 3 + c] * vy + R[ro + 6 + c] * vz;
      loc[6 * e + 3 + c] = R[ro + c] * wx + R[ro + 3 + c] * wy + R[ro + 6 + c] * wz;
    }
  }
}

/** out[o_e..o_e+6) += factor·A_eᵀ·res_e for both ends: the local forces (f, τ) at res[6e..] on the DOFs. */
export function leveredAddGlobal(
  out: Float64Array,
  o0: number,
  o1: number,
  R: Float64Array,
  ro: number,
  lev: Float64Array,
  lo: number,
  res: Float64Array,
  factor: number,
): void {
  for (let e = 0; e < 2; e++) {
    const o = e === 0 ? o0 : o1,
      l = lo + 3 * e,
      fo = 6 * e;
    const fx = R[ro] * res[fo] + R[ro + 1] * res[fo + 1] + R[ro + 2] * res[fo + 2],
      fy = R[ro + 3] * res[fo] + R[ro + 4] * res[fo + 1] + R[ro + 5] * res[fo + 2],
      fz = R[ro + 6] * res[fo] + R[ro + 7] * res[fo + 1] + R[ro + 8] * res[fo + 2];
    const tx = R[ro] * res[fo + 3] + R[ro + 1] * res[fo + 4] + R[ro + 2] * res[fo + 5],
      ty = R[ro + 3] * res[fo + 3] + R[ro + 4] * res[fo + 4] + R[ro + 5] * res[fo + 5],
      tz = R[ro + 6] * res[fo + 3] + R[ro + 7] * res[fo + 4] + R[ro + 8] * res[fo + 5];
    // τ + r × f
    const rx = lev[l],
      ry = lev[l + 1],
      rz = lev[l + 2];
    out[o] += factor * fx;
    out[o + 1] += factor * fy;
    out[o + 2] += factor * fz;
    out[o + 3] += factor * (tx + ry * fz - rz * fy);
    out[o + 4] += factor * (ty + rz * fx - rx * fz);
    out[o + 5] += factor * (tz + rx * fy - ry * fx);
  }
}

/** Scratch of emitLeveredMatrix: −[r]×, A (12×12), k·A and Aᵀ·k·A. */
export class LeverScratch {
  readonly S = new Float64Array(9);
  readonly A = new Float64Array(144);
  readonly KA = new Float64Array(144);
  readonly G = new Float64Array(144);
  readonly blk = new Float64Array(9);
}

/**
 * Emits factor·Aᵀ·k·A of one beam (k 12×12 row-major at K[ko..]) as 16 blocks 3×3 on the dofs of
 * frames n0, n1 (6 per frame), in the order the aligned emission uses.
 */
export function emitLeveredMatrix(
  acc: MatrixAccumulator,
  K: Float64Array,
  ko: number,
  R: Float64Array,
  ro: number,
  lev: Float64Array,
  lo: number,
  n0: number,
  n1: number,
  factor: number,
  s: LeverScratch,
): void {
  const A = s.A,
    KA = s.KA,
    G = s.G,
    S = s.S;
  A.fill(0);
  for (let e = 0; e < 2; e++) {
    const l = lo + 3 * e,
      rx = lev[l],
      ry = lev[l + 1],
      rz = lev[l + 2];
    // S = −[r]× (row-major): v + ω × r = v + S·ω
    S[0] = S[4] = S[8] = 0;
    S[1] = rz;
    S[2] = -ry;
    S[3] = -rz;
    S[5] = rx;
    S[6] = ry;
    S[7] = -rx;
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 3; c++) {
        const Rt = R[ro + 3 * c + r];
        A[12 * (6 * e + r) + 6 * e + c] = Rt;
        A[12 * (6 * e + 3 + r) + 6 * e + 3 + c] = Rt;
        let m = 0;
        for (let k = 0; k < 3; k++) m += R[ro + 3 * k + r] * S[3 * k + c];
        A[12 * (6 * e + r) + 6 * e + 3 + c] = m;
      }
  }
  for (let r = 0; r < 12; r++)
    for (let c = 0; c < 12; c++) {
      let v = 0;
      for (let k = 0; k < 12; k++) v += K[ko + 12 * r + k] * A[12 * k + c];
      KA[12 * r + c] = v;
    }
  for (let r = 0; r < 12; r++)
    for (let c = 0; c < 12; c++) {
      let v = 0;
      for (let k = 0; k < 12; k++) v += A[12 * k + r] * KA[12 * k + c];
      G[12 * r + c] = v;
    }
  const blk = s.blk;
  for (let bi = 0; bi < 4; bi++)
    for (let bj = 0; bj < 4; bj++) {
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) blk[3 * r + c] = G[12 * (3 * bi + r) + 3 * bj + c];
      const row = (bi < 2 ? 6 * n0 : 6 * n1) + 3 * (bi % 2),
        col = (bj < 2 ? 6 * n0 : 6 * n1) + 3 * (bj % 2);
      addBlock3(acc, row, col, blk, 0, factor);
    }
}
