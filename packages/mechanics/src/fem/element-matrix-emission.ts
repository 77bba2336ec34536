import { addBlock3, type MatrixAccumulator } from '@sofa-ts/core';

/**
 * Emits factor·K_e, the (3n × 3n) row-major matrix of an element of n Vec3 nodes, as n² 3x3 blocks
 * at the rows and columns of its nodes `elems[n·e + i]` (the MatrixAccumulator's block fast path;
 * the sequence of entries is the same at every call). `blk` is a 9-value scratch.
 */
export function emitElementMatrix(acc: MatrixAccumulator, K: Float64Array, elems: Uint32Array, e: number, n: number, factor: number, blk: Float64Array): void {
  const stride = 3 * n;
  for (let i = 0; i < n; i++) {
    const ri = 3 * elems[n * e + i]!;
    for (let j = 0; j < n; j++) {
      const o = 3 * stride * i + 3 * j;
      for (let p = 0; p < 3; p++) {
        blk[3 * p] = K[o + stride * p]!;
        blk[3 * p + 1] = K[o + stride * p + 1]!;
        blk[3 * p + 2] = K[o + stride * p + 2]!;
      }
      addBlock3(acc, ri, 3 * elems[n * e + j]!, blk, 0, factor);
    }
  }
}
