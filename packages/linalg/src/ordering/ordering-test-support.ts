/** Pattern builders and measures for the ordering specs (not exported from the package). */
import type { CsrMatrix } from '../csr.js';
import { invertPermutation } from './permutation.js';

/**
 * The vertex graph of an nx × ny × nz grid of hexahedra (two grid points joined when a cell holds
 * both: the 27-point stencil of trilinear elements), `dofs` unknowns per point (3 for a Vec3 mesh),
 * point (x, y, z) numbered x + nx(y + ny z): the pattern of an assembled stiffness matrix.
 */
export function hexahedralGrid(nx: number, ny: number, nz: number, dofs = 1): CsrMatrix {
  const n = nx * ny * nz * dofs;
  const rowPtr = new Int32Array(n + 1);
  const cols: number[] = [];
  for (let z = 0; z < nz; z++)
    for (let y = 0; y < ny; y++)
      for (let x = 0; x < nx; x++) {
        const points: number[] = [];
        for (let c = z - 1; c <= z + 1; c++)
          for (let b = y - 1; b <= y + 1; b++)
            for (let a = x - 1; a <= x + 1; a++)
              if (a >= 0 && b >= 0 && c >= 0 && a < nx && b < ny && c < nz) points.push(a + nx * (b + ny * c));
        const row: number[] = [];
        for (const p of points) for (let e = 0; e < dofs; e++) row.push(p * dofs + e);
        for (let d = 0; d < dofs; d++) {
          cols.push(...row);
          rowPtr[(x + nx * (y + ny * z)) * dofs + d + 1] = cols.length;
        }
      }
  return { rows: n, cols: n, rowPtr, colInd: Int32Array.from(cols), values: new Float64Array(cols.length).fill(1) };
}

/** B = A(q, q): row and column i of B are row and column q[i] of A (a renumbering of A's graph). */
export function renumbered(A: CsrMatrix, q: ArrayLike<number>): CsrMatrix {
  const n = A.rows;
  const qinv = invertPermutation(q);
  const rowPtr = new Int32Array(n + 1);
  const cols: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = q[i];
    const row: number[] = [];
    for (let k = A.rowPtr[r]; k < A.rowPtr[r + 1]; k++) row.push(qinv[A.colInd[k]]);
    cols.push(...row.sort((a, b) => a - b));
    rowPtr[i + 1] = cols.length;
  }
  return { rows: n, cols: n, rowPtr, colInd: Int32Array.from(cols), values: new Float64Array(cols.length).fill(1) };
}

/** Bandwidth of A under the ordering perm (new → old): max |new(i) − new(j)| over its entries. */
export function bandwidth(A: CsrMatrix, perm: ArrayLike<number>): number {
  const pinv = invertPermutation(perm);
  let b = 0;
  for (let i = 0; i < A.rows; i++)
    for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) b = Math.max(b, Math.abs(pinv[i] - pinv[A.colInd[k]]));
  return b;
}
