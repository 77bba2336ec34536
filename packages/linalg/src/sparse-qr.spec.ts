import { expect } from 'chai';
import { multiply, transpose } from 'mathjs';
import { amdOrdering } from './ordering/amd.js';
import { SparseQR } from './sparse-qr.js';
import { denseSolve, denseToCsr, expectClose, randomDense, randomDiagDominantDense, randomVector, rng } from './test-support.js';

describe('SparseQR', () => {
  for (const n of [1, 3, 10, 60]) {
    it(`square nonsingular systems, n = ${n}: solves like mathjs, natural and AMD column orders`, () => {
      const r = rng(300 + n);
      const D = randomDense(r, n, n, Math.min(1, 4 / n));
      for (let i = 0; i < n; i++) D[i][(i * 7 + 3) % n] += 4; // nonsingular, unsymmetric
      const A = denseToCsr(D);
      const b = randomVector(r, n);
      const expected = denseSolve(D, b);
      for (const q of [undefined, amdOrdering(n, A.rowPtr, A.colInd)]) {
        const qr = new SparseQR().analyze(A, q).factorize(A);
        expect(qr.rank).to.equal(n);
        expectClose(qr.solve(new Float64Array(n), b), expected, 1e-10, `n=${n}`);
      }
    });
  }

  it('overdetermined systems: the least-squares solution solves the normal equations AᵀA x = Aᵀb', () => {
    const r = rng(11);
    const m = 30;
    const n = 12;
    const D = randomDense(r, m, n, 0.3);
    for (let j = 0; j < n; j++) D[j][j] += 2;
    const A = denseToCsr(D);
    const b = randomVector(r, m);
    const AtA = multiply(transpose(D), D) as number[][];
    const Atb = multiply(transpose(D), Array.from(b)) as number[];
    const qr = new SparseQR().analyze(A).factorize(A);
    expectClose(qr.solve(new Float64Array(n), b), denseSolve(AtA, Atb), 1e-9, 'least squares');
  });

  it('refactorizes new values on the same pattern (SPD matrix, twice)', () => {
    const r = rng(4);
    const n = 25;
    const D = randomDiagDominantDense(r, n, 4);
    const A = denseToCsr(D);
    const qr = new SparseQR().analyze(A, amdOrdering(n, A.rowPtr, A.colInd));
    for (let round = 0; round < 2; round++) {
      for (let k = 0; k < A.values.length; k++) A.values[k] *= 1.5;
      const Dk = D.map((row) => row.map((v) => v * Math.pow(1.5, round + 1)));
      const b = randomVector(r, n);
      qr.factorize(A);
      expectClose(qr.solve(new Float64Array(n), b), denseSolve(Dk, b), 1e-10, `round ${round}`);
    }
  });

  it('a rank-deficient matrix: rank is found and the basic solution satisfies the consistent equations', () => {
    // Third column = first + second; b in the range of A.
    const D = [
      [1, 0, 1],
      [0, 1, 1],
      [1, 1, 2],
      [2, -1, 1],
    ];
    const A = denseToCsr(D);
    const x0 = [0.5, -1, 0];
    const b = D.map((row) => row.reduce((s, a, j) => s + a * x0[j], 0));
    const qr = new SparseQR().analyze(A).factorize(A);
    expect(qr.rank).to.equal(2);
    const x = qr.solve(new Float64Array(3), b);
    const Ax = D.map((row) => row.reduce((s, a, j) => s + a * x[j], 0));
    expectClose(Ax, b, 1e-12, 'A x');
  });
});
