/**
 * The boundaries of the regions of a label image as a polygonal mesh (SOFA's VoronoiToMeshEngine,
 * image plugin), in image coordinates:
 *
 * 1. Vertices: every voxel corner (x + ½, y + ½, z + ½) of the interior voxels (1 ≤ x ≤ w − 2, ...)
 *    whose 8 surrounding voxels hold at least 3 different labels; its regions are those labels.
 *    Numbered in the order z, y, x (x fastest).
 * 2. Edges: two vertices one voxel apart along an axis that share at least 3 regions.
 * 3. Cleaning, repeated until none is left, always on the vertex of smallest number: a vertex of
 *    one edge is removed, a vertex of two edges is removed and its two neighbours joined.
 * 4. Merging, repeated on the first edge (p, n) (p < n, by p then n) shorter than minLength (at the
 *    vertices' first positions): n is merged into p (p takes its edges and regions); a merged
 *    vertex ends at the mean of the first positions of the vertices it took. Then step 3 again.
 * 5. Faces: for each pair of regions {r < r2} (at least one a region of the image, not a
 *    background label ≥ mx), the vertices having both; those with at least 2 edges to other points
 *    of the face are chained from the smallest along edges (SOFA's orderFace) and give a face when
 *    the chain closes (its last point joined to its first), else a "singular" face.
 * 6. The mesh: the vertices on a face loop, numbered by their first numbers; the loops' edges; and
 *    the loops (VoronoiToMeshEngine fans each around its centroid).
 */
export interface VoronoiMesh {
  /** Vertex positions in image coordinates (3 per vertex). */
  readonly points: Float64Array;
  readonly edges: Uint32Array;
  /** The face loops, by vertex (indices into points). */
  readonly faces: readonly (readonly number[])[];
  /** Faces whose chain does not close (SOFA's "singular faces"). */
  readonly singularFaces: number;
  /** Edges removed by the merging (SOFA's "removed N edges"). */
  readonly removedEdges: number;
}

/**
 * labels: one channel of one frame (w × h × d, x fastest), already completed with the background
 * labels (see VoronoiToMeshEngine); minLength in voxels.
 */
export function voronoiMesh(labels: ArrayLike<number>, w: number, h: number, d: number, minLength: number, mx: number): VoronoiMesh {
  const at = (x: number, y: number, z: number): number => labels[x + w * (y + h * z)];
  // 1. vertices
  const regions: (number[] | undefined)[] = [];
  const coords: number[] = [];
  const vertexAt = new Uint32Array(w * h * d);
  const l: number[] = [];
  for (let z = 1; z < d - 1; z++)
    for (let y = 1; y < h - 1; y++)
      for (let x = 1; x < w - 1; x++) {
        l.length = 0;
        for (let dz = 0; dz < 2; dz++)
          for (let dy = 0; dy < 2; dy++)
            for (let dx = 0; dx < 2; dx++) {
              const v = at(x + dx, y + dy, z + dz);
              if (!l.includes(v)) l.push(v);
            }
        if (l.length >= 3) {
          regions.push(l.slice().sort((a, b) => a - b));
          coords.push(x + 0.5, y + 0.5, z + 0.5);
          vertexAt[x + w * (y + h * z)] = regions.length;
        }
      }
  const nv = regions.length;
  // 2. edges (a vertex is "in the graph", SOFA's neighbours map, once it has had an edge)
  const nb: (Set<number> | undefined)[] = new Array(nv);
  const link = (a: number, b: number): void => {
    (nb[a] ??= new Set()).add(b);
    (nb[b] ??= new Set()).add(a);
  };
  for (let z = 1; z < d - 1; z++)
    for (let y = 1; y < h - 1; y++)
      for (let x = 1; x < w - 1; x++) {
        const o = x + w * (y + h * z);
        const p1 = vertexAt[o];
        if (p1 === 0) continue;
        for (const s of [1, -1, w, -w, w * h, -w * h]) {
          const p2 = vertexAt[o + s];
          if (p2 !== 0 && shared(regions[p1 - 1]!, regions[p2 - 1]!) >= 3) link(p1 - 1, p2 - 1);
        }
      }
  clean(nb, regions);
  // 4. merging, at the first positions; sums for the means
  const sums = Float64Array.from(coords);
  const counts = new Uint32Array(nv).fill(1);
  const tol2 = minLength * minLength;
  let removedEdges = 0;
  // SOFA scans from the first vertex after each merge; only p and the neighbours of n changed, so no
  // pair starting before the smallest of them is new: the scan restarts there (`from`).
  for (let from = 0; ;) {
    let merged = -1;
    for (let p = from; p < nv && merged < 0; p++) {
      const s = nb[p];
      if (!s) continue;
      for (const n of sorted(s)) {
        if (n <= p) continue;
        const ex = coords[3 * p] - coords[3 * n],
          ey = coords[3 * p + 1] - coords[3 * n + 1],
          ez = coords[3 * p + 2] - coords[3 * n + 2];
        if (ex * ex + ey * ey + ez * ez < tol2) {
          from = p;
          for (const n2 of sorted(nb[n]!)) {
            if (n2 === p) continue;
            if (n2 < from) from = n2;
            s.add(n2);
            const t = nb[n2]!;
            t.add(p);
            t.delete(n);
          }
          s.delete(n);
          nb[n] = undefined;
          const r = new Set([...(regions[p] ?? []), ...(regions[n] ?? [])]);
          regions[p] = [...r].sort((a, b) => a - b);
          regions[n] = undefined;
          for (let c = 0; c < 3; c++) sums[3 * p + c] += sums[3 * n + c];
          counts[p] += counts[n];
          merged = p;
          break;
        }
      }
    }
    if (merged < 0) break;
    removedEdges++;
  }
  for (let p = 0; p < nv; p++) for (let c = 0; c < 3; c++) coords[3 * p + c] = sums[3 * p + c] / counts[p];
  clean(nb, regions);
  // 5. faces by pair of regions, in the order of the pairs
  const facePts = new Map<number, number[]>();
  const pairKeys: [number, number][] = [];
  const keyOf = new Map<string, number>();
  for (let p = 0; p < nv; p++) {
    const rs = regions[p];
    if (!rs) continue;
    for (let i = 0; i < rs.length; i++)
      for (let j = i + 1; j < rs.length; j++) {
        const r = rs[i],
          r2 = rs[j];
        if (!(r2 < mx || r < mx)) continue;
        const key = `${r},${r2}`;
        let k = keyOf.get(key);
        if (k === undefined) {
          k = pairKeys.length;
          keyOf.set(key, k);
          pairKeys.push([r, r2]);
          facePts.set(k, []);
        }
        facePts.get(k)!.push(p);
      }
  }
  const order = pairKeys.map((_, k) => k).sort((a, b) => pairKeys[a][0] - pairKeys[b][0] || pairKeys[a][1] - pairKeys[b][1]);
  const faces: number[][] = [];
  let singularFaces = 0;
  for (const k of order) {
    const all = facePts.get(k)!; // increasing vertex numbers
    const members = new Set(all);
    const pts = all.filter((p) => {
      let c = 0;
      for (const q of nb[p] ?? []) if (members.has(q)) c++;
      return c > 1;
    });
    if (pts.length <= 2) continue;
    const face = orderFace(pts, nb);
    if (face) faces.push(face);
    else singularFaces++;
  }
  // 6. the mesh of the face loops
  const loop: (Set<number> | undefined)[] = new Array(nv);
  for (const f of faces)
    for (let j = 0; j < f.length; j++) {
      const a = f[j === 0 ? f.length - 1 : j - 1],
        b = f[j];
      (loop[a] ??= new Set()).add(b);
      (loop[b] ??= new Set()).add(a);
    }
  const index = new Int32Array(nv).fill(-1);
  let nVertices = 0;
  for (let p = 0; p < nv; p++) if (loop[p]) index[p] = nVertices++;
  const points = new Float64Array(3 * nVertices);
  for (let p = 0; p < nv; p++) if (loop[p]) for (let c = 0; c < 3; c++) points[3 * index[p] + c] = coords[3 * p + c];
  const edges: number[] = [];
  for (let p = 0; p < nv; p++) if (loop[p]) for (const n of sorted(loop[p]!)) if (p < n) edges.push(index[p], index[n]);
  return { points, edges: Uint32Array.from(edges), faces: faces.map((f) => f.map((p) => index[p])), singularFaces, removedEdges };
}

/** Number of common values of two sorted lists. */
function shared(a: readonly number[], b: readonly number[]): number {
  let i = 0,
    j = 0,
    c = 0;
  while (i < a.length && j < b.length) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else (c++, i++, j++);
  }
  return c;
}

function sorted(s: Set<number>): number[] {
  return [...s].sort((a, b) => a - b);
}

/**
 * Step 3 (SOFA's cleanGraph until it reports nothing): the vertex of smallest number with 1 or 2
 * edges is removed (with 2, its neighbours are joined). Only the removed vertex's neighbours change
 * degree, so after a removal at p the next one is at min(p, those neighbours) or later.
 */
function clean(nb: (Set<number> | undefined)[], regions: (number[] | undefined)[]): void {
  let p = 0;
  while (p < nb.length) {
    const s = nb[p];
    if (!s || (s.size !== 1 && s.size !== 2)) {
      p++;
      continue;
    }
    const [n1, n2] = sorted(s);
    if (s.size === 1) nb[n1]!.delete(p);
    else {
      nb[n1]!.delete(p);
      nb[n1]!.add(n2);
      nb[n2]!.delete(p);
      nb[n2]!.add(n1);
    }
    regions[p] = undefined;
    nb[p] = undefined;
    p = s.size === 1 ? Math.min(p, n1) : Math.min(p, n1, n2);
  }
}

/**
 * SOFA's orderFace: from the smallest point, passes over the points in increasing order append
 * every point not yet taken that is a neighbour of the last one taken (the last one changing within
 * a pass), until a pass takes none; the chain, or undefined when its ends are not joined.
 */
function orderFace(pts: readonly number[], nb: readonly (Set<number> | undefined)[]): number[] | undefined {
  const taken = new Set<number>([pts[0]]);
  const face = [pts[0]];
  let current = pts[0];
  for (let added = true; added;) {
    added = false;
    for (const p of pts) {
      if (taken.has(p) || !nb[current]?.has(p)) continue;
      added = true;
      face.push(p);
      taken.add(p);
      current = p;
    }
  }
  return nb[face[0]]?.has(face[face.length - 1]) ? face : undefined;
}
