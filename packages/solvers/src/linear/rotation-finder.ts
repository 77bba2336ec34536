import type { BaseObject } from '@sofa-ts/core';

/**
 * SOFA's BaseRotationFinder: a component (a corotational force field) that gives one rotation per
 * node of its state, the rotation of the material around the node since the rest shape. Warped
 * preconditioners turn a factorised matrix with them.
 */
export interface RotationFinder {
  readonly isRotationFinder: true;
  /** out (n·9, row-major 3x3 per node) = the current rotation of each node. */
  getNodeRotations(out: Float64Array): void;
}

export function isRotationFinder(o: unknown): o is RotationFinder {
  return typeof o === 'object' && o !== null && (o as { isRotationFinder?: unknown }).isRotationFinder === true;
}

/** The first rotation finder of the node of `who`. */
export function findRotationFinder(who: BaseObject): RotationFinder | undefined {
  return who.context.objects.find(isRotationFinder) as RotationFinder | undefined;
}

/** out = R·v (transpose: Rᵀ·v) for per-node 3x3 blocks R (n·9) of a vector of 3D points. */
export function rotateBlocks(out: Float64Array, R: Float64Array, v: Float64Array, transpose: boolean): void {
  const n = Math.min(R.length / 9, v.length / 3);
  // output k reads R's row k (3k, 3k+1, 3k+2), or its column k (k, k+3, k+6) for Rᵀ
  const row = transpose ? 1 : 3,
    col = transpose ? 3 : 1;
  for (let i = 0; i < n; i++) {
    const r = 9 * i;
    const a = v[3 * i],
      b = v[3 * i + 1],
      c = v[3 * i + 2];
    out[3 * i] = R[r] * a + R[r + col] * b + R[r + 2 * col] * c;
    out[3 * i + 1] = R[r + row] * a + R[r + row + col] * b + R[r + row + 2 * col] * c;
    out[3 * i + 2] = R[r + 2 * row] * a + R[r + 2 * row + col] * b + R[r + 2 * row + 2 * col] * c;
  }
  for (let i = 3 * n; i < v.length; i++) out[i] = v[i];
}

/** Identity rotations for n nodes. */
export function identityRotations(out: Float64Array): void {
  out.fill(0);
  for (let i = 0; i < out.length; i += 9) out[i] = out[i + 4] = out[i + 8] = 1;
}

/** out = A·Bᵀ per node (n·9 row-major blocks): the rotation from the frame of B to that of A. */
export function relativeRotations(out: Float64Array, A: Float64Array, B: Float64Array): void {
  for (let b = 0; b < out.length; b += 9) {
    const a0 = A[b],
      a1 = A[b + 1],
      a2 = A[b + 2],
      a3 = A[b + 3],
      a4 = A[b + 4],
      a5 = A[b + 5],
      a6 = A[b + 6],
      a7 = A[b + 7],
      a8 = A[b + 8];
    const b0 = B[b],
      b1 = B[b + 1],
      b2 = B[b + 2],
      b3 = B[b + 3],
      b4 = B[b + 4],
      b5 = B[b + 5],
      b6 = B[b + 6],
      b7 = B[b + 7],
      b8 = B[b + 8];
    // out(i, j) = A(i, 0)·B(j, 0) + A(i, 1)·B(j, 1) + A(i, 2)·B(j, 2)
    out[b] = a0 * b0 + a1 * b1 + a2 * b2;
    out[b + 1] = a0 * b3 + a1 * b4 + a2 * b5;
    out[b + 2] = a0 * b6 + a1 * b7 + a2 * b8;
    out[b + 3] = a3 * b0 + a4 * b1 + a5 * b2;
    out[b + 4] = a3 * b3 + a4 * b4 + a5 * b5;
    out[b + 5] = a3 * b6 + a4 * b7 + a5 * b8;
    out[b + 6] = a6 * b0 + a7 * b1 + a8 * b2;
    out[b + 7] = a6 * b3 + a7 * b4 + a8 * b5;
    out[b + 8] = a6 * b6 + a7 * b7 + a8 * b8;
  }
}
