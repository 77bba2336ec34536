import { expect } from 'chai';
import { bsr3FromCsrPattern, bsr3RefillFromCsr, bsr3Spmv } from './bsr3.js';
import { csrFromTriplets, spmv } from './csr.js';

/** A random sparse matrix with partial 3x3 blocks, as CSR (duplicates summed by csrFromTriplets). */
function randomCsr(n: number, seed: number) {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const rows: number[] = [],
    cols: number[] = [],
    vals: number[] = [];
  for (let t = 0; t < 6 * n; t++) {
    rows.push(Math.floor(rnd() * n));
    cols.push(Math.floor(rnd() * n));
    vals.push(rnd() - 0.5);
  }
  return csrFromTriplets(n, n, rows, cols, vals);
}

describe('linalg/bsr3: 3x3 block CSR', () => {
  it('multiplies like the scalar CSR it was built from, after refills with new values', () => {
    const A = randomCsr(60, 7);
    const { matrix: B, scatter } = bsr3FromCsrPattern(A);
    const x = Float64Array.from({ length: 60 }, (_, i) => Math.sin(i + 1));
    for (let round = 0; round < 2; round++) {
      for (let k = 0; k < A.values.length; k++) A.values[k] = Math.cos(k * (round + 1));
      bsr3RefillFromCsr(B, A, scatter);
      const y = new Float64Array(60),
        z = new Float64Array(60);
      spmv(y, A, x);
      bsr3Spmv(z, B, x);
      for (let i = 0; i < 60; i++) expect(z[i]).to.be.closeTo(y[i], 1e-12);
    }
  });

  it('stores each touched block once, columns sorted', () => {
    const A = randomCsr(30, 3);
    const { matrix: B } = bsr3FromCsrPattern(A);
    const blocks = new Set<string>();
    for (let r = 0; r < 30; r++) for (let k = A.rowPtr[r]; k < A.rowPtr[r + 1]; k++) blocks.add(`${(r / 3) | 0},${(A.colInd[k] / 3) | 0}`);
    expect(B.colInd.length).to.equal(blocks.size);
    for (let I = 0; I < B.blockRows; I++)
      for (let b = B.rowPtr[I] + 1; b < B.rowPtr[I + 1]; b++) expect(B.colInd[b]).to.be.above(B.colInd[b - 1]);
  });

  it('refuses a matrix that is not made of 3x3 blocks', () => {
    expect(() => bsr3FromCsrPattern(randomCsr(10, 1))).to.throw(/3x3 blocks/);
  });
});
