import { expect } from 'chai';
import { type CsrMatrix } from './csr.js';
import { refillDiagDominant } from './ldlt-test-support.js';
import { SupernodalCompliance } from './supernodal-compliance.js';
import { SupernodalLDLT } from './supernodal-ldlt.js';
import { denseSolve, denseToCsr, expectClose, laplacian3d, randInt, randSigned, randomDiagDominantDense, rng } from './test-support.js';

/** Sparse columns: per column a few random rows (a repeat now and then), some columns empty. */
function randomColumns(
  r: () => number,
  n: number,
  m: number,
  perCol: number,
): { ptr: Int32Array; ind: Int32Array; val: Float64Array; dense: number[][] } {
  const ptr = new Int32Array(m + 1);
  const ind: number[] = [];
  const val: number[] = [];
  const dense = Array.from({ length: m }, () => new Array<number>(n).fill(0));
  for (let j = 0; j < m; j++) {
    const count = j % 5 === 4 ? 0 : 1 + randInt(r, perCol);
    for (let e = 0; e < count; e++) {
      const i = e > 0 && r() < 0.2 ? ind[ind.length - 1] : randInt(r, n);
      const v = randSigned(r);
      ind.push(i);
      val.push(v);
      dense[j][i] += v;
    }
    ptr[j + 1] = ind.length;
  }
  return { ptr, ind: Int32Array.from(ind), val: Float64Array.from(val), dense };
}

/** Dense oracle: X = A⁻¹·B by mathjs's LU (columns), G = Bᵀ·X. */
function oracle(Ad: number[][], dense: number[][]): { X: number[][]; G: number[][] } {
  const X = dense.map((b) => denseSolve(Ad, b));
  const G = dense.map((bi) => X.map((xj) => bi.reduce((s, v, k) => s + v * xj[k], 0)));
  return { X, G };
}

function denseOf(A: CsrMatrix): number[][] {
  const D = Array.from({ length: A.rows }, () => new Array<number>(A.cols).fill(0));
  for (let i = 0; i < A.rows; i++) for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) D[i][A.colInd[k]] = A.values[k];
  return D;
}

function check(A: CsrMatrix, f: SupernodalLDLT, sc: SupernodalCompliance, r: () => number, m: number, perCol: number): void {
  const n = A.rows;
  const Ad = denseOf(A);
  const cols = randomColumns(r, n, m, perCol);
  sc.forward(f, m, cols.ptr, cols.ind, cols.val);
  const { X, G } = oracle(Ad, cols.dense);
  // Gram into a larger matrix through a row map, on top of what it held
  const ld = m + 3;
  const index = Int32Array.from({ length: m }, (_, j) => (j * 7 + 2) % ld);
  const seen = new Set(index);
  expect(seen.size).to.equal(m);
  const out = new Float64Array(ld * ld).fill(0.5);
  sc.addGram(out, ld, index, 2);
  let scale = 0;
  for (const row of G) for (const v of row) scale = Math.max(scale, Math.abs(v));
  for (let a = 0; a < m; a++) {
    for (let b = 0; b < m; b++) expect(out[index[a] * ld + index[b]] - 0.5).to.be.closeTo(2 * G[a][b], 1e-10 * (1 + scale));
  }
  // rows and columns outside the map untouched
  for (let i = 0; i < ld; i++) if (!seen.has(i)) for (let j = 0; j < ld; j++) expect(out[i * ld + j]).to.equal(0.5);
  // A⁻¹·B·c
  const c = Float64Array.from({ length: m }, () => randSigned(r));
  const x = new Float64Array(n);
  sc.solveCombination(x, c);
  const expected = new Array<number>(n).fill(0);
  for (let j = 0; j < m; j++) for (let k = 0; k < n; k++) expected[k] += c[j] * X[j][k];
  expectClose(x, expected, 1e-10, 'A⁻¹·B·c');
}

describe('SupernodalCompliance (Bᵀ·A⁻¹·B and A⁻¹·B·c through a supernodal LDLᵀ)', () => {
  it('matches a dense solve on a 3D Laplacian, for few and many columns, reusing its workspace', () => {
    const r = rng(11);
    const A = laplacian3d(5, 4, 6);
    const f = new SupernodalLDLT().analyze(A, 'amd').factorize(A);
    const sc = new SupernodalCompliance();
    check(A, f, sc, r, 1, 1);
    check(A, f, sc, r, 7, 4);
    check(A, f, sc, r, 40, 3);
    check(A, f, sc, r, 3, 2);
  });

  it("reaches only the supernodes above the columns' non-zeros", () => {
    // two decoupled blocks: a column on the first never touches the second's supernodes
    const r = rng(3);
    const n1 = 30;
    const Ad = randomDiagDominantDense(r, 2 * n1, 4);
    for (let i = 0; i < n1; i++) for (let j = n1; j < 2 * n1; j++) Ad[i][j] = Ad[j][i] = 0;
    const A = denseToCsr(Ad);
    const f = new SupernodalLDLT().analyze(A, 'natural').factorize(A);
    const sc = new SupernodalCompliance();
    sc.forward(f, 1, Int32Array.of(0, 1), Int32Array.of(3), Float64Array.of(1));
    let inFirst = 0;
    for (let s = 0; s < f.nsuper; s++) if (f.superStart[s] < n1) inFirst++;
    expect(sc.reached).to.be.greaterThan(0).and.at.most(inFirst);
    const x = new Float64Array(2 * n1);
    sc.solveCombination(x, Float64Array.of(1));
    const e = new Array<number>(2 * n1).fill(0);
    e[3] = 1;
    expectClose(x, denseSolve(Ad, e), 1e-12, 'A⁻¹·e₃');
  });

  it('works on indefinite quasi-definite matrices and after a new analysis', () => {
    const r = rng(5);
    const A = laplacian3d(4, 4, 4);
    refillDiagDominant(r, A, -1);
    const f = new SupernodalLDLT().analyze(A, 'amd').factorize(A);
    const sc = new SupernodalCompliance();
    check(A, f, sc, r, 6, 3);
    // new pattern, new size: the tables follow the new analysis
    const A2 = denseToCsr(randomDiagDominantDense(r, 45, 5, 0.3));
    f.analyze(A2, 'amd').factorize(A2);
    check(A2, f, sc, r, 9, 3);
  });

  it("the WebAssembly forward solve (Y in the kernel's memory, growing with the columns) gives the JavaScript code's Gram and A⁻¹·B·c to the bit", () => {
    const r = rng(17);
    const A = laplacian3d(5, 4, 5);
    const js = new SupernodalLDLT();
    js.kernelChoice = 'js';
    js.analyze(A, 'amd').factorize(A);
    const wasm = new SupernodalLDLT().analyze(A, 'amd').factorize(A);
    expect(wasm.kernelScratch(0), 'the kernel runs').to.not.equal(undefined);
    const [scJs, scWasm] = [new SupernodalCompliance(), new SupernodalCompliance()];
    const bits = (a: Float64Array) => Array.from(a, (v) => (Object.is(v, -0) ? '-0' : String(v)));
    for (const [m, perCol] of [
      [1, 1],
      [8, 3],
      [11, 5],
      [21, 2],
      [5, 4],
    ] as const) {
      const cols = randomColumns(r, A.rows, m, perCol);
      const out = [new Float64Array(m * m), new Float64Array(m * m)];
      const x = [new Float64Array(A.rows), new Float64Array(A.rows)];
      const c = Float64Array.from({ length: m }, () => randSigned(r));
      const index = Int32Array.from({ length: m }, (_, j) => j);
      [scJs, scWasm].forEach((sc, k) => {
        sc.forward(k === 0 ? js : wasm, m, cols.ptr, cols.ind, cols.val);
        sc.addGram(out[k], m, index, 1);
        sc.solveCombination(x[k], c);
      });
      expect(bits(out[1]), `Gram (m = ${m})`).to.deep.equal(bits(out[0]));
      expect(bits(x[1]), `A⁻¹·B·c (m = ${m})`).to.deep.equal(bits(x[0]));
      const { G } = oracle(denseOf(A), cols.dense);
      for (let a = 0; a < m; a++) for (let b = 0; b < m; b++) expect(out[1][a * m + b]).to.be.closeTo(G[a][b], 1e-10);
    }
  });

  it('refuses a factor that did not factorize', () => {
    const A = laplacian3d(3, 3, 3);
    const f = new SupernodalLDLT().analyze(A, 'amd');
    expect(() => new SupernodalCompliance().forward(f, 1, Int32Array.of(0, 1), Int32Array.of(0), Float64Array.of(1))).to.throw(
      /no valid factorization/,
    );
  });
});
