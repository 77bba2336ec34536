/**
 * Helpers shared by the *.spec.ts files (not exported from the package): a seeded random
 * generator, matrix generators built directly as dense arrays or CSR arrays, and comparisons.
 */
import { expect } from 'chai';
import { lusolve } from 'mathjs';
import type { CsrMatrix } from './csr.js';

/** Deterministic uniform [0, 1) generator (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform integer in [0, n). */
export function randInt(r: () => number, n: number): number {
  return Math.floor(r() * n);
}

/** Uniform in [-1, 1). */
export function randSigned(r: () => number): number {
  return 2 * r() - 1;
}

/** A dense rows x cols matrix with about `density` of its entries nonzero. */
export function randomDense(r: () => number, rows: number, cols: number, density: number): number[][] {
  const A: number[][] = [];
  for (let i = 0; i < rows; i++) {
    const row: number[] = [];
    for (let j = 0; j < cols; j++) row.push(r() < density ? randSigned(r) : 0);
    A.push(row);
  }
  return A;
}

/**
 * A random sparse symmetric matrix, strictly diagonally dominant: off-diagonal entries in
 * [-1, 1) with ~`perRow` per row, |A_ii| = Σ_j |A_ij| + 1 + rand. With `negativeFraction` > 0
 * that fraction of the diagonal is negative (indefinite, but every symmetric elimination order
 * keeps nonzero pivots because strict diagonal dominance survives Schur complements).
 */
export function randomDiagDominantDense(r: () => number, n: number, perRow: number, negativeFraction = 0): number[][] {
  const A: number[][] = [];
  for (let i = 0; i < n; i++) A.push(new Array<number>(n).fill(0));
  const p = n > 1 ? Math.min(1, perRow / (n - 1)) : 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (r() < p) {
        const v = randSigned(r);
        A[i][j] = v;
        A[j][i] = v;
      }
    }
  }
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) if (j !== i) s += Math.abs(A[i][j]);
    const d = s + 1 + r();
    A[i][i] = r() < negativeFraction ? -d : d;
  }
  return A;
}

/** CSR arrays of a dense matrix keeping its nonzeros, built by hand (independent of csr.ts). */
export function denseToCsr(A: number[][]): CsrMatrix {
  const rows = A.length;
  const cols = rows ? A[0].length : 0;
  const rowPtr = new Int32Array(rows + 1);
  const ci: number[] = [];
  const vs: number[] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      if (A[i][j] !== 0) {
        ci.push(j);
        vs.push(A[i][j]);
      }
    }
    rowPtr[i + 1] = ci.length;
  }
  return { rows, cols, rowPtr, colInd: Int32Array.from(ci), values: Float64Array.from(vs) };
}

/** 7-point (3D) Laplacian with Dirichlet boundary on an nx x ny x nz grid: 6 on the diagonal, −1 to neighbours. */
export function laplacian3d(nx: number, ny: number, nz: number): CsrMatrix {
  const n = nx * ny * nz;
  const id = (x: number, y: number, z: number) => x + nx * (y + ny * z);
  const rowPtr = new Int32Array(n + 1);
  const ci: number[] = [];
  const vs: number[] = [];
  for (let z = 0; z < nz; z++) {
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++) {
        const i = id(x, y, z);
        // Neighbours in increasing index order: z−1, y−1, x−1, self, x+1, y+1, z+1.
        if (z > 0) {
          ci.push(id(x, y, z - 1));
          vs.push(-1);
        }
        if (y > 0) {
          ci.push(id(x, y - 1, z));
          vs.push(-1);
        }
        if (x > 0) {
          ci.push(id(x - 1, y, z));
          vs.push(-1);
        }
        ci.push(i);
        vs.push(6);
        if (x < nx - 1) {
          ci.push(id(x + 1, y, z));
          vs.push(-1);
        }
        if (y < ny - 1) {
          ci.push(id(x, y + 1, z));
          vs.push(-1);
        }
        if (z < nz - 1) {
          ci.push(id(x, y, z + 1));
          vs.push(-1);
        }
        rowPtr[i + 1] = ci.length;
      }
    }
  }
  return { rows: n, cols: n, rowPtr, colInd: Int32Array.from(ci), values: Float64Array.from(vs) };
}

/** 5-point (2D) Laplacian: the nz = 1 slice of the 3D one but with 4 on the diagonal. */
export function laplacian2d(nx: number, ny: number): CsrMatrix {
  const A = laplacian3d(nx, ny, 1);
  for (let i = 0; i < A.rows; i++) {
    for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) if (A.colInd[k] === i) A.values[k] = 4;
  }
  return A;
}

/** x with A x = b by mathjs' dense LU. */
export function denseSolve(A: number[][], b: ArrayLike<number>): number[] {
  const x = lusolve(A, Array.from(b)) as number[][];
  return x.map((row) => row[0]);
}

/** Dense y = A x (plain loops). */
export function denseMul(A: number[][], x: ArrayLike<number>): number[] {
  return A.map((row) => row.reduce((s, a, j) => s + a * x[j], 0));
}

/** Random vector of length n in [-1, 1). */
export function randomVector(r: () => number, n: number): Float64Array {
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) v[i] = randSigned(r);
  return v;
}

/** Asserts |a_i − e_i| <= tol · max(1, max_j |e_j|) for all i, with a useful message. */
export function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tol: number, what = 'value'): void {
  expect(actual.length, `${what}: length`).to.equal(expected.length);
  let scale = 1;
  for (let i = 0; i < expected.length; i++) scale = Math.max(scale, Math.abs(expected[i]));
  for (let i = 0; i < expected.length; i++) {
    const d = Math.abs(actual[i] - expected[i]);
    if (!(d <= tol * scale)) {
      expect.fail(`${what}[${i}] = ${actual[i]}, expected ${expected[i]} (|diff| ${d} > ${tol * scale})`);
    }
  }
}

/** Same as expectClose for nested arrays (matrices). */
export function expectMatrixClose(actual: number[][], expected: number[][], tol: number, what = 'matrix'): void {
  expect(actual.length, `${what}: rows`).to.equal(expected.length);
  for (let i = 0; i < expected.length; i++) expectClose(actual[i], expected[i], tol, `${what} row ${i}`);
}
