import { BOUNDARY, INSIDE, OUTSIDE, voxelGrid, type VoxelGrid } from './sparse-voxelizer.js';

/** One level of a sparse grid's hierarchy: its regular grid and the type of each of its cells. */
export interface SparseGridLevel {
  readonly grid: VoxelGrid;
  /** Per regular cell (index x + (nx−1)·(y + (ny−1)·z)): OUTSIDE, INSIDE or BOUNDARY. */
  readonly types: Uint8Array;
}

/** (x, y, z) offsets of a coarse cell's 8 children, in SOFA's child order (bit 0 = x, bit 1 = y, bit 2 = z). */
export const CHILD_OFFSETS: readonly (readonly [number, number, number])[] = Array.from(
  { length: 8 },
  (_, w) => [w & 1, (w >> 1) & 1, (w >> 2) & 1] as const,
);

/**
 * The regular cell of `fine` holding child w of cell c of `coarse`, or −1 when that child lies past
 * the finer grid (SOFA's buildFromFiner: child (2i + a, 2j + b, 2k + c)).
 */
export function childCell(coarse: SparseGridLevel, fine: SparseGridLevel, c: number, w: number): number {
  const cx = coarse.grid.n[0] - 1,
    cy = coarse.grid.n[1] - 1;
  const i = c % cx,
    j = Math.floor(c / cx) % cy,
    k = Math.floor(c / (cx * cy));
  const [a, b, d] = CHILD_OFFSETS[w];
  const fx = fine.grid.n[0] - 1,
    fy = fine.grid.n[1] - 1,
    fz = fine.grid.n[2] - 1;
  const x = 2 * i + a,
    y = 2 * j + b,
    z = 2 * k + d;
  if (x >= fx || y >= fy || z >= fz) return -1;
  return x + fx * (y + fy * z);
}

/**
 * SOFA's SparseGridTopology::buildFromFiner on cell types: the grid of n/2 + 1 points per axis over
 * the same box; a coarse cell is OUTSIDE when all its children are, INSIDE when all eight are
 * INSIDE, BOUNDARY otherwise.
 */
export function coarserSparseLevel(fine: SparseGridLevel): SparseGridLevel {
  const n = fine.grid.n.map((v) => Math.floor(v / 2) + 1) as [number, number, number];
  const min = fine.grid.min;
  const max = [0, 1, 2].map((k) => min[k] + (n[k] - 1) * 2 * fine.grid.step[k]) as [number, number, number];
  const coarse: SparseGridLevel = { grid: voxelGrid(n, min, max), types: new Uint8Array((n[0] - 1) * (n[1] - 1) * (n[2] - 1)) };
  for (let c = 0; c < coarse.types.length; c++) {
    let inside = true,
      outside = true;
    for (let w = 0; w < 8; w++) {
      const f = childCell(coarse, fine, c, w);
      const t = f < 0 ? OUTSIDE : fine.types[f];
      if (t === OUTSIDE) inside = false;
      else if (t === BOUNDARY) inside = outside = false;
      else outside = false;
    }
    coarse.types[c] = outside ? OUTSIDE : inside ? INSIDE : BOUNDARY;
  }
  return coarse;
}
