import { expect } from 'chai';
import { multiply, transpose } from 'mathjs';
import { csrCheck, csrFindSlot, csrNnz, csrToDense } from './csr.js';
import { spgemm, spgemmNumeric, spgemmSymbolic } from './spgemm.js';
import { TripleProductPlan, transposeProductTriple } from './triple-product.js';
import { denseToCsr, expectMatrixClose, randomDense, rng } from './test-support.js';

// Structural pattern of a product: (i, j) present iff some k has A(i,k) ≠ 0 and B(k,j) ≠ 0.
function productPattern(A: number[][], B: number[][]): boolean[][] {
  return A.map((row) => B[0].map((_, j) => row.some((a, k) => a !== 0 && B[k][j] !== 0)));
}

describe('spgemm', () => {
  const cases: Array<[number, number, number, number]> = [
    [1, 1, 1, 1],
    [4, 6, 3, 0.5],
    [12, 9, 15, 0.25],
    [40, 30, 35, 0.08],
    [5, 5, 5, 0],
  ];
  for (const [m, k, n, density] of cases) {
    it(`(${m}x${k})·(${k}x${n}) density ${density} equals mathjs, with the structural pattern`, () => {
      const r = rng(m * 1000 + k * 10 + n);
      const DA = randomDense(r, m, k, density);
      const DB = randomDense(r, k, n, density);
      const C = spgemm(denseToCsr(DA), denseToCsr(DB));
      csrCheck(C);
      expectMatrixClose(csrToDense(C), multiply(DA, DB) as number[][], 1e-14);
      const pat = productPattern(DA, DB);
      for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) expect(csrFindSlot(C, i, j) >= 0).to.equal(pat[i][j]);
    });
  }

  it('numeric refill with new values on the same patterns allocates nothing and is exact', () => {
    const r = rng(5);
    const DA = randomDense(r, 20, 15, 0.2);
    const DB = randomDense(r, 15, 18, 0.2);
    const A = denseToCsr(DA);
    const B = denseToCsr(DB);
    const C = spgemmSymbolic(A, B);
    const acc = new Float64Array(18);
    // New values on the same pattern.
    for (let t = 0; t < 3; t++) {
      for (let q = 0; q < csrNnz(A); q++) A.values[q] = r() - 0.5;
      for (let q = 0; q < csrNnz(B); q++) B.values[q] = r() - 0.5;
      spgemmNumeric(C, A, B, acc);
      expectMatrixClose(csrToDense(C), multiply(csrToDense(A), csrToDense(B)) as number[][], 1e-14);
      expect(acc.every((v) => v === 0)).to.equal(true);
    }
  });

  it('rejects mismatched inner dimensions', () => {
    expect(() => spgemm(denseToCsr([[1, 2]]), denseToCsr([[1, 2]]))).to.throw(/inner dimensions/);
  });
});

describe('TripleProductPlan / transposeProductTriple', () => {
  const cases: Array<[number, number, number]> = [
    [1, 1, 1],
    [3, 5, 0.6],
    [10, 24, 0.2],
    [30, 45, 0.07],
  ];
  for (const [m, n, density] of cases) {
    it(`Jᵀ H J with J ${m}x${n} equals mathjs`, () => {
      const r = rng(m * 7 + n);
      const DJ = randomDense(r, m, n, density);
      const DH = randomDense(r, m, m, Math.min(1, density * 2));
      const C = transposeProductTriple(denseToCsr(DJ), denseToCsr(DH));
      csrCheck(C);
      expect([C.rows, C.cols]).to.deep.equal([n, n]);
      const expected = multiply(multiply(transpose(DJ), DH), DJ) as number[][];
      expectMatrixClose(csrToDense(C), expected, 1e-13);
    });
  }

  it('compute() refills for new J and H values on the same patterns', () => {
    const r = rng(99);
    const DJ = randomDense(r, 12, 18, 0.2);
    const DH = randomDense(r, 12, 12, 0.3);
    for (let i = 0; i < 12; i++) DH[i][i] = 1 + r(); // diagonal present
    const J = denseToCsr(DJ);
    const H = denseToCsr(DH);
    const plan = new TripleProductPlan(J, H);
    const out = plan.createOutput();
    for (let t = 0; t < 3; t++) {
      for (let q = 0; q < csrNnz(J); q++) J.values[q] = r() * 2 - 1;
      for (let q = 0; q < csrNnz(H); q++) H.values[q] = r() * 2 - 1;
      plan.compute(out);
      const DJt = csrToDense(J);
      const expected = multiply(multiply(transpose(DJt), csrToDense(H)), DJt) as number[][];
      expectMatrixClose(csrToDense(out), expected, 1e-13);
    }
    // Explicit matrices with the same pattern are accepted; a different pattern is refused.
    const J2 = { ...J, values: J.values.map((v) => 2 * v) };
    plan.compute(out, J2, H);
    const DJ2 = csrToDense(J2);
    expectMatrixClose(csrToDense(out), multiply(multiply(transpose(DJ2), csrToDense(H)), DJ2) as number[][], 1e-13);
    expect(() => plan.compute(out, denseToCsr([[1]]), H)).to.throw(/pattern/);
  });

  it('rejects an H of the wrong size', () => {
    expect(
      () =>
        new TripleProductPlan(
          denseToCsr([[1, 2]]),
          denseToCsr([
            [1, 0],
            [0, 1],
          ]),
        ),
    ).to.throw(/H must be/);
  });
});
