import { expect } from 'chai';
import type { CsrMatrix } from './csr.js';
import type { SupernodeStructure } from './ldlt-analysis.js';
import { firstSharedProduct, subtreeSplit } from './ldlt-subtree-split.js';
import { nestedDissectionOrdering } from './ordering/nested-dissection.js';
import { ThreadPool } from './parallel/thread-pool.js';
import { zeroPivotMessage } from './ldlt-test-support.js';
import { SupernodalLDLT } from './supernodal-ldlt.js';
import { denseToCsr, laplacian3d, randomVector, rng } from './test-support.js';

const bits = (a: Float64Array) => Array.from(a, (v) => (Object.is(v, -0) ? '-0' : String(v)));

/** The parent of each supernode in the supernodal elimination tree (the supernode of its first row below its columns), −1 for a root. */
function superParents(f: SupernodalLDLT): Int32Array {
  const of = new Int32Array(f.n);
  for (let s = 0; s < f.nsuper; s++) of.fill(s, f.superStart[s], f.superStart[s + 1]);
  const parent = new Int32Array(f.nsuper).fill(-1);
  for (let s = 0; s < f.nsuper; s++) {
    const below = f.superRowPtr[s] + f.superStart[s + 1] - f.superStart[s];
    if (below < f.superRowPtr[s + 1]) parent[s] = of[f.superRows[below]];
  }
  return parent;
}

/** A 3D Laplacian with its values made uneven (a shifted diagonal, scaled off-diagonals), so that every pivot differs. */
function uneven(nx: number, ny: number, nz: number, seed: number): CsrMatrix {
  const A = laplacian3d(nx, ny, nz);
  const r = rng(seed);
  for (let i = 0; i < A.rows; i++) {
    for (let q = A.rowPtr[i]; q < A.rowPtr[i + 1]; q++) {
      const j = A.colInd[q];
      if (j === i) A.values[q] += 0.1 + r();
    }
  }
  // symmetric scaling D A D keeps A SPD and symmetric
  const d = Array.from({ length: A.rows }, () => 0.5 + r());
  for (let i = 0; i < A.rows; i++) for (let q = A.rowPtr[i]; q < A.rowPtr[i + 1]; q++) A.values[q] *= d[i] * d[A.colInd[q]];
  return A;
}

function analysed(A: CsrMatrix, ordering: 'amd' | Int32Array, pool?: ThreadPool): SupernodalLDLT {
  const f = new SupernodalLDLT();
  f.threadPool = pool;
  return f.analyze(A, ordering);
}

describe('SupernodalLDLT on two threads (subtree split)', () => {
  const pool = ThreadPool.get(2);

  it('the split: [0, m) and [m, r) are whole subtrees that are not ancestors of each other; their cost is balanced below the one-thread cost', () => {
    const A = uneven(10, 10, 10, 3);
    const f = analysed(A, 'amd');
    const split = subtreeSplit(structureOf(f));
    expect(split, 'a 10×10×10 grid splits').to.not.equal(undefined);
    const { m, r, time } = split!;
    expect(0 < m && m < r && r <= f.nsuper).to.equal(true);
    expect(time).to.be.below(0.9);
    const parent = superParents(f);
    for (let s = 0; s < r; s++) {
      // the ancestors of s stay in its own range or go above r
      for (let a = parent[s]; a >= 0; a = parent[a]) {
        if (s < m) expect(a < m || a >= r, `supernode ${s}'s ancestor ${a}`).to.equal(true);
        else expect(a >= m, `supernode ${s}'s ancestor ${a}`).to.equal(true);
      }
    }
    // a chain (tridiagonal matrix) has no two subtrees to run at once
    const chain = laplacian3d(40, 1, 1);
    const c = analysed(chain, 'natural' as unknown as 'amd');
    expect(subtreeSplit(structureOf(c))).to.equal(undefined);
    // and no product of it is large enough to share; the 10×10×10 grid's are, above its split
    expect(firstSharedProduct(structureOf(c), 0, 24)).to.equal(c.nsuper);
    const first = firstSharedProduct(structureOf(f), r, 24);
    expect(first >= r && first < f.nsuper, `first shared product at ${first}`).to.equal(true);
  });

  it('factors bit for bit as one thread (AMD and nested dissection, refactorized with new values, analysed again), and solves the same', function () {
    if (!pool) this.skip();
    for (const [dims, order] of [
      [[9, 8, 10], 'amd'],
      [[11, 11, 11], 'nd'],
    ] as const) {
      const A = uneven(dims[0], dims[1], dims[2], 7);
      const ordering = order === 'amd' ? 'amd' : nestedDissectionOrdering(A.rows, A.rowPtr, A.colInd);
      const one = analysed(A, ordering);
      const two = analysed(A, ordering, pool);
      expect(two.split, `${order}: split`).to.not.equal(undefined);
      expect(two.parallel).to.equal(true);
      expect(one.split).to.equal(undefined);
      const r = rng(11);
      for (let round = 0; round < 3; round++) {
        for (let k = 0; k < A.values.length; k++) A.values[k] *= 1 + 0.01 * r();
        one.factorize(A);
        two.factorize(A);
        expect(bits(two.Lx), `${order} round ${round}: L`).to.deep.equal(bits(one.Lx));
        expect(bits(two.D), `${order} round ${round}: D`).to.deep.equal(bits(one.D));
        const b = randomVector(r, A.rows);
        expect(bits(two.solve(new Float64Array(A.rows), b))).to.deep.equal(bits(one.solve(new Float64Array(A.rows), b)));
      }
      // a new analysis makes a new kernel and job (the workers forget the old one)
      two.analyze(A, ordering).factorize(A);
      expect(bits(two.Lx), `${order}: after a new analysis`).to.deep.equal(bits(one.Lx));
    }
  });

  it('no two subtrees (one dense supernode): its large products are shared by rows, bit for bit one thread; a vanishing pivot there is reported as one thread reports it', function () {
    if (!pool) this.skip();
    const r = rng(5);
    // (its panels' products reach SHARED_PRODUCT_WORK from order 220 on: 24 columns × 110 rows × 110)
    const n = 260;
    const K: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) K[i][j] = K[j][i] = i === j ? n : r() - 0.5;
    const A = denseToCsr(K);
    const one = analysed(A, 'natural' as unknown as 'amd');
    const two = analysed(A, 'natural' as unknown as 'amd', pool);
    expect(two.nsuper).to.equal(1);
    expect(two.parallel).to.equal(true);
    expect(two.split).to.equal(undefined);
    for (let round = 0; round < 3; round++) {
      for (let k = 0; k < A.values.length; k++) A.values[k] *= 1 + 1e-3 * round;
      one.factorize(A);
      two.factorize(A);
      expect(two.sharedProducts, 'products shared').to.be.above(0);
      expect(bits(two.Lx)).to.deep.equal(bits(one.Lx));
      expect(bits(two.D)).to.deep.equal(bits(one.D));
    }
    // row and column 150 set to zero: its pivot vanishes in the sixth panel
    const saved = Float64Array.from(A.values);
    for (let p = 0; p < n; p++) for (let q = A.rowPtr[p]; q < A.rowPtr[p + 1]; q++) if (p === 150 || A.colInd[q] === 150) A.values[q] = 0;
    const message = (f: SupernodalLDLT) => zeroPivotMessage(f, A);
    expect(message(one)).to.include('step 150');
    expect(message(two)).to.equal(message(one));
    A.values.set(saved);
    two.factorize(A);
    one.factorize(A);
    expect(bits(two.Lx)).to.deep.equal(bits(one.Lx));
  });

  it('a pool of three threads: the third runs an empty range and changes nothing', function () {
    const pool3 = ThreadPool.get(3);
    if (!pool3) this.skip();
    const A = uneven(9, 9, 9, 5);
    const one = analysed(A, 'amd').factorize(A);
    const three = analysed(A, 'amd', pool3).factorize(A);
    expect(three.split).to.not.equal(undefined);
    expect(bits(three.Lx)).to.deep.equal(bits(one.Lx));
    expect(bits(three.D)).to.deep.equal(bits(one.D));
  });

  it("a vanishing pivot in the worker's range, or in both ranges, is reported as one thread reports it; the next factorization succeeds", function () {
    if (!pool) this.skip();
    const A = uneven(9, 8, 10, 9);
    const one = analysed(A, 'amd');
    const two = analysed(A, 'amd', pool);
    const { m, r } = two.split!;
    const saved = Float64Array.from(A.values);
    // a row and column of A set to zero: its pivot is exactly 0 (no update reaches it)
    const zeroRowAndColumn = (step: number) => {
      const i = two.perm[step];
      for (let p = 0; p < A.rows; p++) {
        for (let q = A.rowPtr[p]; q < A.rowPtr[p + 1]; q++) if (p === i || A.colInd[q] === i) A.values[q] = 0;
      }
    };
    const failure = (f: SupernodalLDLT) => zeroPivotMessage(f, A);
    const inWorker = two.superStart[m + ((r - m) >> 1)];
    const inMain = two.superStart[m >> 1];
    for (const steps of [[inWorker], [inWorker, inMain]]) {
      A.values.set(saved);
      for (const k of steps) zeroRowAndColumn(k);
      const expected = failure(one);
      expect(expected).to.include(`step ${Math.min(...steps)}`);
      expect(failure(two)).to.equal(expected);
      A.values.set(saved);
      one.factorize(A);
      two.factorize(A);
      expect(bits(two.Lx)).to.deep.equal(bits(one.Lx));
    }
  });
});

/** The analysis' supernodes, with the supernode of each column. */
function structureOf(f: SupernodalLDLT): SupernodeStructure {
  const superOf = new Int32Array(f.n);
  for (let s = 0; s < f.nsuper; s++) superOf.fill(s, f.superStart[s], f.superStart[s + 1]);
  return { nsuper: f.nsuper, superStart: f.superStart, superRowPtr: f.superRowPtr, superRows: f.superRows, superOf };
}
