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

/**
 * out = −Rᵀ·K·R blockwise: for a symmetric element matrix K of n Vec3 nodes ((3n)², row-major,
 * starting at kOffset) and the element rotation R (9 values at rOffset, rows = element frame),
 * out_ij = −Rᵀ·K_ij·R, computed for j ≥ i and mirrored (out_ji = out_ijᵀ). The corotational
 * stiffness of SOFA's tetrahedra and hexahedra: the rest stiffness turned by the last rotation.
 */
export function rotatedElementStiffness(out: Float64Array, K: Float64Array, kOffset: number, n: number, R: Float64Array, rOffset: number): Float64Array {
  const stride = 3 * n;
  const r0 = R[rOffset]!, r1 = R[rOffset + 1]!, r2 = R[rOffset + 2]!;
  const r3 = R[rOffset + 3]!, r4 = R[rOffset + 4]!, r5 = R[rOffset + 5]!;
  const r6 = R[rOffset + 6]!, r7 = R[rOffset + 7]!, r8 = R[rOffset + 8]!;
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      const b = 3 * stride * i + 3 * j, k = kOffset + b;
      const b00 = K[k]!, b01 = K[k + 1]!, b02 = K[k + 2]!;
      const b10 = K[k + stride]!, b11 = K[k + stride + 1]!, b12 = K[k + stride + 2]!;
      const b20 = K[k + 2 * stride]!, b21 = K[k + 2 * stride + 1]!, b22 = K[k + 2 * stride + 2]!;
      // T = K_ij·R
      const t00 = b00 * r0 + b01 * r3 + b02 * r6, t01 = b00 * r1 + b01 * r4 + b02 * r7, t02 = b00 * r2 + b01 * r5 + b02 * r8;
      const t10 = b10 * r0 + b11 * r3 + b12 * r6, t11 = b10 * r1 + b11 * r4 + b12 * r7, t12 = b10 * r2 + b11 * r5 + b12 * r8;
      const t20 = b20 * r0 + b21 * r3 + b22 * r6, t21 = b20 * r1 + b21 * r4 + b22 * r7, t22 = b20 * r2 + b21 * r5 + b22 * r8;
      // W = −Rᵀ·T
      const w00 = -(r0 * t00 + r3 * t10 + r6 * t20), w01 = -(r0 * t01 + r3 * t11 + r6 * t21), w02 = -(r0 * t02 + r3 * t12 + r6 * t22);
      const w10 = -(r1 * t00 + r4 * t10 + r7 * t20), w11 = -(r1 * t01 + r4 * t11 + r7 * t21), w12 = -(r1 * t02 + r4 * t12 + r7 * t22);
      const w20 = -(r2 * t00 + r5 * t10 + r8 * t20), w21 = -(r2 * t01 + r5 * t11 + r8 * t21), w22 = -(r2 * t02 + r5 * t12 + r8 * t22);
      out[b] = w00; out[b + 1] = w01; out[b + 2] = w02;
      out[b + stride] = w10; out[b + stride + 1] = w11; out[b + stride + 2] = w12;
      out[b + 2 * stride] = w20; out[b + 2 * stride + 1] = w21; out[b + 2 * stride + 2] = w22;
      if (j !== i) {
        const c = 3 * stride * j + 3 * i;
        out[c] = w00; out[c + 1] = w10; out[c + 2] = w20;
        out[c + stride] = w01; out[c + stride + 1] = w11; out[c + stride + 2] = w21;
        out[c + 2 * stride] = w02; out[c + 2 * stride + 1] = w12; out[c + 2 * stride + 2] = w22;
      }
    }
  }
  return out;
}
