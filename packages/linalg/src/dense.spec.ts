import { expect } from 'chai';
import { det, inv, multiply, transpose } from 'mathjs';
import {
  denseCholeskyFactor,
  denseCholeskySolve,
  denseLdltFactor,
  denseLdltSolve,
  denseMatVec,
  mat3Det,
  mat3Invert,
  mat3Multiply,
  mat3MultiplyTranspose,
  mat3MulVec,
  mat3Transpose,
  mat3TransposeMultiply,
  mat3TransposeMulVec,
} from './dense.js';
import { denseMul, denseSolve, expectClose, randomDiagDominantDense, randomVector, rng } from './test-support.js';

const toNested = (m: ArrayLike<number>, n = 3): number[][] =>
  Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => m[i * n + j]));
const flat = (m: number[][]): number[] => m.flat();

describe('dense 3x3', () => {
  const r = rng(2024);
  const mats = Array.from({ length: 8 }, () => randomVector(r, 9));

  it('det and inverse match mathjs; singular matrices report det 0 and leave out untouched', () => {
    for (const m of mats) {
      expect(mat3Det(m)).to.be.closeTo(det(toNested(m)), 1e-14);
      const out = new Float64Array(9);
      const d = mat3Invert(out, m);
      expect(d).to.be.closeTo(det(toNested(m)), 1e-14);
      expectClose(out, flat(inv(toNested(m))), 1e-10, 'inverse');
    }
    const singular = [1, 2, 3, 2, 4, 6, 0, 1, 1];
    const out = new Float64Array(9).fill(5);
    expect(mat3Invert(out, singular)).to.equal(0);
    expect(Array.from(out)).to.deep.equal(new Array(9).fill(5));
    // In place.
    const m = mats[0].slice();
    mat3Invert(m, m);
    expectClose(m, flat(inv(toNested(mats[0]))), 1e-10, 'inverse in place');
  });

  it('products with and without transposes match mathjs, also when out aliases an input', () => {
    for (let t = 0; t + 1 < mats.length; t++) {
      const a = mats[t];
      const b = mats[t + 1];
      const A = toNested(a);
      const B = toNested(b);
      expectClose(mat3Multiply(new Float64Array(9), a, b), flat(multiply(A, B) as number[][]), 1e-14, 'AB');
      expectClose(mat3TransposeMultiply(new Float64Array(9), a, b), flat(multiply(transpose(A), B) as number[][]), 1e-14, 'AᵀB');
      expectClose(mat3MultiplyTranspose(new Float64Array(9), a, b), flat(multiply(A, transpose(B)) as number[][]), 1e-14, 'ABᵀ');
      expectClose(mat3Transpose(new Float64Array(9), a), flat(transpose(A)), 0, 'Aᵀ');
      const alias = a.slice();
      mat3Multiply(alias, alias, b);
      expectClose(alias, flat(multiply(A, B) as number[][]), 1e-14, 'AB aliased');
      const tr = a.slice();
      mat3Transpose(tr, tr);
      expectClose(tr, flat(transpose(A)), 0, 'Aᵀ in place');
      const v = Array.from(b.subarray(0, 3));
      expectClose(mat3MulVec(new Float64Array(3), a, v), multiply(A, v) as number[], 1e-14, 'Av');
      expectClose(mat3TransposeMulVec(new Float64Array(3), a, v), multiply(transpose(A), v) as number[], 1e-14, 'Aᵀv');
    }
  });
});

describe('dense factorizations', () => {
  for (const n of [1, 2, 3, 7, 25, 100]) {
    it(`Cholesky and LDLᵀ solve a random SPD system of size ${n} like mathjs`, () => {
      const r = rng(n * 3 + 1);
      const D = randomDiagDominantDense(r, n, Math.max(1, n / 3));
      const b = randomVector(r, n);
      const expected = denseSolve(D, b);

      const L = Float64Array.from(D.flat());
      denseCholeskyFactor(L, n);
      // L Lᵀ reproduces A (lower triangle of the factor only).
      const Ln = toNested(L, n).map((row, i) => row.map((v, j) => (j <= i ? v : 0)));
      const LLt = multiply(Ln, transpose(Ln)) as number[][];
      for (let i = 0; i < n; i++) expectClose(LLt[i], D[i], 1e-13, `LLᵀ row ${i}`);
      expectClose(denseCholeskySolve(new Float64Array(n), L, n, b), expected, 1e-12, 'Cholesky x');

      const LD = Float64Array.from(D.flat());
      denseLdltFactor(LD, n);
      expectClose(denseLdltSolve(new Float64Array(n), LD, n, b), expected, 1e-12, 'LDLᵀ x');
      // In place (out aliases b).
      const bb = b.slice();
      denseLdltSolve(bb, LD, n, bb);
      expectClose(bb, expected, 1e-12, 'LDLᵀ x in place');
    });
  }

  it('LDLᵀ handles indefinite matrices (negative D) and matches mathjs', () => {
    const n = 40;
    const r = rng(555);
    const D = randomDiagDominantDense(r, n, 6, 0.4);
    const b = randomVector(r, n);
    const LD = Float64Array.from(D.flat());
    denseLdltFactor(LD, n);
    let negatives = 0;
    for (let i = 0; i < n; i++) if (LD[i * n + i] < 0) negatives++;
    expect(negatives).to.be.greaterThan(0);
    expectClose(denseLdltSolve(new Float64Array(n), LD, n, b), denseSolve(D, b), 1e-12, 'x');
  });

  it('closed forms: [[1,2],[2,1]] has D = (1, −3); zero pivots and non-SPD input throw', () => {
    const LD = new Float64Array([1, 2, 2, 1]);
    denseLdltFactor(LD, 2);
    expect([LD[0], LD[2], LD[3]]).to.deep.equal([1, 2, -3]);
    expect(() => denseLdltFactor(new Float64Array([0, 1, 1, 0]), 2)).to.throw(/zero pivot at column 0/);
    expect(() => denseLdltFactor(new Float64Array([1, 1, 1, 1]), 2)).to.throw(/zero pivot at column 1/);
    expect(() => denseCholeskyFactor(new Float64Array([1, 2, 2, 1]), 2)).to.throw(/not SPD/);
  });

  it('denseMatVec matches a plain product', () => {
    const r = rng(8);
    const A = Array.from({ length: 4 }, () => Array.from(randomVector(r, 6)));
    const x = randomVector(r, 6);
    expectClose(denseMatVec(new Float64Array(4), A.flat(), 4, 6, x), denseMul(A, x), 1e-15, 'Ax');
  });
});
