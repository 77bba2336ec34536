/**
 * Helpers shared by sparse-ldlt.spec.ts, supernodal-ldlt.spec.ts and ldlt-subtree-split.spec.ts (not exported from the
 * package): random orderings, triangles, refills on a fixed pattern, residuals, and the checks
 * that both factorizations must pass the same way (storage triangles, guards).
 */
import { expect } from 'chai';
import { type CsrMatrix, csrNnz, csrToDense, spmv } from './csr.js';
import type { LdltAnalyzeOptions, LdltOrdering } from './ldlt-analysis.js';
import { ZeroPivotError } from './sparse-ldlt.js';
import { denseSolve, denseToCsr, expectClose, randInt, randomDiagDominantDense, randomVector } from './test-support.js';

/** What the specs use of SparseLDLT and SupernodalLDLT. */
export interface LdltSolver {
  analyze(A: CsrMatrix, ordering?: LdltOrdering, options?: LdltAnalyzeOptions): this;
  factorize(A: CsrMatrix): this;
  solve(out: Float64Array, b: Float64Array): Float64Array;
}

/** Random permutation of 0..n-1 (Fisher–Yates). */
export function shuffle(r: () => number, n: number): Int32Array {
  const p = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = randInt(r, i + 1);
    [p[i], p[j]] = [p[j], p[i]];
  }
  return p;
}

/** Keeps only one triangle of a dense matrix, diagonal included (for storage = 'upper' / 'lower'). */
export function triangle(D: number[][], upper: boolean): number[][] {
  return D.map((row, i) => row.map((v, j) => ((upper ? j >= i : j <= i) ? v : 0)));
}

/** ‖A x − b‖ / ‖b‖ with the full symmetric A. */
export function relativeResidual(A: CsrMatrix, x: Float64Array, b: Float64Array): number {
  const Ax = spmv(new Float64Array(A.rows), A, x);
  let res = 0;
  let nb = 0;
  for (let i = 0; i < A.rows; i++) {
    res += (Ax[i] - b[i]) ** 2;
    nb += b[i] ** 2;
  }
  return Math.sqrt(res / nb);
}

/**
 * New values on the pattern of the square A (both triangles stored): symmetric off-diagonal entries
 * in [-1, 1), and a strictly dominant diagonal Σ_j |a_ij| + 0.5 of sign `sign`. Written into
 * A.values; returns the same matrix dense.
 */
export function refillDiagDominant(r: () => number, A: CsrMatrix, sign: 1 | -1): number[][] {
  const n = A.rows;
  const Dt = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) {
      const j = A.colInd[k];
      if (j > i) Dt[i][j] = Dt[j][i] = 2 * r() - 1;
    }
  }
  for (let i = 0; i < n; i++) Dt[i][i] = sign * (Dt[i].reduce((s, v) => s + Math.abs(v), 0) + 0.5);
  for (let i = 0; i < n; i++) for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) A.values[k] = Dt[i][A.colInd[k]];
  return Dt;
}

/**
 * A failed factorization (all values zero: ZeroPivotError) leaves the workspace clean: with the
 * values of A back, f factorizes and solves like mathjs. f has been analysed for A's pattern.
 */
export function expectRecoversAfterZeroPivot(f: LdltSolver, A: CsrMatrix, r: () => number): void {
  const saved = A.values.slice();
  A.values.fill(0);
  expect(() => f.factorize(A)).to.throw(ZeroPivotError);
  A.values.set(saved);
  f.factorize(A);
  const b = randomVector(r, A.rows);
  expectClose(f.solve(new Float64Array(A.rows), b), denseSolve(csrToDense(A), b), 1e-11, 'x after failure');
}

/**
 * storage 'upper' / 'lower' read only that triangle and solve like mathjs (in place); 'full' reads
 * only the upper triangle: garbage in the strictly lower one changes nothing, to the bit.
 */
export function expectReadsOnlyRequestedTriangle(Solver: new () => LdltSolver, r: () => number): void {
  const n = 45;
  const D = randomDiagDominantDense(r, n, 4);
  const b = randomVector(r, n);
  const expected = denseSolve(D, b);
  for (const storage of ['upper', 'lower'] as const) {
    const T = denseToCsr(triangle(D, storage === 'upper'));
    const f = new Solver().analyze(T, 'amd', { storage }).factorize(T);
    const x = b.slice();
    f.solve(x, x);
    expectClose(x, expected, 1e-11, storage);
  }
  const full = denseToCsr(D);
  const f = new Solver().analyze(full).factorize(full);
  const x0 = f.solve(new Float64Array(n), b);
  for (let i = 0; i < n; i++) for (let k = full.rowPtr[i]; k < full.rowPtr[i + 1]; k++) if (full.colInd[k] < i) full.values[k] = 1e6;
  f.factorize(full);
  expectClose(f.solve(new Float64Array(n), b), x0, 0, 'upper part only');
}

/**
 * Errors for a non-square matrix, factorize before analyze, a pattern with another nnz, an ordering
 * of the wrong length or not a permutation. r1, r2: generators of two 10 × 10 patterns.
 */
export function expectGuards(Solver: new () => LdltSolver, r1: () => number, r2: () => number): void {
  const rect: CsrMatrix = denseToCsr([[1, 2]]);
  expect(() => new Solver().analyze(rect)).to.throw(/square/);
  const A = denseToCsr(randomDiagDominantDense(r1, 10, 3));
  expect(() => new Solver().factorize(A)).to.throw(/analyze first/);
  const f = new Solver().analyze(A);
  const B = denseToCsr(randomDiagDominantDense(r2, 10, 6));
  expect(csrNnz(B)).not.to.equal(csrNnz(A));
  expect(() => f.factorize(B)).to.throw(/pattern differs/);
  expect(() => new Solver().analyze(A, [0, 1, 2])).to.throw(/ordering has 3 entries/);
  expect(() => new Solver().analyze(A, [0, 0, 1, 2, 3, 4, 5, 6, 7, 8])).to.throw(/not a permutation/);
}

/** [[1, 1], [1, 1 + 1e-14]] has the pivot 1e-14: a ZeroPivotError with pivotTolerance 1e-12, none without. */
export function expectPivotTolerance(Solver: new () => LdltSolver): void {
  const tiny = denseToCsr([
    [1, 1],
    [1, 1 + 1e-14],
  ]);
  expect(() => new Solver().analyze(tiny, 'natural', { pivotTolerance: 1e-12 }).factorize(tiny)).to.throw(ZeroPivotError);
  expect(() => new Solver().analyze(tiny, 'natural').factorize(tiny)).not.to.throw();
}

/** The message of the ZeroPivotError that factorizing A throws, or 'no error'. */
export function zeroPivotMessage(f: LdltSolver, A: CsrMatrix): string {
  try {
    f.factorize(A);
  } catch (e) {
    expect(e).to.be.instanceOf(ZeroPivotError);
    return (e as Error).message;
  }
  return 'no error';
}
