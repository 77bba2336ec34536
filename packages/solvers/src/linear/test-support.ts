/**
 * Helpers of the linear solver specs (not exported): seeded random matrices built as dense arrays,
 * their CSR form written by hand, a stand-in for the mechanical system that serves a fixed matrix,
 * and a mathjs dense solve as the oracle.
 */
import { expect } from 'chai';
import { lusolve } from 'mathjs';
import type { MechanicalSystem } from '@sofa-ts/assembly';
import type { CsrMatrix } from '@sofa-ts/linalg';

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

/** Random sparse SPD matrix: B·Bᵀ-free construction, symmetric off-diagonals and a dominant diagonal. */
export function randomSpd(r: () => number, n: number, perRow: number, diagScale: (i: number) => number = () => 1): number[][] {
  const A = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const p = n > 1 ? Math.min(1, perRow / (n - 1)) : 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (r() < p) A[i][j] = A[j][i] = 2 * r() - 1;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) if (j !== i) s += Math.abs(A[i][j]);
    A[i][i] = s + 0.5 + r();
  }
  // Symmetric scaling S·A·S keeps A SPD and makes it badly scaled when diagScale varies.
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) A[i][j] *= Math.sqrt(diagScale(i) * diagScale(j));
  return A;
}

/** Random unsymmetric nonsingular sparse matrix (a permuted dominant entry per row). */
export function randomUnsymmetric(r: () => number, n: number, perRow: number): number[][] {
  const A = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) for (let k = 0; k < perRow; k++) A[i][Math.floor(r() * n)] = 2 * r() - 1;
  for (let i = 0; i < n; i++) A[i][(3 * i + 1) % n] += 4 + r();
  for (let i = 0; i < n; i++) A[i][i] += 0.01;
  return A;
}

export function denseToCsr(A: number[][]): CsrMatrix {
  const n = A.length;
  const rowPtr = new Int32Array(n + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < A[i].length; j++) {
      if (A[i][j] !== 0 || i === j) {
        cols.push(j);
        vals.push(A[i][j]);
      }
    }
    rowPtr[i + 1] = cols.length;
  }
  return { rows: n, cols: A[0]?.length ?? 0, rowPtr, colInd: Int32Array.from(cols), values: Float64Array.from(vals) };
}

export function denseSolve(A: number[][], b: ArrayLike<number>): number[] {
  return (lusolve(A, Array.from(b)) as number[][]).map((row) => row[0]);
}

export function denseMul(A: number[][], x: ArrayLike<number>): number[] {
  return A.map((row) => row.reduce((s, a, j) => s + a * x[j], 0));
}

export function randomVector(r: () => number, n: number): Float64Array {
  return Float64Array.from({ length: n }, () => 2 * r() - 1);
}

export function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tol: number, what: string): void {
  let scale = 1;
  for (let i = 0; i < expected.length; i++) scale = Math.max(scale, Math.abs(expected[i]));
  for (let i = 0; i < expected.length; i++) {
    const d = Math.abs(actual[i] - expected[i]);
    if (!(d <= tol * scale)) expect.fail(`${what}[${i}] = ${actual[i]}, expected ${expected[i]} (|diff| ${d})`);
  }
}

/**
 * A stand-in for the compiled mechanical system with a fixed matrix A (whatever the factors):
 * assembleMBK returns a copy refilled each call (like the real one), applyMBK multiplies by A.
 * One master state of `derivSize` per point. `projected` lists dofs of projective constraints for
 * the solvers that take the unprojected matrix (BTDLinearSolver): A itself is never projected here.
 */
export function fixedSystem(A: number[][], derivSize = 1, projected: readonly number[] = []): MechanicalSystem & { assemblies: number } {
  const csr = denseToCsr(A);
  const own = { ...csr, values: csr.values.slice() };
  const n = A.length;
  const sys = {
    assemblies: 0,
    size: n,
    masters: [{ offset: 0, derivLength: n, state: { stateType: { derivSize } } }],
    matrixPatternVersion: 0,
    hasGeneralProjection: false,
    /** The unprojected matrix either way (a caller asking for it applies `projected` itself). */
    projectedDofList: () => Int32Array.from(projected),
    assembleMBK(): CsrMatrix {
      sys.assemblies++;
      own.values.set(csr.values);
      return own;
    },
    applyMBK(out: Float64Array, _f: unknown, p: Float64Array): void {
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let k = csr.rowPtr[i]; k < csr.rowPtr[i + 1]; k++) s += csr.values[k] * p[csr.colInd[k]];
        out[i] = s;
      }
    },
  };
  return sys as unknown as MechanicalSystem & { assemblies: number };
}

export const anyFactors = { m: 1, b: 0, k: 0 };
