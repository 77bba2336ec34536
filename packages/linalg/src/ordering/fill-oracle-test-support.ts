/**
 * Test oracles for orderings (not exported from the package): plain graph elimination with Sets.
 * Eliminating v connects all its remaining neighbours; column v of L has one entry per remaining
 * neighbour, so Σ |neighbours at elimination| = nnz(L) below the diagonal.
 */

/** Undirected adjacency sets of the symmetrised pattern (diagonal ignored). */
export function adjacencySets(n: number, rowPtr: ArrayLike<number>, colInd: ArrayLike<number>): Set<number>[] {
  const adj = Array.from({ length: n }, () => new Set<number>());
  for (let i = 0; i < n; i++) {
    for (let k = rowPtr[i]; k < rowPtr[i + 1]; k++) {
      const j = colInd[k];
      if (j !== i) {
        adj[i].add(j);
        adj[j].add(i);
      }
    }
  }
  return adj;
}

function eliminate(adj: Set<number>[], v: number): number {
  const nb = [...adj[v]];
  for (const a of nb) {
    adj[a].delete(v);
    for (const b of nb) if (a !== b) adj[a].add(b);
  }
  adj[v].clear();
  return nb.length;
}

/** nnz of the strict lower triangle of L for elimination order perm (new → old). */
export function eliminationFill(n: number, rowPtr: ArrayLike<number>, colInd: ArrayLike<number>, perm: ArrayLike<number>): number {
  const adj = adjacencySets(n, rowPtr, colInd);
  let fill = 0;
  for (let k = 0; k < n; k++) fill += eliminate(adj, perm[k]);
  return fill;
}

/** Exact minimum degree (ties: smallest index) by explicit elimination; returns perm and fill. */
export function exactMinimumDegree(n: number, rowPtr: ArrayLike<number>, colInd: ArrayLike<number>): { perm: number[]; fill: number } {
  const adj = adjacencySets(n, rowPtr, colInd);
  const done = new Uint8Array(n);
  const perm: number[] = [];
  let fill = 0;
  for (let k = 0; k < n; k++) {
    let best = -1;
    for (let v = 0; v < n; v++) if (!done[v] && (best < 0 || adj[v].size < adj[best].size)) best = v;
    done[best] = 1;
    perm.push(best);
    fill += eliminate(adj, best);
  }
  return { perm, fill };
}

/** Multiply-adds of eliminating in order perm: Σ c(c + 1)/2 over the c neighbours each vertex has left when eliminated. */
export function eliminationWork(n: number, rowPtr: ArrayLike<number>, colInd: ArrayLike<number>, perm: ArrayLike<number>): number {
  const adj = adjacencySets(n, rowPtr, colInd);
  let work = 0;
  for (let k = 0; k < n; k++) {
    const c = eliminate(adj, perm[k]);
    work += (c * (c + 1)) / 2;
  }
  return work;
}
