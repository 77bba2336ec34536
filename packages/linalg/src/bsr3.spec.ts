import { expect } from 'chai';
import { bsr3FromCsrPattern, bsr3HasWholeBlocks, bsr3RefillFromCsr, bsr3RefillWholeBlocks, bsr3Spmv } from './bsr3.js';
import { KERNEL_ORDER } from './wasm/bsr3-wasm.js';
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

  it('a CSR made of whole blocks is refilled without a map, the values the map puts (standard and kernel orders)', () => {
    // whole 3x3 blocks at random block positions (duplicates summed), as an assembled mesh of Vec3 points
    let s = 11;
    const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
    const nb = 20;
    const rows: number[] = [],
      cols: number[] = [],
      vals: number[] = [];
    for (let t = 0; t < 4 * nb; t++) {
      const I = Math.floor(rnd() * nb),
        J = Math.floor(rnd() * nb);
      for (let a = 0; a < 3; a++)
        for (let c = 0; c < 3; c++) {
          rows.push(3 * I + a);
          cols.push(3 * J + c);
          vals.push(rnd() - 0.5);
        }
    }
    const A = csrFromTriplets(3 * nb, 3 * nb, rows, cols, vals);
    for (const order of [[0, 1, 2, 3, 4, 5, 6, 7, 8], KERNEL_ORDER]) {
      const viaMap = bsr3FromCsrPattern(A);
      const direct = bsr3FromCsrPattern(A).matrix;
      expect(bsr3HasWholeBlocks(direct, A)).to.equal(true);
      const scatter = viaMap.scatter.map((t) => t - (t % 9) + order[t % 9]);
      bsr3RefillFromCsr(viaMap.matrix, A, scatter);
      bsr3RefillWholeBlocks(direct, A, order);
      expect(direct.values.every((v, i) => Object.is(v, viaMap.matrix.values[i]))).to.equal(true);
    }
    // a partly present block (a scalar entry alone) needs the map
    const P = randomCsr(60, 7);
    expect(bsr3HasWholeBlocks(bsr3FromCsrPattern(P).matrix, P)).to.equal(false);
  });

  it('refuses a matrix that is not made of 3x3 blocks', () => {
    expect(() => bsr3FromCsrPattern(randomCsr(10, 1))).to.throw(/3x3 blocks/);
  });
});
