import { symmetricAdjacency, type Adjacency } from './symmetric-pattern.js';

/**
 * Reverse Cuthill–McKee ordering (Cuthill & McKee, "Reducing the bandwidth of sparse symmetric
 * matrices", 1969; reversed as George showed, which never increases the profile): each connected
 * component of the symmetrised pattern is numbered breadth-first from a pseudo-peripheral vertex
 * (George & Liu: breadth-first searches repeated from a least-degree vertex of the last level while
 * the eccentricity grows), the unnumbered neighbours of each vertex taken by increasing degree
 * (ties by index), and the whole numbering is reversed. The factor of a slender mesh (a beam, a
 * trunk, a cable) then fills only a band about one cross-section wide.
 *
 * Input and output as {@link amdOrdering}: perm (n), new → old. Allocates (analysis-time work).
 */
export function reverseCuthillMcKee(n: number, rowPtr: ArrayLike<number>, colInd: ArrayLike<number>): Int32Array {
  return reverseCuthillMcKeeOfGraph(n, symmetricAdjacency(n, rowPtr, colInd));
}

/** {@link reverseCuthillMcKee} of a graph already symmetrised (symmetricAdjacency's). */
export function reverseCuthillMcKeeOfGraph(n: number, { ptr, ind }: Adjacency): Int32Array {
  const degree = (v: number): number => ptr[v + 1] - ptr[v];
  const order = new Int32Array(n); // Cuthill–McKee order, reversed at the end
  const numbered = new Uint8Array(n);
  const level = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  const byDegree = (a: number, b: number): number => degree(a) - degree(b) || a - b;

  // Breadth-first search of v's component (not yet numbered) from root; returns the vertices met in
  // order and leaves their levels in `level` (reset first for the vertices of the last search).
  let reached = 0;
  const search = (root: number): number => {
    for (let k = 0; k < reached; k++) level[queue[k]] = -1;
    let tail = 0;
    queue[tail++] = root;
    level[root] = 0;
    for (let head = 0; head < tail; head++) {
      const v = queue[head];
      for (let k = ptr[v]; k < ptr[v + 1]; k++) {
        const u = ind[k];
        if (level[u] < 0 && !numbered[u]) {
          level[u] = level[v] + 1;
          queue[tail++] = u;
        }
      }
    }
    reached = tail;
    return tail;
  };

  let next = 0;
  const neighbours: number[] = [];
  for (let start = 0; start < n; start++) {
    if (numbered[start]) continue;
    // Pseudo-peripheral root: from the farthest level's least-degree vertex while that goes farther.
    let root = start;
    let size = search(root);
    let eccentricity = level[queue[size - 1]];
    for (let tries = 0; tries < 16; tries++) {
      let candidate = queue[size - 1];
      for (let k = size - 1; k >= 0 && level[queue[k]] === eccentricity; k--) {
        const v = queue[k];
        if (degree(v) < degree(candidate) || (degree(v) === degree(candidate) && v < candidate)) candidate = v;
      }
      size = search(candidate);
      const e = level[queue[size - 1]];
      if (e <= eccentricity) break;
      root = candidate;
      eccentricity = e;
    }
    for (let k = 0; k < reached; k++) level[queue[k]] = -1;
    reached = 0;

    // Cuthill–McKee from the root: neighbours by increasing degree.
    const first = next;
    order[next++] = root;
    numbered[root] = 1;
    for (let head = first; head < next; head++) {
      const v = order[head];
      neighbours.length = 0;
      for (let k = ptr[v]; k < ptr[v + 1]; k++) {
        const u = ind[k];
        if (!numbered[u]) {
          numbered[u] = 1;
          neighbours.push(u);
        }
      }
      neighbours.sort(byDegree);
      for (const u of neighbours) order[next++] = u;
    }
  }
  return order.reverse();
}
