import type { BaseObject } from '@sofa-ts/core';

/**
 * SOFA's plane selection of the pressure force fields: the elements (of `size` vertices in `elems`)
 * whose vertices all satisfy dmin < x0_v·normal < dmax at rest. Returns their indices.
 */
export function selectAlongPlane(
  c: BaseObject,
  elems: Uint32Array,
  size: number,
  x0: Float64Array,
  normal: Float64Array,
  dmin: number,
  dmax: number,
): number[] {
  if (normal.length !== 3) throw c.error(`'normal' needs 3 numbers to select elements between dmin and dmax, got ${normal.length}`);
  const inside = (v: number): boolean => {
    const d = x0[3 * v] * normal[0] + x0[3 * v + 1] * normal[1] + x0[3 * v + 2] * normal[2];
    return d > dmin && d < dmax;
  };
  const out: number[] = [];
  for (let e = 0; e + size <= elems.length; e += size) {
    let all = true;
    for (let k = 0; k < size && all; k++) all = inside(elems[e + k]);
    if (all) out.push(e / size);
  }
  return out;
}
