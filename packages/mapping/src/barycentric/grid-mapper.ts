import type { BaseMeshTopology, GridDescription } from '@sofa-ts/core';
import { BarycentricMapBuilder, type BarycentricMap } from './barycentric-map.js';
import { addElementTerms } from './elements.js';
import { MapperError } from './mesh-mapper.js';

/**
 * A regular grid's geometry as SOFA's RegularGridTopology computes it: vertex (i, j, k) sits at
 * p0 + (i·dx, j·dy, k·dz) with d = (max − min)/(n − 1); cell (i, j, k) has index
 * i + (nx−1)·(j + (ny−1)·k) and the hexahedron (i,j,k) (i+1,j,k) (i+1,j+1,k) (i,j+1,k), then the same
 * at k+1 (SOFA's vertex order).
 */
class GridGeometry {
  readonly n: readonly [number, number, number];
  readonly p0: readonly [number, number, number];
  readonly d: [number, number, number];
  readonly invD2: [number, number, number];

  constructor(g: GridDescription) {
    this.n = g.n;
    this.p0 = g.p0 ?? g.min;
    this.d = [0, 1, 2].map((a) => (g.max[a] - g.min[a]) / (g.n[a] - 1)) as [number, number, number];
    this.invD2 = this.d.map((x) => 1 / (x * x)) as [number, number, number];
  }

  get isVolume(): boolean {
    return this.n[0] >= 2 && this.n[1] >= 2 && this.n[2] >= 2;
  }

  /** Fractional cell coordinates of p: (p − p0)·d_a / |d_a|². */
  cellCoords(out: Float64Array, px: number, py: number, pz: number): void {
    out[0] = (px - this.p0[0]) * this.d[0] * this.invD2[0];
    out[1] = (py - this.p0[1]) * this.d[1] * this.invD2[1];
    out[2] = (pz - this.p0[2]) * this.d[2] * this.invD2[2];
  }

  /** Cell index of integer cell coordinates, or −1 outside the grid. */
  cell(ix: number, iy: number, iz: number): number {
    const [nx, ny, nz] = this.n;
    if (ix < 0 || iy < 0 || iz < 0 || ix > nx - 2 || iy > ny - 2 || iz > nz - 2) return -1;
    return ix + (nx - 1) * (iy + (ny - 1) * iz);
  }

  /** The 8 vertex indices of cell (ix, iy, iz) into out at offset. */
  hexahedron(out: Uint32Array, off: number, ix: number, iy: number, iz: number): void {
    const [nx, ny] = this.n;
    const v = (i: number, j: number, k: number): number => i + nx * (j + ny * k);
    out[off] = v(ix, iy, iz);
    out[off + 1] = v(ix + 1, iy, iz);
    out[off + 2] = v(ix + 1, iy + 1, iz);
    out[off + 3] = v(ix, iy + 1, iz);
    out[off + 4] = v(ix, iy, iz + 1);
    out[off + 5] = v(ix + 1, iy, iz + 1);
    out[off + 6] = v(ix + 1, iy + 1, iz + 1);
    out[off + 7] = v(ix, iy + 1, iz + 1);
  }
}

/**
 * SOFA's BarycentricMapperRegularGridTopology: each point goes to the grid cell that contains it,
 * or (outside the grid) to the nearest cell by clamping the cell coordinates, with trilinear
 * coordinates f = cell coordinates − cell index (unclamped, so outside points are extrapolated).
 * The cell is found from the grid's own geometry (min, max, n), not from the current positions.
 */
export function regularGridMapper(grid: GridDescription, xout: Float64Array, nOut: number, nIn: number): BarycentricMap {
  const g = new GridGeometry(grid);
  if (!g.isVolume) throw new MapperError(`the input grid (n = ${g.n.join(' ')}) has no volume: SOFA creates no barycentric mapper for it`);
  const nInGrid = g.n[0] * g.n[1] * g.n[2];
  if (nIn !== nInGrid) throw new MapperError(`the input state has ${nIn} points, its grid ${nInGrid}`);
  const b = new BarycentricMapBuilder();
  const c = new Float64Array(3);
  const hex = new Uint32Array(8);
  const [nx, ny, nz] = g.n;
  for (let i = 0; i < nOut; i++) {
    g.cellCoords(c, xout[3 * i], xout[3 * i + 1], xout[3 * i + 2]);
    // Contained cell, else the clamped (nearest) one: the same floor, clamped to the grid.
    const ix = Math.min(Math.max(Math.floor(c[0]), 0), nx - 2);
    const iy = Math.min(Math.max(Math.floor(c[1]), 0), ny - 2);
    const iz = Math.min(Math.max(Math.floor(c[2]), 0), nz - 2);
    g.hexahedron(hex, 0, ix, iy, iz);
    addElementTerms(b, 'hexahedron', hex, 0, c[0] - ix, c[1] - iy, c[2] - iz, true);
  }
  return b.build(nIn);
}

/**
 * SOFA's BarycentricMapperSparseGridTopology: the regular grid underlying the sparse grid finds
 * the cell of each point; when that cell is not in the sparse grid (or the point is outside),
 * the nearest boundary hexahedron (by distance to its centre, compared in single precision as
 * SOFA does) is used, with coordinates (p − corner 0)/(corner 6 − corner 0) per axis.
 */
export function sparseGridMapper(
  topo: BaseMeshTopology,
  grid: GridDescription,
  xout: Float64Array,
  nOut: number,
  nIn: number,
): BarycentricMap {
  const g = new GridGeometry(grid);
  const map = grid.cellToHexahedron!;
  const hexas = topo.getHexahedra();
  const points = topo.getPositions();
  const nH = hexas.length / 8;
  if (nH === 0) throw new MapperError('the input sparse grid has no hexahedra');
  if (!points) throw new MapperError('the input sparse grid gives no point positions');
  const boundary = grid.boundaryHexahedra;
  const b = new BarycentricMapBuilder();
  const c = new Float64Array(3);
  for (let i = 0; i < nOut; i++) {
    const px = xout[3 * i],
      py = xout[3 * i + 1],
      pz = xout[3 * i + 2];
    g.cellCoords(c, px, py, pz);
    const ix = Math.floor(c[0]),
      iy = Math.floor(c[1]),
      iz = Math.floor(c[2]);
    const cell = g.isVolume ? g.cell(ix, iy, iz) : -1;
    const h = cell >= 0 ? map[cell] : -1;
    if (h >= 0) {
      addElementTerms(b, 'hexahedron', hexas, h, c[0] - ix, c[1] - iy, c[2] - iz, true);
      continue;
    }
    // Nearest boundary hexahedron by its centre (corners 0 and 6), distances rounded to float32.
    let best = Math.fround(99999999.0);
    let bestH = 0;
    for (let e = 0; e < nH; e++) {
      if (boundary && boundary[e] !== 1) continue;
      const a = 3 * hexas[8 * e],
        d = 3 * hexas[8 * e + 6];
      const cx = (points[a] + points[d]) * 0.5,
        cy = (points[a + 1] + points[d + 1]) * 0.5,
        cz = (points[a + 2] + points[d + 2]) * 0.5;
      const lg = Math.fround(Math.sqrt((px - cx) ** 2 + (py - cy) ** 2 + (pz - cz) ** 2));
      if (lg < best) {
        best = lg;
        bestH = e;
      }
    }
    const a = 3 * hexas[8 * bestH],
      d = 3 * hexas[8 * bestH + 6];
    const f0 = (px - points[a]) / (points[d] - points[a]);
    const f1 = (py - points[a + 1]) / (points[d + 1] - points[a + 1]);
    const f2 = (pz - points[a + 2]) / (points[d + 2] - points[a + 2]);
    addElementTerms(b, 'hexahedron', hexas, bestH, f0, f1, f2, true);
  }
  return b.build(nIn);
}
