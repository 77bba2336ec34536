/**
 * Neighbourhood tables the collision models need, computed from the topology's element arrays the
 * way SOFA's topology containers order them (lists "around" an element in increasing order, except
 * triangles around an edge, where a triangle running along the edge in the edge's stored direction
 * goes first). Built at init, or again when the topology changes.
 */

/** Key of an unordered pair of point indices. */
function pairKey(a: number, b: number): number {
  return a < b ? a * 4294967296 + b : b * 4294967296 + a;
}

/** For each point, the edges that use it (increasing edge index). */
export function edgesAroundVertex(edges: Uint32Array, nPoints: number): number[][] {
  const out: number[][] = Array.from({ length: nPoints }, () => []);
  for (let e = 0; e < edges.length / 2; e++) {
    out[edges[2 * e]]?.push(e);
    out[edges[2 * e + 1]]?.push(e);
  }
  return out;
}

/** For each point, the other end of its edges (SOFA's verticesAroundVertex). */
export function verticesAroundVertex(edges: Uint32Array, nPoints: number): number[][] {
  const out: number[][] = Array.from({ length: nPoints }, () => []);
  for (let e = 0; e < edges.length / 2; e++) {
    const a = edges[2 * e],
      b = edges[2 * e + 1];
    out[a]?.push(b);
    out[b]?.push(a);
  }
  return out;
}

/**
 * SOFA's TriangleCollisionModel flags of each triangle of `triangles` (the topology's own
 * triangles): FLAG_P1 << j when the triangle is the first around its vertex j, FLAG_E23 << j when it
 * is the first around its edge j (the edge opposite vertex j), FLAG_BE23 << j when that edge has no
 * other triangle. `edges` are the topology's edges (their stored direction orders the triangles
 * around them); edges missing from it count as owned by the first triangle that has them.
 */
export function triangleFlags(triangles: Uint32Array, edges: Uint32Array, nPoints: number): Int32Array {
  const nT = triangles.length / 3;
  const flags = new Int32Array(nT);
  const firstAtVertex = new Int32Array(nPoints).fill(-1);
  for (let t = 0; t < nT; t++) {
    for (let j = 0; j < 3; j++) {
      const v = triangles[3 * t + j];
      if (firstAtVertex[v] === -1) firstAtVertex[v] = t;
    }
  }
  // The stored direction of each edge (first edge of the topology joining the two points).
  const edgeStart = new Map<number, number>();
  for (let e = edges.length / 2 - 1; e >= 0; e--) edgeStart.set(pairKey(edges[2 * e], edges[2 * e + 1]), edges[2 * e]);
  // First triangle around each edge and number of triangles around it.
  const first = new Map<number, number>();
  const count = new Map<number, number>();
  for (let t = 0; t < nT; t++) {
    for (let j = 0; j < 3; j++) {
      const a = triangles[3 * t + ((j + 1) % 3)];
      const b = triangles[3 * t + ((j + 2) % 3)];
      const key = pairKey(a, b);
      count.set(key, (count.get(key) ?? 0) + 1);
      const start = edgeStart.get(key);
      // A triangle along the stored direction goes to the front of the list; others to the back.
      if (start === a || !first.has(key)) first.set(key, t);
    }
  }
  for (let t = 0; t < nT; t++) {
    let f = 0;
    for (let j = 0; j < 3; j++) {
      if (firstAtVertex[triangles[3 * t + j]] === t) f |= 1 << j;
      const key = pairKey(triangles[3 * t + ((j + 1) % 3)], triangles[3 * t + ((j + 2) % 3)]);
      if (first.get(key) === t) f |= 8 << j;
      if (count.get(key) === 1) f |= 64 << j;
    }
    flags[t] = f;
  }
  return flags;
}
