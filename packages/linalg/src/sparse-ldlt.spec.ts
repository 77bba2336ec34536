import { expect } from 'chai';
import { multiply, transpose } from 'mathjs';
import { csrToDense } from './csr.js';
import {
  expectGuards,
  expectPivotTolerance,
  expectReadsOnlyRequestedTriangle,
  expectRecoversAfterZeroPivot,
  refillDiagDominant,
  relativeResidual,
  shuffle,
} from './ldlt-test-support.js';
import { eliminationFill } from './ordering/fill-oracle-test-support.js';
import { SparseLDLT, ZeroPivotError } from './sparse-ldlt.js';
import { denseSolve, denseToCsr, expectClose, laplacian3d, randomDiagDominantDense, randomVector, rng } from './test-support.js';

describe('SparseLDLT', () => {
  for (const n of [1, 2, 3, 4, 8, 16, 50, 100, 200]) {
    it(`random sparse SPD, n = ${n}: AMD, natural and a random ordering solve like mathjs`, () => {
      const r = rng(1000 + n);
      const D = randomDiagDominantDense(r, n, 4);
      const A = denseToCsr(D);
      const b = randomVector(r, n);
      const expected = denseSolve(D, b);
      for (const ordering of ['amd', 'natural', shuffle(r, n)] as const) {
        const f = new SparseLDLT().analyze(A, ordering).factorize(A);
        expect(f.negativePivots).to.equal(0);
        expectClose(f.solve(new Float64Array(n), b), expected, 1e-11, `x (${typeof ordering === 'string' ? ordering : 'random'})`);
      }
    });
  }

  it('L D Lᵀ reproduces P A Pᵀ, and the column counts match explicit elimination', () => {
    const r = rng(7);
    const n = 30;
    const D = randomDiagDominantDense(r, n, 3);
    const A = denseToCsr(D);
    const f = new SparseLDLT().analyze(A, 'amd').factorize(A);
    expect(f.nnzL).to.equal(eliminationFill(n, A.rowPtr, A.colInd, f.perm));
    const L: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
    for (let j = 0; j < n; j++) {
      for (let p = f.Lp[j]; p < f.Lp[j + 1]; p++) {
        expect(f.Li[p]).to.be.greaterThan(j);
        if (p > f.Lp[j]) expect(f.Li[p]).to.be.greaterThan(f.Li[p - 1]);
        L[f.Li[p]][j] = f.Lx[p];
      }
      // Elimination tree: the parent of j is the first off-diagonal row of column j.
      expect(f.parent[j]).to.equal(f.Lp[j + 1] > f.Lp[j] ? f.Li[f.Lp[j]] : -1);
    }
    const Dm = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? f.D[i] : 0)));
    const LDLt = multiply(multiply(L, Dm), transpose(L)) as number[][];
    for (let i = 0; i < n; i++) {
      const PAPt = Array.from({ length: n }, (_, j) => D[f.perm[i]][f.perm[j]]);
      expectClose(LDLt[i], PAPt, 1e-13, `row ${i}`);
    }
  });

  it('symbolic fill equals explicit elimination for random patterns and orderings', () => {
    const r = rng(8);
    for (let t = 0; t < 6; t++) {
      const n = 20 + 30 * t;
      const A = denseToCsr(randomDiagDominantDense(r, n, 2 + t));
      const perm = t % 2 ? shuffle(r, n) : undefined;
      const f = new SparseLDLT().analyze(A, perm ?? 'amd');
      expect(f.nnzL).to.equal(eliminationFill(n, A.rowPtr, A.colInd, f.perm));
    }
  });

  it('3D Laplacian 6x6x6 (n = 216) matches mathjs; 15x15x15 has a tiny residual', () => {
    const A = laplacian3d(6, 6, 6);
    const b = randomVector(rng(9), A.rows);
    const f = new SparseLDLT().analyze(A).factorize(A);
    expectClose(f.solve(new Float64Array(A.rows), b), denseSolve(csrToDense(A), b), 1e-12, 'x');

    const B = laplacian3d(15, 15, 15);
    const c = randomVector(rng(10), B.rows);
    const g = new SparseLDLT().analyze(B).factorize(B);
    expect(relativeResidual(B, g.solve(new Float64Array(B.rows), c), c)).to.be.below(1e-13);
  });

  it('indefinite matrices: [[1,2],[2,1]] gives D = (1, −3); inertia equals the sign pattern of a diagonally dominant matrix', () => {
    const small = denseToCsr([
      [1, 2],
      [2, 1],
    ]);
    const f = new SparseLDLT().analyze(small, 'natural').factorize(small);
    expect(Array.from(f.D)).to.deep.equal([1, -3]);
    expect(f.negativePivots).to.equal(1);
    expectClose(f.solve(new Float64Array(2), new Float64Array([3, 3])), [1, 1], 1e-15, 'x');

    // Strictly diagonally dominant symmetric: as many negative eigenvalues (hence negative pivots,
    // by Sylvester's law of inertia) as negative diagonal entries, whatever the ordering.
    const r = rng(11);
    for (const n of [10, 60, 150]) {
      const D = randomDiagDominantDense(r, n, 5, 0.4);
      const negatives = D.filter((row, i) => row[i] < 0).length;
      expect(negatives).to.be.greaterThan(0);
      const A = denseToCsr(D);
      const b = randomVector(r, n);
      for (const ordering of ['amd', 'natural'] as const) {
        const g = new SparseLDLT().analyze(A, ordering).factorize(A);
        expect(g.negativePivots).to.equal(negatives);
        expectClose(g.solve(new Float64Array(n), b), denseSolve(D, b), 1e-11, 'x');
      }
    }
  });

  it('zero pivots throw ZeroPivotError naming the elimination step and the original index', () => {
    const anti = denseToCsr([
      [0, 1],
      [1, 0],
    ]);
    const f = new SparseLDLT().analyze(anti, 'natural');
    expect(() => f.factorize(anti)).to.throw(ZeroPivotError, /step 0 \(original row\/column 0\)/);
    expect(f.factorized).to.equal(false);
    expect(() => f.solve(new Float64Array(2), new Float64Array(2))).to.throw(/no valid factorization/);

    const singular = denseToCsr([
      [1, 1, 0],
      [1, 1, 0],
      [0, 0, 2],
    ]);
    const g = new SparseLDLT().analyze(singular, Int32Array.from([2, 0, 1]));
    try {
      g.factorize(singular);
      expect.fail('should throw');
    } catch (e) {
      expect(e).to.be.instanceOf(ZeroPivotError);
      const z = e as ZeroPivotError;
      expect([z.column, z.index, z.pivot]).to.deep.equal([2, 1, 0]);
    }
    // A pivot tolerance turns a tiny pivot into an error too.
    expectPivotTolerance(SparseLDLT);
  });

  it('refactorize with new values on the same pattern (and recover after a failed factorization)', () => {
    const r = rng(12);
    const n = 80;
    const D1 = randomDiagDominantDense(r, n, 4);
    const A = denseToCsr(D1);
    const f = new SparseLDLT().analyze(A);
    const Li = f.Li;
    const Lx = f.Lx;
    for (let t = 0; t < 4; t++) {
      // New values: same pattern, new magnitudes, a different (still dominant) diagonal.
      const Dt = refillDiagDominant(r, A, t % 2 ? -1 : 1);
      const b = randomVector(r, n);
      f.factorize(A);
      expect(f.Li).to.equal(Li); // storage reused
      expect(f.Lx).to.equal(Lx);
      expectClose(f.solve(new Float64Array(n), b), denseSolve(Dt, b), 1e-11, `x (refill ${t})`);
    }
    // A failed factorization leaves the workspace clean for the next one.
    expectRecoversAfterZeroPivot(f, A, r);
  });

  it('reads only the requested triangle (storage: upper / lower); solve may work in place', () => {
    expectReadsOnlyRequestedTriangle(SparseLDLT, rng(13));
  });

  it('guards: non-square, factorize before analyze, pattern mismatch, bad ordering', () => {
    expectGuards(SparseLDLT, rng(14), rng(15));
  });
});
