/**
 * Isosurface of a scalar field sampled on a regular grid (nx × ny × nz points, f[i + nx·(j + ny·k)]),
 * by marching tetrahedra: each grid cube is cut into the 6 tetrahedra of the monotone paths from its
 * lowest to its highest corner (the same cut in every cube, so neighbouring cubes share faces and
 * the surface is closed where the field is), and each tetrahedron crossing the isovalue gives one
 * or two triangles with vertices on its edges, at the linear interpolation of the field. Vertices
 * on an edge shared by several tetrahedra are one vertex. Triangles face the side of values below
 * the isovalue. Points are in grid coordinates (i, j, k).
 */
export function isosurface(
  f: ArrayLike<number>,
  nx: number,
  ny: number,
  nz: number,
  iso: number,
): { points: Float64Array; triangles: Uint32Array } {
  const pts: number[] = [];
  const tris: number[] = [];
  const vertexOfEdge = new Map<number, number>();
  const dirs = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 1, 0],
    [1, 0, 1],
    [0, 1, 1],
    [1, 1, 1],
  ];
  const dirIndex = (dx: number, dy: number, dz: number): number => dirs.findIndex((d) => d[0] === dx && d[1] === dy && d[2] === dz);
  const at = (i: number, j: number, k: number): number => i + nx * (j + ny * k);
  // the 6 tetrahedra of a cube, as corner offsets (x, y, z)
  const perms = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ];
  const tets = perms.map((p) => {
    const c = [[0, 0, 0]];
    let cur = [0, 0, 0];
    for (const a of p) {
      cur = cur.slice();
      cur[a] = 1;
      c.push(cur);
    }
    return c;
  });
  const vert = (a: number[], b: number[], va: number, vb: number): number => {
    // key: the lower corner and the direction to the higher one (edges are monotone)
    const lo = a[0] <= b[0] && a[1] <= b[1] && a[2] <= b[2] ? a : b;
    const hi = lo === a ? b : a;
    const key = at(lo[0], lo[1], lo[2]) * 7 + dirIndex(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
    const found = vertexOfEdge.get(key);
    if (found !== undefined) return found;
    const t = (iso - va) / (vb - va);
    const id = pts.length / 3;
    pts.push(a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2]));
    vertexOfEdge.set(key, id);
    return id;
  };
  const P = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const V = [0, 0, 0, 0];
  // Orientation from the midpoints of the cut edges, never degenerate (a vertex may sit on a grid
  // point when a value equals the isovalue) and the same in the tetrahedra sharing an edge.
  const emit = (ea: [number, number], eb: [number, number], ec: [number, number], inside: number[], outside: number[]): void => {
    const mid = (e: [number, number], k: number): number => 0.5 * (P[e[0]][k] + P[e[1]][k]);
    const u = [0, 1, 2].map((k) => mid(eb, k) - mid(ea, k)),
      w = [0, 1, 2].map((k) => mid(ec, k) - mid(ea, k));
    const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const d = [0, 0, 0];
    for (const o of outside) for (let k = 0; k < 3; k++) d[k] += P[o][k] / outside.length;
    for (const i of inside) for (let k = 0; k < 3; k++) d[k] -= P[i][k] / inside.length;
    const a = vert(P[ea[0]], P[ea[1]], V[ea[0]], V[ea[1]]),
      b = vert(P[eb[0]], P[eb[1]], V[eb[0]], V[eb[1]]),
      c = vert(P[ec[0]], P[ec[1]], V[ec[0]], V[ec[1]]);
    if (n[0] * d[0] + n[1] * d[1] + n[2] * d[2] >= 0) tris.push(a, b, c);
    else tris.push(a, c, b);
  };
  for (let k = 0; k + 1 < nz; k++)
    for (let j = 0; j + 1 < ny; j++)
      for (let i = 0; i + 1 < nx; i++)
        for (const tet of tets) {
          let nin = 0;
          for (let q = 0; q < 4; q++) {
            const c = tet[q];
            P[q][0] = i + c[0];
            P[q][1] = j + c[1];
            P[q][2] = k + c[2];
            V[q] = f[at(P[q][0], P[q][1], P[q][2])];
            if (V[q] >= iso) nin++;
          }
          if (nin === 0 || nin === 4) continue;
          const inside: number[] = [],
            outside: number[] = [];
          for (let q = 0; q < 4; q++) (V[q] >= iso ? inside : outside).push(q);
          if (inside.length === 1 || inside.length === 3) {
            const lone = inside.length === 1 ? inside[0] : outside[0];
            const others = inside.length === 1 ? outside : inside;
            emit([lone, others[0]], [lone, others[1]], [lone, others[2]], inside, outside);
          } else {
            const [a, b] = inside,
              [c, d] = outside;
            // the quad a–c, a–d, b–d, b–c, as two triangles
            emit([a, c], [a, d], [b, d], inside, outside);
            emit([a, c], [b, d], [b, c], inside, outside);
          }
        }
  return { points: Float64Array.from(pts), triangles: Uint32Array.from(tris) };
}
