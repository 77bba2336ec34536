/**
 * Marching cubes on a scalar field sampled at the vertices of a regular grid (nx × ny × nz,
 * f[i + nx·(j + ny·k)]): the isosurface f = iso between the vertices above iso ("inside") and the
 * others. A surface vertex lies on each grid edge whose ends are on both sides, at the linear
 * interpolation t = (iso − f_a)/(f_b − f_a) from its lower end (one vertex per edge, shared by the
 * cubes around it). In each cube the polygons are found by walking its faces instead of reading
 * the classic 256-case table: on each face the crossing edges are joined by segments separating
 * the inside corners from the outside ones, the face's two ambiguous diagonal cases decided by the
 * bilinear saddle value (inside corners joined when it is above iso: Nielsen's asymptotic decider,
 * the same decision in the two cubes sharing the face, so the surface has no holes). The segments
 * chain into closed polygons: a triangle, or a fan around the polygon's centroid (a vertex added
 * inside the cube, so that no triangle edge joins two vertices of one face and every edge of the
 * surface has exactly two triangles). Triangles are counter-clockwise seen from the
 * outside (their normals point toward lower values). The table SOFA uses (MarchingCubeTriTable)
 * gives the same edge vertices and, but for its ambiguous cases, the same surface, triangulated
 * without the centroids.
 */

/** Corner c of a cube is at offsets (c & 1, (c >> 1) & 1, (c >> 2) & 1). Edges: their two corners and axis. */
const EDGE_CORNERS: [number, number][] = [];
const EDGE_AXIS: number[] = [];
for (let axis = 0; axis < 3; axis++)
  for (let c = 0; c < 8; c++)
    if (!(c & (1 << axis))) {
      EDGE_CORNERS.push([c, c | (1 << axis)]);
      EDGE_AXIS.push(axis);
    }
const edgeOf = (a: number, b: number): number => EDGE_CORNERS.findIndex(([p, q]) => (p === a && q === b) || (p === b && q === a));

/**
 * The 6 faces: 4 corners counter-clockwise about the outward normal, and edge k = the side from
 * corner k to corner k+1.
 */
const FACES: { corners: number[]; sides: number[] }[] = [];
for (let axis = 0; axis < 3; axis++)
  for (let side = 0; side < 2; side++) {
    const u = (axis + 1) % 3,
      v = (axis + 2) % 3; // ê_u × ê_v = ê_axis
    const uv = side === 1 ? [0, 0, 1, 0, 1, 1, 0, 1] : [0, 0, 0, 1, 1, 1, 1, 0];
    const corners = [0, 1, 2, 3].map((k) => (side << axis) | (uv[2 * k] << u) | (uv[2 * k + 1] << v));
    FACES.push({ corners, sides: [0, 1, 2, 3].map((k) => edgeOf(corners[k], corners[(k + 1) % 4])) });
  }

/** A growable surface: vertices (3 per vertex, grid coordinates), triangles (3 per triangle). */
export class IsoSurface {
  vertexCount = 0;
  triangleCount = 0;
  vertices = new Float64Array(192);
  /**
   * For each vertex, the grid edge it lies on, 3·(its lower grid vertex) + axis, or −1 − (the lower
   * corner of its cube) for a polygon's centroid.
   */
  vertexEdge = new Int32Array(128);
  triangles = new Uint32Array(192);

  clear(): void {
    this.vertexCount = 0;
    this.triangleCount = 0;
  }

  addVertex(x: number, y: number, z: number, edge: number): number {
    if (3 * this.vertexCount + 3 > this.vertices.length) {
      const v = new Float64Array(2 * this.vertices.length);
      v.set(this.vertices);
      this.vertices = v;
      const e = new Int32Array(2 * this.vertexEdge.length);
      e.set(this.vertexEdge);
      this.vertexEdge = e;
    }
    const k = this.vertexCount++;
    this.vertices[3 * k] = x;
    this.vertices[3 * k + 1] = y;
    this.vertices[3 * k + 2] = z;
    this.vertexEdge[k] = edge;
    return k;
  }

  addTriangle(a: number, b: number, c: number): void {
    if (3 * this.triangleCount + 3 > this.triangles.length) {
      const t = new Uint32Array(2 * this.triangles.length);
      t.set(this.triangles);
      this.triangles = t;
    }
    const k = this.triangleCount++;
    this.triangles[3 * k] = a;
    this.triangles[3 * k + 1] = b;
    this.triangles[3 * k + 2] = c;
  }
}

/**
 * Polygonises f at iso into `out` (cleared first). `edgeVertex` is scratch of at least 3·nx·ny·nz
 * entries (reused between calls). Points are in grid coordinates (i, j, k).
 */
export function marchingCubes(
  f: Float64Array,
  nx: number,
  ny: number,
  nz: number,
  iso: number,
  out: IsoSurface,
  edgeVertex: Int32Array,
): void {
  out.clear();
  const nv = nx * ny * nz;
  edgeVertex.fill(-1, 0, 3 * nv);
  const sx = 1,
    sy = nx,
    sz = nx * ny;
  // surface vertices on the crossing grid edges
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++)
      for (let i = 0; i < nx; i++) {
        const p = i + nx * (j + ny * k);
        const a = f[p];
        const ina = a > iso;
        for (let axis = 0; axis < 3; axis++) {
          if ((axis === 0 && i + 1 >= nx) || (axis === 1 && j + 1 >= ny) || (axis === 2 && k + 1 >= nz)) continue;
          const q = p + (axis === 0 ? sx : axis === 1 ? sy : sz);
          const b = f[q];
          if (ina === b > iso) continue;
          const t = (iso - a) / (b - a);
          edgeVertex[3 * p + axis] = out.addVertex(
            i + (axis === 0 ? t : 0),
            j + (axis === 1 ? t : 0),
            k + (axis === 2 ? t : 0),
            3 * p + axis,
          );
        }
      }
  const val = new Float64Array(8);
  const inside = new Uint8Array(8);
  const next = new Int8Array(12);
  const vertexOfEdge = new Int32Array(12);
  const loop: number[] = [];
  for (let k = 0; k + 1 < nz; k++)
    for (let j = 0; j + 1 < ny; j++)
      for (let i = 0; i + 1 < nx; i++) {
        const p = i + nx * (j + ny * k);
        let mask = 0;
        for (let c = 0; c < 8; c++) {
          val[c] = f[p + (c & 1 ? sx : 0) + (c & 2 ? sy : 0) + (c & 4 ? sz : 0)];
          inside[c] = val[c] > iso ? 1 : 0;
          mask |= inside[c] << c;
        }
        if (mask === 0 || mask === 255) continue;
        for (let e = 0; e < 12; e++) {
          const [c0] = EDGE_CORNERS[e];
          const base = p + (c0 & 1 ? sx : 0) + (c0 & 2 ? sy : 0) + (c0 & 4 ? sz : 0);
          vertexOfEdge[e] = edgeVertex[3 * base + EDGE_AXIS[e]];
        }
        next.fill(-1);
        for (const face of FACES) cubeFaceSegments(face, val, inside, iso, next);
        // chain the segments into polygons and fan them
        for (let e0 = 0; e0 < 12; e0++) {
          if (next[e0] < 0) continue;
          loop.length = 0;
          let e = e0;
          while (e >= 0 && next[e] >= 0) {
            loop.push(vertexOfEdge[e]);
            const n = next[e];
            next[e] = -1;
            e = n;
          }
          const L = loop.length;
          if (L === 3) {
            out.addTriangle(loop[0], loop[1], loop[2]);
            continue;
          }
          // a fan from the polygon's centroid: no chord between two vertices of one face (which the
          // neighbouring cube could repeat, an edge of four triangles)
          let cx = 0,
            cy = 0,
            cz = 0;
          for (const v of loop) {
            cx += out.vertices[3 * v];
            cy += out.vertices[3 * v + 1];
            cz += out.vertices[3 * v + 2];
          }
          const c = out.addVertex(cx / L, cy / L, cz / L, -1 - p);
          for (let t = 0; t < L; t++) out.addTriangle(c, loop[t], loop[(t + 1) % L]);
        }
      }
}

/** Adds the directed segments (entering edge → leaving edge, counter-clockwise walk) of one face to `next`. */
function cubeFaceSegments(
  face: { corners: number[]; sides: number[] },
  val: Float64Array,
  inside: Uint8Array,
  iso: number,
  next: Int8Array,
): void {
  const c = face.corners,
    s = face.sides;
  const inn = [inside[c[0]], inside[c[1]], inside[c[2]], inside[c[3]]];
  let crossings = 0;
  for (let k = 0; k < 4; k++) if (inn[k] !== inn[(k + 1) % 4]) crossings++;
  if (crossings === 0) return;
  if (crossings === 2) {
    let enter = -1,
      leave = -1;
    for (let k = 0; k < 4; k++) {
      if (inn[k] === inn[(k + 1) % 4]) continue;
      if (inn[(k + 1) % 4]) enter = s[k];
      else leave = s[k];
    }
    next[enter] = leave;
    return;
  }
  // 4 crossings: inside corners on a diagonal; saddle of the bilinear interpolant
  const v0 = val[c[0]],
    v1 = val[c[1]],
    v2 = val[c[2]],
    v3 = val[c[3]];
  const saddle = (v0 * v2 - v1 * v3) / (v0 + v2 - v1 - v3);
  const joined = saddle > iso;
  for (let k = 0; k < 4; k++) {
    const prev = s[(k + 3) % 4],
      here = s[k];
    if (inn[k] && !joined) next[prev] = here; // cut off inside corner k: enter on the side before it, leave after
    if (!inn[k] && joined) next[here] = prev; // cut off outside corner k
  }
}
