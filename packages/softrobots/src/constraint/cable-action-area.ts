import { MinHeap } from '@sofa-ts/core';

/**
 * The pulled areas of SoftRobots' CableConstraint with `method` sphere or geodesic: instead of one
 * point, the cable's attachment k pulls the points of a surface around it, each with a weight, and
 * the cable's row on p_k (−∂L/∂p_k, cable-geometry.ts) is shared among them:
 *
 *   J(area point j of attachment k) = w_kj · (−∂L/∂p_k),   w_kj = (r_k − d_kj) / Σ_j (r_k − d_kj)
 *
 * over the points j with distance d_kj < r_k (r_k the attachment's radius) that are connected to
 * the attachment through the surface's edges. The distance is
 *   - geodesic: the shortest path along the surface's edges (Dijkstra), from the attachment point;
 *     an attachment given by a centre c off the vertices starts at the three corners t of the
 *     surface triangle closest to c (among the triangles around the vertex closest to c), at
 *     |c − c'| + |c' − t| with c' the closest point of that triangle;
 *   - sphere: the straight distance to the attachment point p_k of the cable's state, the area
 *     still being grown along the surface's edges from the attachment.
 * (SoftRobots grows the geodesic area from the closest vertex only, its two other corners keeping
 * their start distances; here the three corners are sources of the same search, the shortest
 * paths the method's name promises.)
 */

export type CableAreaMethod = 'sphere' | 'geodesic';

/** One attachment's pulled area: the surface points and their weights (summing to 1). */
export interface CableArea {
  readonly points: Uint32Array;
  readonly weights: Float64Array;
}

/** The surface the areas lie on: point coordinates (3 per point) and triangles (3 indices each). */
export interface CableSurface {
  readonly positions: ArrayLike<number>;
  readonly triangles: ArrayLike<number>;
}

/** Index of the surface point closest to c (the first one on ties). */
export function closestSurfacePoint(positions: ArrayLike<number>, c: ArrayLike<number>): number {
  let best = 0;
  let bestD = Infinity;
  for (let i = 0; 3 * i < positions.length; i++) {
    const d = Math.hypot(positions[3 * i] - c[0], positions[3 * i + 1] - c[1], positions[3 * i + 2] - c[2]);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/**
 * The point of triangle (a, b, c) closest to p, into out; returns its distance to p (the Voronoi
 * regions of the vertices, edges and face, Ericson's "Real-Time Collision Detection" §5.1.5).
 */
export function closestPointOnTriangle(
  p: ArrayLike<number>,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  c: ArrayLike<number>,
  out: Float64Array,
): number {
  const ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const ac = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
  const ap = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
  const dot = (u: number[], v: number[]): number => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const set = (o: ArrayLike<number>, u: number, du: number[], v: number, dv: number[]): void => {
    for (let k = 0; k < 3; k++) out[k] = o[k] + u * du[k] + v * dv[k];
  };
  const d1 = dot(ab, ap),
    d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) set(a, 0, ab, 0, ac);
  else {
    const bp = [p[0] - b[0], p[1] - b[1], p[2] - b[2]];
    const d3 = dot(ab, bp),
      d4 = dot(ac, bp);
    const cp = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
    const d5 = dot(ab, cp),
      d6 = dot(ac, cp);
    const vc = d1 * d4 - d3 * d2,
      vb = d5 * d2 - d1 * d6,
      va = d3 * d6 - d5 * d4;
    if (d3 >= 0 && d4 <= d3) set(b, 0, ab, 0, ac);
    else if (d6 >= 0 && d5 <= d6) set(c, 0, ab, 0, ac);
    else if (vc <= 0 && d1 >= 0 && d3 <= 0) set(a, d1 / (d1 - d3), ab, 0, ac);
    else if (vb <= 0 && d2 >= 0 && d6 <= 0) set(a, 0, ab, d2 / (d2 - d6), ac);
    else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
      const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
      const bc = [c[0] - b[0], c[1] - b[1], c[2] - b[2]];
      set(b, w, bc, 0, ac);
    } else {
      const denom = 1 / (va + vb + vc);
      set(a, vb * denom, ab, vc * denom, ac);
    }
  }
  return Math.hypot(p[0] - out[0], p[1] - out[1], p[2] - out[2]);
}

/** Neighbours of every surface point through the triangles' edges (CSR: start, list). */
function adjacency(nPoints: number, triangles: ArrayLike<number>): { start: Int32Array; list: Int32Array } {
  const sets: Set<number>[] = Array.from({ length: nPoints }, () => new Set<number>());
  for (let t = 0; t < triangles.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const i = triangles[t + k],
        j = triangles[t + ((k + 1) % 3)];
      sets[i].add(j);
      sets[j].add(i);
    }
  }
  const start = new Int32Array(nPoints + 1);
  for (let i = 0; i < nPoints; i++) start[i + 1] = start[i] + sets[i].size;
  const list = new Int32Array(start[nPoints]);
  for (let i = 0; i < nPoints; i++)
    list.set(
      [...sets[i]].sort((a, b) => a - b),
      start[i],
    );
  return { start, list };
}

/**
 * The pulled area of one attachment: `vertex` is its surface point (the one closest to `center`
 * when a centre is given), `attachment` the position of the cable's point there (the sphere's
 * centre), `radius` r. See the file comment.
 */
export function cableArea(
  surface: CableSurface,
  method: CableAreaMethod,
  vertex: number,
  attachment: ArrayLike<number>,
  radius: number,
  center: ArrayLike<number> | undefined,
  neighbours = adjacency(surface.positions.length / 3, surface.triangles),
): CableArea {
  const x = surface.positions;
  const n = x.length / 3;
  const dist = new Float64Array(n).fill(Infinity);
  const heap = new MinHeap();
  const at = (i: number): ArrayLike<number> => [x[3 * i], x[3 * i + 1], x[3 * i + 2]];
  const straight = (i: number): number => Math.hypot(x[3 * i] - attachment[0], x[3 * i + 1] - attachment[1], x[3 * i + 2] - attachment[2]);
  const seed = (i: number, d: number): void => {
    if (d < dist[i]) {
      dist[i] = d;
      heap.push(d, i);
    }
  };
  if (center) {
    // the closest point c' of the triangles around the closest vertex
    const tri = surface.triangles;
    const proj = new Float64Array(3);
    let best = -1;
    let bestD = Infinity;
    const bestProj = new Float64Array(3);
    for (let t = 0; t < tri.length; t += 3) {
      if (tri[t] !== vertex && tri[t + 1] !== vertex && tri[t + 2] !== vertex) continue;
      const d = closestPointOnTriangle(center, at(tri[t]), at(tri[t + 1]), at(tri[t + 2]), proj);
      if (d < bestD) {
        bestD = d;
        best = t;
        bestProj.set(proj);
      }
    }
    if (best < 0) seed(vertex, method === 'geodesic' ? 0 : straight(vertex));
    else
      for (let k = 0; k < 3; k++) {
        const v = tri[best + k];
        const inPlane = Math.hypot(x[3 * v] - bestProj[0], x[3 * v + 1] - bestProj[1], x[3 * v + 2] - bestProj[2]);
        seed(v, method === 'geodesic' ? bestD + inPlane : straight(v));
      }
  } else seed(vertex, method === 'geodesic' ? 0 : straight(vertex));
  while (heap.size > 0) {
    const [d, v] = heap.pop();
    if (d > dist[v] || d >= radius) continue; // a stale entry, or beyond the area: not grown from
    for (let e = neighbours.start[v]; e < neighbours.start[v + 1]; e++) {
      const w = neighbours.list[e];
      const dw =
        method === 'geodesic' ? d + Math.hypot(x[3 * w] - x[3 * v], x[3 * w + 1] - x[3 * v + 1], x[3 * w + 2] - x[3 * v + 2]) : straight(w);
      seed(w, dw);
    }
  }
  const points: number[] = [];
  const weights: number[] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    if (!(dist[i] < radius)) continue;
    points.push(i);
    weights.push(radius - dist[i]);
    total += radius - dist[i];
  }
  return { points: Uint32Array.from(points), weights: Float64Array.from(weights, (w) => (total > 0 ? w / total : 0)) };
}

/** The adjacency cableArea grows along, to share between the attachments of one cable. */
export function surfaceNeighbours(surface: CableSurface): { start: Int32Array; list: Int32Array } {
  return adjacency(surface.positions.length / 3, surface.triangles);
}
