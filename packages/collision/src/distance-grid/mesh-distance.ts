import { DistanceGrid } from './distance-grid.js';

/** A closed polygonal surface: vertices (n × 3) and polygons (vertex indices). */
export interface SurfaceMesh {
  readonly vertices: Float64Array;
  readonly facets: readonly (readonly number[])[];
}

/** Status of a grid value during the marching (≥ 0: its position in the heap). */
const FAR = -1,
  KNOWN_OUT = -2,
  KNOWN_IN = -3;

/**
 * The distance grid of a mesh as SOFA's DistanceGrid::load builds it for an OBJ file:
 *   box       the vertices' bounding box (× |scale|; SOFA's min/else-if-max scan) enlarged by 10% of
 *             its size on each side (SOFA uses the box given by the component only when its
 *             xmin > xmax, to enlarge that box; otherwise the mesh's box is taken)
 *   values    calcDistance below, with the vertices × scale
 *   meshPts   the vertices × |scale|, and the object's box is theirs
 * `warn` receives the in/out conflicts of the marching.
 */
export function distanceGridFromMesh(
  mesh: SurfaceMesh,
  scale: number,
  n: readonly [number, number, number],
  box: readonly [ArrayLike<number>, ArrayLike<number>] | undefined,
  warn: (message: string) => void,
): DistanceGrid {
  const v = mesh.vertices;
  const abs = Math.abs(scale);
  const bbmin = new Float64Array(3),
    bbmax = new Float64Array(3);
  if (v.length >= 3) {
    for (let c = 0; c < 3; c++) bbmin[c] = bbmax[c] = v[c];
    for (let i = 3; i < v.length; i += 3)
      for (let c = 0; c < 3; c++) {
        if (v[i + c] < bbmin[c]) bbmin[c] = v[i + c];
        else if (v[i + c] > bbmax[c]) bbmax[c] = v[i + c];
      }
    for (let c = 0; c < 3; c++) ((bbmin[c] *= abs), (bbmax[c] *= abs));
  }
  const pmin = Float64Array.from(box?.[0] ?? [0, 0, 0]);
  const pmax = Float64Array.from(box?.[1] ?? [0, 0, 0]);
  if (pmin[0] <= pmax[0]) {
    for (let c = 0; c < 3; c++) {
      const margin = (bbmax[c] - bbmin[c]) * 0.1;
      pmin[c] = bbmin[c] - margin;
      pmax[c] = bbmax[c] + margin;
    }
  } else if (v.length >= 3) {
    for (let c = 0; c < 3; c++) {
      if (bbmin[c] < pmin[c]) pmin[c] = bbmin[c];
      if (bbmax[c] > pmax[c]) pmax[c] = bbmax[c];
    }
  }
  const grid = new DistanceGrid(n[0], n[1], n[2], pmin, pmax);
  calcDistance(grid, mesh, scale, warn);
  grid.meshPts = Float64Array.from(v, (x) => x * abs);
  grid.computeBBox();
  return grid;
}

/**
 * SOFA's DistanceGrid::calcDistance: an unsigned distance propagated from the surface, then signed.
 * 1. Every grid edge (along x, y or z) crossed by a triangle (polygons are fans from their first
 *    vertex) gets, at both ends, the distance along the edge to the crossing, keeping the smallest;
 *    the end on the side of the triangle's normal n = (p1 − p0)×(p2 − p0) is outside, the other
 *    inside. These values are known.
 * 2. Their unknown neighbours get d + w_c (w_c the cell width along the neighbour's axis) and enter a
 *    binary heap (SOFA tests x > 0 for every neighbour of this seeding, so known values on the
 *    x = 0 face seed none).
 * 3. Dijkstra's marching: the smallest value leaves the heap, its unknown neighbours get d + w_c
 *    when smaller; it becomes inside when more of its known neighbours are inside than outside,
 *    else outside (a value with both gets a warning).
 * 4. Inside values are negated.
 * The heap is SOFA's (same sift order), so ties resolve as in SOFA and the signs are the same.
 */
export function calcDistance(grid: DistanceGrid, mesh: SurfaceMesh, scale: number, warn: (message: string) => void): void {
  const { nx, ny, nz, nxny, size } = grid;
  const dists = grid.dists;
  const w = grid.cellWidth;
  const status = new Int32Array(size).fill(FAR);
  const heap = new Int32Array(size);
  let heapSize = 0;
  dists.fill(Number.MAX_VALUE);
  const v = mesh.vertices;
  const p0 = new Float64Array(3),
    p1 = new Float64Array(3),
    p2 = new Float64Array(3),
    nrm = new Float64Array(3),
    pos = new Float64Array(3);
  const lo = new Float64Array(3),
    hi = new Float64Array(3);

  /** Records distance `d` at value `i` when smaller, with status `s`. */
  const setKnown = (i: number, d: number, s: number): void => {
    if (d < dists[i]) {
      dists[i] = d;
      status[i] = s;
    }
  };

  for (const pts of mesh.facets) {
    for (let c = 0; c < 3; c++) p0[c] = v[3 * pts[0] + c] * scale;
    for (let k = 2; k < pts.length; k++) {
      for (let c = 0; c < 3; c++) {
        p1[c] = v[3 * pts[k - 1] + c] * scale;
        p2[c] = v[3 * pts[k] + c] * scale;
      }
      for (let c = 0; c < 3; c++) {
        lo[c] = hi[c] = p0[c];
        if (p1[c] < lo[c]) lo[c] = p1[c];
        else if (p1[c] > hi[c]) hi[c] = p1[c];
        if (p2[c] < lo[c]) lo[c] = p2[c];
        else if (p2[c] > hi[c]) hi[c] = p2[c];
      }
      const ax = p1[0] - p0[0],
        ay = p1[1] - p0[1],
        az = p1[2] - p0[2];
      const bx = p2[0] - p0[0],
        by = p2[1] - p0[1],
        bz = p2[2] - p0[2];
      nrm[0] = ay * bz - az * by;
      nrm[1] = az * bx - ax * bz;
      nrm[2] = ax * by - ay * bx;
      const len = Math.sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
      if (len > Number.EPSILON) for (let c = 0; c < 3; c++) nrm[c] /= len;
      const d = -(p0[0] * nrm[0] + p0[1] * nrm[1] + p0[2] * nrm[2]);
      const ix0 = Math.max(0, grid.cellOf(0, lo[0]) - 1),
        iy0 = Math.max(0, grid.cellOf(1, lo[1]) - 1),
        iz0 = Math.max(0, grid.cellOf(2, lo[2]) - 1);
      const ix1 = Math.min(nx - 1, grid.cellOf(0, hi[0]) + 2),
        iy1 = Math.min(ny - 1, grid.cellOf(1, hi[1]) + 2),
        iz1 = Math.min(nz - 1, grid.cellOf(2, hi[2]) + 2);
      for (let z = iz0; z < iz1; z++)
        for (let y = iy0; y < iy1; y++)
          for (let x = ix0; x < ix1; x++) {
            pos[0] = grid.coord(0, x);
            pos[1] = grid.coord(1, y);
            pos[2] = grid.coord(2, z);
            const ind = grid.index(x, y, z);
            const dist = pos[0] * nrm[0] + pos[1] * nrm[1] + pos[2] * nrm[2] + d;
            // the edge from pos along axis a, to the next value at ind + step
            for (let a = 0; a < 3; a++) {
              if (!(Math.abs(nrm[a]) > 1e-6)) continue;
              const d1 = -dist / nrm[a];
              if (!(d1 >= -0.01 * w[a] && d1 <= 1.01 * w[a])) continue;
              const [u, vv] = a === 0 ? [1, 2] : a === 1 ? [2, 0] : [0, 1];
              if (!pointInTriangle(u, vv, pos, p0, p1, p2)) continue;
              const ind2 = ind + (a === 0 ? 1 : a === 1 ? nx : nxny);
              const d2 = w[a] - d1;
              // n_a < 0: pos is outside, the next value inside; else the reverse
              if (nrm[a] < 0) {
                setKnown(ind, d1, KNOWN_OUT);
                setKnown(ind2, d2, KNOWN_IN);
              } else {
                setKnown(ind, d1, KNOWN_IN);
                setKnown(ind2, d2, KNOWN_OUT);
              }
            }
          }
    }
  }

  const swap = (e1: number, e2: number): void => {
    const i1 = heap[e1],
      i2 = heap[e2];
    heap[e1] = i2;
    heap[e2] = i1;
    status[i1] = e2;
    status[i2] = e1;
  };
  /** Moves entry i down while a child is smaller (SOFA's order: the smaller child, the first on ties). */
  const siftDown = (i: number): void => {
    const phi = dists[heap[i]];
    while (i * 2 + 1 < heapSize) {
      const phi1 = dists[heap[i * 2 + 1]];
      if (i * 2 + 2 < heapSize) {
        const phi2 = dists[heap[i * 2 + 2]];
        if (phi1 < phi) {
          if (phi1 < phi2) {
            swap(i, i * 2 + 1);
            i = i * 2 + 1;
          } else {
            swap(i, i * 2 + 2);
            i = i * 2 + 2;
          }
        } else if (phi2 < phi) {
          swap(i, i * 2 + 2);
          i = i * 2 + 2;
        } else break;
      } else if (phi1 < phi) {
        swap(i, i * 2 + 1);
        i = i * 2 + 1;
      } else break;
    }
  };
  const siftUp = (i: number): number => {
    const phi = dists[heap[i]];
    while (i > 0 && phi < dists[heap[(i - 1) >> 1]]) {
      swap(i, (i - 1) >> 1);
      i = (i - 1) >> 1;
    }
    return i;
  };
  const push = (index: number): void => {
    if (status[index] >= 0) siftDown(siftUp(status[index]));
    else {
      const i = heapSize++;
      heap[i] = index;
      status[index] = i;
      siftUp(i);
    }
  };
  const pop = (): number => {
    const res = heap[0];
    --heapSize;
    if (heapSize > 0) {
      swap(0, heapSize);
      siftDown(0);
    }
    return res;
  };

  // seeding from the known values (SOFA's x > 0 test on every neighbour)
  for (let z = 0, ind = 0; z < nz; z++)
    for (let y = 0; y < ny; y++)
      for (let x = 0; x < nx; x++, ind++) {
        if (!(status[ind] < FAR) || x <= 0) continue;
        const d1 = dists[ind];
        const seed = (ind2: number, d2: number): void => {
          if (status[ind2] >= FAR && dists[ind2] > d2) {
            dists[ind2] = d2;
            push(ind2);
          }
        };
        seed(ind - 1, d1 + w[0]);
        if (x < nx - 1) seed(ind + 1, d1 + w[0]);
        if (y > 0) seed(ind - nx, d1 + w[1]);
        if (y < ny - 1) seed(ind + nx, d1 + w[1]);
        if (z > 0) seed(ind - nxny, d1 + w[2]);
        if (z < nz - 1) seed(ind + nxny, d1 + w[2]);
      }

  // marching
  while (heapSize > 0) {
    const ind = pop();
    const x = ind % nx,
      y = Math.floor(ind / nx) % ny,
      z = Math.floor(ind / nxny);
    const d1 = dists[ind];
    let nbin = 0,
      nbout = 0;
    const visit = (ind2: number, d2: number): void => {
      if (status[ind2] < FAR) {
        if (status[ind2] === KNOWN_IN) ++nbin;
        else ++nbout;
      } else if (dists[ind2] > d2) {
        dists[ind2] = d2;
        push(ind2);
      }
    };
    if (x > 0) visit(ind - 1, d1 + w[0]);
    if (x < nx - 1) visit(ind + 1, d1 + w[0]);
    if (y > 0) visit(ind - nx, d1 + w[1]);
    if (y < ny - 1) visit(ind + nx, d1 + w[1]);
    if (z > 0) visit(ind - nxny, d1 + w[2]);
    if (z < nz - 1) visit(ind + nxny, d1 + w[2]);
    if (nbin && nbout) warn(`in/out conflict at cell ${x} ${y} ${z} (${nbin} in, ${nbout} out), dist = ${dists[ind]}`);
    status[ind] = nbin > nbout ? KNOWN_IN : KNOWN_OUT;
  }

  for (let i = 0; i < size; i++) if (status[i] === KNOWN_IN) dists[i] = -dists[i];
}

/**
 * SOFA's pointInTriangle<U, V>: whether the projection of p on the plane of axes (U, V) falls in
 * the projected triangle (p0, p1, p2), from p − p0 = α·(p1 − p0) + β·(p2 − p0) solved in (U, V)
 * (with SOFA's divisions: a degenerate projection gives no crossing).
 */
function pointInTriangle(U: number, V: number, p: Float64Array, p0: Float64Array, p1: Float64Array, p2: Float64Array): boolean {
  const u0 = p[U] - p0[U],
    v0 = p[V] - p0[V];
  const u1 = p1[U] - p0[U],
    v1 = p1[V] - p0[V];
  const u2 = p2[U] - p0[U],
    v2 = p2[V] - p0[V];
  let alpha: number, beta: number;
  if (u1 === 0) {
    beta = u0 / u2;
    if (beta < 0 || beta > 1) return false;
    alpha = (v0 - beta * v2) / v1;
    if (alpha < 0 || alpha + beta > 1) return false;
  } else {
    beta = (v0 * u1 - u0 * v1) / (v2 * u1 - u2 * v1);
    if (beta < 0 || beta > 1) return false;
    alpha = (u0 - beta * u2) / u1;
    if (alpha < 0 || alpha + beta > 1) return false;
  }
  return true;
}
