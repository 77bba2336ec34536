import { applyRemoval } from '@sofa-ts/core';

// Per-element arrays of corotational tetrahedra through a topological change (as SOFA's
// TetrahedralCorotationalFEMForceField handles them): a removed element's slot receives the last
// element's data; added elements get zeroed slots at the end, filled by their initialisation.
// Loops of the topological changes are kept in small functions: quick to optimise.

/** The array of n elements of `stride` values without the removed ones (the last ones moved into their slots); arrays of another length are kept. */
export function withoutRemovedElements<T extends Float64Array | Uint32Array>(
  a: T,
  stride: number,
  n: number,
  removed: ArrayLike<number>,
): T {
  if (a.length !== n * stride) return a;
  applyRemoval(a, stride, n, removed);
  return a.subarray(0, (n - removed.length) * stride) as unknown as T;
}

/** The array of n elements of `stride` values grown by k zeroed elements; arrays of another length are kept. */
export function withAddedElements<T extends Float64Array | Uint32Array>(a: T, stride: number, n: number, k: number): T {
  if (a.length !== n * stride) return a;
  const b = new (a.constructor as new (len: number) => T)((n + k) * stride);
  b.set(a);
  return b;
}

/** Σ values[i] over the indices below n. */
export function sumAt(values: Float64Array, indices: ArrayLike<number>, n: number): number {
  let s = 0;
  for (let r = 0; r < indices.length; r++) if (indices[r] < n) s += values[indices[r]];
  return s;
}

/** Renames the indices of `a` with a removal's index map (removalIndexMap). */
export function renameInPlace(a: Uint32Array, map: Int32Array): void {
  for (let i = 0; i < a.length; i++) a[i] = map[a[i]];
}
