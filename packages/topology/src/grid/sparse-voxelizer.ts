/**
 * Voxelisation of a closed surface on a regular grid, as SOFA's SparseGridTopology does it:
 *  1. every cell holding a surface vertex is BOUNDARY (a vertex slightly outside the grid is moved
 *     half a cell inwards first);
 *  2. for each triangle of the surface (polygons split in fans), every cell of the box spanned by
 *     its vertices' cells that the triangle crosses (float32 polygon–cube test, cell scaled to the
 *     unit cube) is BOUNDARY;
 *  3. cells reached from the grid's border cells without crossing a BOUNDARY cell are OUTSIDE; the
 *     others are INSIDE.
 * The grid has n = (nx, ny, nz) points from min to max; cell (i, j, k) has index
 * i + (nx−1)·(j + (ny−1)·k) and point (i, j, k) is min + (i·dx, j·dy, k·dz).
 */
import { fastPolygonIntersectsCube, polygonNormal } from './polygon-cube.js';

export const OUTSIDE = 0;
export const INSIDE = 1;
export const BOUNDARY = 2;

/** The regular grid a sparse grid is cut from. */
export interface VoxelGrid {
  readonly n: readonly [number, number, number];
  readonly min: readonly [number, number, number];
  readonly max: readonly [number, number, number];
  /** Spacing along x, y, z: (max − min)/(n − 1). */
  readonly step: readonly [number, number, number];
}

export function voxelGrid(
  n: readonly [number, number, number],
  min: readonly [number, number, number],
  max: readonly [number, number, number],
): VoxelGrid {
  const step: [number, number, number] = [0, 0, 0];
  for (let k = 0; k < 3; k++) step[k] = n[k] > 1 ? (max[k] - min[k]) / (n[k] - 1) : max[k] - min[k];
  return { n, min, max, step };
}

/** Coordinate of grid point index i along an axis (SOFA: p0 + d·i). */
export function gridCoord(g: VoxelGrid, axis: number, i: number): number {
  return g.min[axis] + g.step[axis] * i;
}

/** The cell containing a point (SOFA RegularGridTopology::findCube), or −1. */
export function findCell(g: VoxelGrid, x: number, y: number, z: number): number {
  const p = [x - g.min[0], y - g.min[1], z - g.min[2]];
  const idx = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    const d = g.step[k];
    // SOFA: (p·dk)·(1/(dk·dk)) with dk the k-th spacing vector
    idx[k] = Math.floor(p[k] * d * (1 / (d * d)));
    if (!(idx[k] >= 0 && idx[k] <= g.n[k] - 2)) return -1;
  }
  return idx[0] + (g.n[0] - 1) * (idx[1] + (g.n[1] - 1) * idx[2]);
}

const FLT_EPSILON = 1.1920928955078125e-7;

/** Cell types (OUTSIDE, INSIDE, BOUNDARY) of every cell of the grid for a polygonal surface. */
export function voxelizeSurface(g: VoxelGrid, vertices: Float64Array, facets: readonly (readonly number[])[]): Uint8Array {
  const [nx, ny, nz] = g.n;
  const cx = nx - 1;
  const cy = ny - 1;
  const cz = nz - 1;
  const types = new Uint8Array(cx * cy * cz).fill(INSIDE);

  // 1. cells of the vertices
  const nv = vertices.length / 3;
  const cellOf = new Int32Array(nv);
  const delta = [g.step[0] / 2, g.step[1] / 2, g.step[2] / 2];
  for (let i = 0; i < nv; i++) {
    const v = [vertices[3 * i], vertices[3 * i + 1], vertices[3 * i + 2]];
    let c = findCell(g, v[0], v[1], v[2]);
    if (c >= 0) types[c] = BOUNDARY;
    else {
      for (let k = 0; k < 3; k++) {
        if (v[k] - FLT_EPSILON < g.min[k]) v[k] = g.min[k] + delta[k];
        else if (v[k] + FLT_EPSILON > g.max[k]) v[k] = g.max[k] - delta[k];
      }
      c = findCell(g, v[0], v[1], v[2]);
    }
    cellOf[i] = c;
  }

  // 2. cells crossed by the triangles
  const coord = (c: number): [number, number, number] => [c % cx, Math.floor(c / cx) % cy, Math.floor(c / (cx * cy))];
  for (const facet of facets) {
    for (let j = 2; j < facet.length; j++) {
      const ia = facet[0];
      const ib = facet[j - 1];
      const ic = facet[j];
      if (ia < 0 || ib < 0 || ic < 0 || ia >= nv || ib >= nv || ic >= nv) continue;
      const c0 = cellOf[ia];
      const c1 = cellOf[ib];
      const c2 = cellOf[ic];
      if (c0 < 0 || c1 < 0 || c2 < 0) continue;
      if (c0 === c1 && c0 === c2 && types[c0] === BOUNDARY) continue;
      const i0 = coord(c0);
      const i1 = coord(c1);
      const i2 = coord(c2);
      const lo = [0, 1, 2].map((k) => Math.min(i0[k], i1[k], i2[k]));
      const hi = [0, 1, 2].map((k) => Math.max(i0[k], i1[k], i2[k]));
      for (let x = lo[0]; x <= hi[0]; x++) {
        for (let y = lo[1]; y <= hi[1]; y++) {
          for (let z = lo[2]; z <= hi[2]; z++) {
            const cell = x + cx * (y + cy * z);
            if (types[cell] === BOUNDARY) continue;
            const corner0 = [gridCoord(g, 0, x), gridCoord(g, 1, y), gridCoord(g, 2, z)];
            const corner6 = [gridCoord(g, 0, x + 1), gridCoord(g, 1, y + 1), gridCoord(g, 2, z + 1)];
            const diag = [corner6[0] - corner0[0], corner6[1] - corner0[1], corner6[2] - corner0[2]];
            const center = [corner0[0] + diag[0] * 0.5, corner0[1] + diag[1] * 0.5, corner0[2] + diag[2] * 0.5];
            const scaled = (i: number): [number, number, number] => [
              Math.fround((vertices[3 * i] - center[0]) / diag[0]),
              Math.fround((vertices[3 * i + 1] - center[1]) / diag[1]),
              Math.fround((vertices[3 * i + 2] - center[2]) / diag[2]),
            ];
            const tri = [scaled(ia), scaled(ib), scaled(ic)];
            if (fastPolygonIntersectsCube(tri, polygonNormal(tri))) types[cell] = BOUNDARY;
          }
        }
      }
    }
  }

  // 3. flood the outside from the border cells, stopping at BOUNDARY cells
  const tested = new Uint8Array(types.length);
  const stack: number[] = [];
  const seed = (x: number, y: number, z: number): void => {
    stack.push(x + cx * (y + cy * z));
    while (stack.length > 0) {
      const c = stack.pop()!;
      if (tested[c] || types[c] === BOUNDARY) continue;
      tested[c] = 1;
      types[c] = OUTSIDE;
      const [i, j, k] = coord(c);
      if (i > 0) stack.push(c - 1);
      if (i < cx - 1) stack.push(c + 1);
      if (j > 0) stack.push(c - cx);
      if (j < cy - 1) stack.push(c + cx);
      if (k > 0) stack.push(c - cx * cy);
      if (k < cz - 1) stack.push(c + cx * cy);
    }
  };
  for (let z = 0; z < cz; z++) {
    for (let y = 0; y < cy; y++) {
      for (let x = 0; x < cx; x++) {
        if (x === 0 || y === 0 || z === 0 || x === cx - 1 || y === cy - 1 || z === cz - 1) seed(x, y, z);
      }
    }
  }
  return types;
}
