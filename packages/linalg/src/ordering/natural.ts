/** The identity ordering perm[k] = k (new index k takes original index k). */
export function naturalOrdering(n: number): Int32Array {
  const perm = new Int32Array(n);
  for (let k = 0; k < n; k++) perm[k] = k;
  return perm;
}
