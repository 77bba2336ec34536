import { matVec24 } from '../element-matrix.js';

/**
 * Shared data of the parallel hexahedron product (all on SharedArrayBuffers):
 *   out (3·nPoints + 3·nDeferred): df, then the deferred slots; outIdx (nElem × 8): where element
 *   e adds its node c (an index into out); v (3·nPoints): dx; elems (nElem × 8); rot (nElem × 9);
 *   kPool (nMatrices × 576) and kOf (nElem): the element stiffness matrices.
 */
export interface HexahedronProductData {
  out: Float64Array;
  outIdx: Int32Array;
  v: Float64Array;
  elems: Uint32Array;
  rot: Float64Array;
  kPool: Float64Array;
  kOf: Uint32Array;
}

const X = new Float64Array(24),
  F = new Float64Array(24);

/**
 * out[outIdx] += −k·Rᵀ·K_e·R·dx for hexahedra e0 … e1−1, with the operations and order of
 * HexahedronFEMForceField.addDForce (bit for bit the same contributions).
 */
export function hexahedronDForceRange(d: HexahedronProductData, k: number, e0: number, e1: number): void {
  const { out, outIdx, v, elems, rot, kPool, kOf } = d;
  for (let e = e0; e < e1; e++) {
    const r = 9 * e;
    const r0 = rot[r],
      r1 = rot[r + 1],
      r2 = rot[r + 2],
      r3 = rot[r + 3],
      r4 = rot[r + 4],
      r5 = rot[r + 5],
      r6 = rot[r + 6],
      r7 = rot[r + 7],
      r8 = rot[r + 8];
    // X = R·dx
    for (let c = 0; c < 8; c++) {
      const q = 3 * elems[8 * e + c];
      const px = v[q],
        py = v[q + 1],
        pz = v[q + 2];
      X[3 * c] = r0 * px + r1 * py + r2 * pz;
      X[3 * c + 1] = r3 * px + r4 * py + r5 * pz;
      X[3 * c + 2] = r6 * px + r7 * py + r8 * pz;
    }
    // F = −k·K·X
    matVec24(F, kPool, 576 * kOf[e], X, -k);
    // out += Rᵀ·F
    for (let c = 0; c < 8; c++) {
      const q = outIdx[8 * e + c];
      const fx = F[3 * c],
        fy = F[3 * c + 1],
        fz = F[3 * c + 2];
      out[q] += r0 * fx + r3 * fy + r6 * fz;
      out[q + 1] += r1 * fx + r4 * fy + r7 * fz;
      out[q + 2] += r2 * fx + r5 * fy + r8 * fz;
    }
  }
}

/** ThreadPool kernel: args = (k, e0, e1). */
export function hexahedronDForceJob(data: unknown, args: Float64Array): void {
  hexahedronDForceRange(data as HexahedronProductData, args[0], args[1], args[2]);
}
