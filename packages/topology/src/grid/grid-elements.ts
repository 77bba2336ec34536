/**
 * The elements of a regular grid of nx × ny × nz vertices, in SOFA GridTopology's orders. Vertex
 * (x, y, z) has index x + nx·(y + ny·z); loops run z outermost, then y, then x.
 */

/** Index of grid vertex (x, y, z). */
export function gridPoint(n: ArrayLike<number>, x: number, y: number, z: number): number {
  return x + n[0] * (y + n[1] * z);
}

/** Hexahedra of the cells (nH × 8), vertex order (0,0,0) (1,0,0) (1,1,0) (0,1,0) then the same at z+1. */
export function gridHexahedra(n: ArrayLike<number>): Uint32Array {
  const [nx, ny, nz] = [n[0], n[1], n[2]];
  const count = Math.max(0, nx - 1) * Math.max(0, ny - 1) * Math.max(0, nz - 1);
  const out = new Uint32Array(count * 8);
  let o = 0;
  for (let z = 0; z < nz - 1; z++) {
    for (let y = 0; y < ny - 1; y++) {
      for (let x = 0; x < nx - 1; x++) {
        out[o++] = gridPoint(n, x, y, z);
        out[o++] = gridPoint(n, x + 1, y, z);
        out[o++] = gridPoint(n, x + 1, y + 1, z);
        out[o++] = gridPoint(n, x, y + 1, z);
        out[o++] = gridPoint(n, x, y, z + 1);
        out[o++] = gridPoint(n, x + 1, y, z + 1);
        out[o++] = gridPoint(n, x + 1, y + 1, z + 1);
        out[o++] = gridPoint(n, x, y + 1, z + 1);
      }
    }
  }
  return out;
}

/**
 * Every quad of the grid, interior faces included (nQ × 4): first those in xy planes (z = 0..nz−1),
 * then xz planes, then yz planes, each oriented by the increasing axes of its plane.
 */
export function gridQuads(n: ArrayLike<number>): Uint32Array {
  const [nx, ny, nz] = [n[0], n[1], n[2]];
  const count = nz * cells(ny) * cells(nx) + cells(nz) * ny * cells(nx) + cells(nz) * cells(ny) * nx;
  const out = new Uint32Array(4 * count);
  let o = 0;
  const quad = (a: number, b: number, c: number, d: number): void => {
    out[o++] = a;
    out[o++] = b;
    out[o++] = c;
    out[o++] = d;
  };
  const p = (x: number, y: number, z: number): number => gridPoint(n, x, y, z);
  for (let z = 0; z < nz; z++)
    for (let y = 0; y < ny - 1; y++) for (let x = 0; x < nx - 1; x++) quad(p(x, y, z), p(x + 1, y, z), p(x + 1, y + 1, z), p(x, y + 1, z));
  for (let z = 0; z < nz - 1; z++)
    for (let y = 0; y < ny; y++) for (let x = 0; x < nx - 1; x++) quad(p(x, y, z), p(x + 1, y, z), p(x + 1, y, z + 1), p(x, y, z + 1));
  for (let z = 0; z < nz - 1; z++)
    for (let y = 0; y < ny - 1; y++) for (let x = 0; x < nx; x++) quad(p(x, y, z), p(x, y + 1, z), p(x, y + 1, z + 1), p(x, y, z + 1));
  return out;
}

/** The grid lines (nE × 2): along x, then along y, then along z. */
export function gridLines(n: ArrayLike<number>): Uint32Array {
  const [nx, ny, nz] = [n[0], n[1], n[2]];
  const out = new Uint32Array(2 * (nz * ny * cells(nx) + nz * cells(ny) * nx + cells(nz) * ny * nx));
  let o = 0;
  const edge = (a: number, b: number): void => {
    out[o++] = a;
    out[o++] = b;
  };
  const p = (x: number, y: number, z: number): number => gridPoint(n, x, y, z);
  for (let z = 0; z < nz; z++) for (let y = 0; y < ny; y++) for (let x = 0; x < nx - 1; x++) edge(p(x, y, z), p(x + 1, y, z));
  for (let z = 0; z < nz; z++) for (let y = 0; y < ny - 1; y++) for (let x = 0; x < nx; x++) edge(p(x, y, z), p(x, y + 1, z));
  for (let z = 0; z < nz - 1; z++) for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++) edge(p(x, y, z), p(x, y, z + 1));
  return out;
}

/** Number of cells along an axis of n vertices. */
function cells(n: number): number {
  return Math.max(0, n - 1);
}

/** Each quad (a, b, c, d) split along its diagonal a–c into (a, b, c) and (a, c, d). */
export function splitQuads(quads: Uint32Array): Uint32Array {
  const nq = quads.length / 4;
  const out = new Uint32Array(nq * 6);
  for (let q = 0; q < nq; q++) {
    const a = quads[4 * q];
    const b = quads[4 * q + 1];
    const c = quads[4 * q + 2];
    const d = quads[4 * q + 3];
    out.set([a, b, c, a, c, d], 6 * q);
  }
  return out;
}
