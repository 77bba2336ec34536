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
  for (let i = 0; i < n; i++) {
    const r = 9 * i;
    const a = v[3 * i];
    const b = v[3 * i + 1];
    const c = v[3 * i + 2];
    for (let k = 0; k < 3; k++) {
      out[3 * i + k] = transpose
        ? R[r + k] * a + R[r + 3 + k] * b + R[r + 6 + k] * c
        : R[r + 3 * k] * a + R[r + 3 * k + 1] * b + R[r + 3 * k + 2] * c;
    }
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
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++)
        out[b + 3 * i + j] = A[b + 3 * i] * B[b + 3 * j] + A[b + 3 * i + 1] * B[b + 3 * j + 1] + A[b + 3 * i + 2] * B[b + 3 * j + 2];
  }
}
