import { expect } from 'chai';
import { amdOrdering } from './ordering/amd.js';
import { SingularMatrixError, SparseLU } from './sparse-lu.js';
import {
  denseSolve,
  denseToCsr,
  expectClose,
  randInt,
  randSigned,
  randomDense,
  randomDiagDominantDense,
  randomVector,
  rng,
} from './test-support.js';

// A random sparse unsymmetric matrix whose diagonal is small, so that pivoting is needed, made
// nonsingular by a random permutation matrix added with weight 3.
function needsPivoting(r: () => number, n: number): number[][] {
  const A = randomDense(r, n, n, Math.min(1, 3 / n));
  const p = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = randInt(r, i + 1);
    [p[i], p[j]] = [p[j], p[i]];
  }
  for (let i = 0; i < n; i++) {
    A[i][i] = 1e-3 * randSigned(r);
    A[i][p[i]] += 3 + r();
  }
  return A;
}

describe('SparseLU', () => {
  for (const n of [1, 2, 5, 20, 80]) {
    it(`unsymmetric systems needing row exchanges, n = ${n}: solves like mathjs (natural, AMD, threshold 1 and 0.1)`, () => {
      const r = rng(77 + n);
      const D = needsPivoting(r, n);
      const A = denseToCsr(D);
      const b = randomVector(r, n);
      const expected = denseSolve(D, b);
      for (const q of [undefined, amdOrdering(n, A.rowPtr, A.colInd)]) {
        for (const pivotThreshold of [1, 0.1]) {
          const lu = new SparseLU().analyze(A, q, { pivotThreshold }).factorize(A);
          expectClose(lu.solve(new Float64Array(n), b), expected, 1e-10, `n=${n} thr=${pivotThreshold}`);
        }
      }
    });
  }

  it('refactorizes new values on the same pattern without re-analysis (and stays exact)', () => {
    const r = rng(5);
    const n = 40;
    const D = randomDiagDominantDense(r, n, 5);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i < j && D[i][j] !== 0) D[i][j] *= 2; // unsymmetric values
    const A = denseToCsr(D);
    const lu = new SparseLU().analyze(A, amdOrdering(n, A.rowPtr, A.colInd), { pivotThreshold: 0.001 });
    for (let round = 0; round < 3; round++) {
      for (let k = 0; k < A.values.length; k++) A.values[k] *= 1 + 0.1 * randSigned(r);
      const Dk: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
      for (let i = 0; i < n; i++) for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) Dk[i][A.colInd[k]] = A.values[k];
      const b = randomVector(r, n);
      lu.factorize(A);
      expectClose(lu.solve(new Float64Array(n), b), denseSolve(Dk, b), 1e-10, `round ${round}`);
    }
  });

  it('keeps the diagonal pivot of a diagonally dominant matrix: L has no more fill than LDLᵀ would', () => {
    const r = rng(9);
    const n = 60;
    const D = randomDiagDominantDense(r, n, 3);
    const A = denseToCsr(D);
    const lu = new SparseLU().analyze(A, undefined, { pivotThreshold: 0.1 }).factorize(A);
    // With diagonal pivots, L and Uᵀ share the symmetric pattern: nnz(L) = nnz(U) − n.
    expect(lu.nnzL).to.equal(lu.nnzU - n);
    for (let i = 0; i < n; i++) expect(lu.pinv[i]).to.equal(i);
  });

  it('reports a singular matrix', () => {
    const A = denseToCsr([
      [1, 2, 0],
      [2, 4, 0],
      [0, 0, 1],
    ]);
    expect(() => new SparseLU().analyze(A).factorize(A)).to.throw(SingularMatrixError);
  });
});
