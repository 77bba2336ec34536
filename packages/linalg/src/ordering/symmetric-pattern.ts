/** Adjacency of an undirected graph in compressed form: neighbours of i are ind[ptr[i] .. ptr[i+1]). */
export interface Adjacency {
  /** (n + 1) offsets */
  ptr: Int32Array;
  /** (ptr[n]) neighbour indices, sorted within a row, no self loops, no duplicates */
  ind: Int32Array;
}

/**
 * Graph of the symmetrised pattern of an n x n matrix: i ~ j iff (i, j) or (j, i) is stored, i ≠ j.
 * Accepts a full symmetric pattern, either triangle, or an unsymmetric one (A + Aᵀ is used).
 * Column indices need not be sorted or unique. Allocates (ordering is init-time work).
 */
export function symmetricAdjacency(n: number, rowPtr: ArrayLike<number>, colInd: ArrayLike<number>): Adjacency {
  // Count both (i, j) and (j, i) for every off-diagonal entry, then deduplicate per row.
  const cnt = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
      const j = colInd[k];
      if (!(j >= 0 && j < n)) throw new Error(`symmetricAdjacency: column ${j} out of range in row ${i}`);
      if (j !== i) {
        cnt[i + 1]++;
        cnt[j + 1]++;
      }
    }
  }
  for (let i = 0; i < n; i++) cnt[i + 1] += cnt[i];
  const next = cnt.slice(0, n);
  const tmp = new Int32Array(cnt[n]);
  for (let i = 0; i < n; i++) {
    for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
      const j = colInd[k];
      if (j !== i) {
        tmp[next[i]++] = j;
        tmp[next[j]++] = i;
      }
    }
  }
  const ptr = new Int32Array(n + 1);
  let q = 0;
  for (let i = 0; i < n; i++) {
    const row = tmp.subarray(cnt[i], cnt[i + 1]);
    row.sort();
    const start = q;
    for (let t = 0; t < row.length; t++) {
      if (t === 0 || row[t] !== row[t - 1]) tmp[q++] = row[t];
    }
    ptr[i + 1] = ptr[i] + (q - start);
  }
  return { ptr, ind: tmp.slice(0, q) };
}
