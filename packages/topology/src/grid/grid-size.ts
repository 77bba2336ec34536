import { MAX_POINTS, type BaseObject, type Data } from '@sofa-ts/core';

/**
 * Refuses a grid of n = (nx, ny, nz) points whose total exceeds MAX_POINTS, before its points,
 * cells or voxels are allocated (a located error at `about`, the Data that set the size).
 */
export function checkGridSize(owner: BaseObject, n: readonly number[], about?: Data<unknown>): void {
  const total = n[0] * n[1] * n[2];
  if (!(total <= MAX_POINTS)) {
    throw owner.dataError(
      about ?? owner.name,
      `a grid of ${n.join(' × ')} = ${total.toExponential(2)} points is above the limit of ${MAX_POINTS} points`,
      'lower the resolution (n) or raise cellWidth',
    );
  }
}
