/**
 * Permutations are stored "new to old": perm[k] = original index placed at position k.
 * The inverse ("old to new") is pinv[perm[k]] = k.
 */

/** pinv (n) with pinv[perm[k]] = k. Throws if perm is not a permutation of 0..n-1. */
export function invertPermutation(perm: ArrayLike<number>, out: Int32Array = new Int32Array(perm.length)): Int32Array {
  const n = perm.length;
  out.fill(-1, 0, n);
  for (let k = 0; k < n; k++) {
    const i = perm[k];
    if (!(i >= 0 && i < n) || (i | 0) !== i || out[i] !== -1) throw new Error(`invertPermutation: not a permutation (entry ${k} = ${i})`);
    out[i] = k;
  }
  return out;
}

/** Whether perm holds each of 0..n-1 exactly once. */
export function isPermutation(perm: ArrayLike<number>, n: number = perm.length): boolean {
  if (perm.length !== n) return false;
  const seen = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    const i = perm[k];
    if (!(i >= 0 && i < n) || (i | 0) !== i || seen[i]) return false;
    seen[i] = 1;
  }
  return true;
}
