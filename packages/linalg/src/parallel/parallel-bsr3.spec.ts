import { expect } from 'chai';
import { bsr3FromCsrPattern, bsr3RefillFromCsr, bsr3Spmv, type Bsr3Matrix } from '../bsr3.js';
import { csrFromTriplets, spmv } from '../csr.js';
import { dot } from '../vector-ops.js';
import { ParallelBsr3Product } from './parallel-bsr3.js';
import { ThreadPool } from './thread-pool.js';
import { Bsr3Wasm } from '../wasm/bsr3-wasm.js';

/** A random 3x3-block matrix with 1 … 8 blocks per row (a deterministic generator). */
function randomBlocks(rows: number, seed: number): Bsr3Matrix {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const rowPtr = new Int32Array(rows + 1);
  const cols: number[] = [];
  for (let I = 0; I < rows; I++) {
    const set = new Set<number>([I]);
    const k = 1 + Math.floor(rnd() * 8);
    while (set.size < k) set.add(Math.floor(rnd() * rows));
    cols.push(...[...set].sort((a, b) => a - b));
    rowPtr[I + 1] = cols.length;
  }
  const values = new Float64Array(9 * cols.length).map(() => rnd() - 0.5);
  return { blockRows: rows, blockCols: rows, rowPtr, colInd: Int32Array.from(cols), values };
}

describe('ThreadPool and ParallelBsr3Product', () => {
  it('warm then run, in any succession: each worker runs each job exactly once, and a warm alone runs nothing', () => {
    const pool = ThreadPool.get(3)!;
    const counts = new Int32Array(new SharedArrayBuffer(16));
    const job = pool.addModule(new URL('./pool-test-support.js', import.meta.url).href, 'countRuns', counts);
    let runs = 0;
    for (let i = 0; i < 600; i++) {
      for (let t = 1; t < 3; t++) pool.args[8 * t] = t;
      if (i % 3 !== 1) pool.warm();
      if (i % 5 === 4) pool.warm(); // two warms in a row
      if (i % 7 !== 3) {
        pool.run(job, () => {});
        runs++;
      }
    }
    pool.run(job, () => {});
    runs++;
    expect(Array.from(counts.subarray(1, 3))).to.deep.equal([runs, runs]);
    pool.remove(job);
  });

  it('y = B·x on 2 and 3 threads is bit for bit the one-thread product', () => {
    for (const threads of [2, 3]) {
      const pool = ThreadPool.get(threads);
      expect(pool, 'worker threads are available under Node').to.not.equal(undefined);
      const B = randomBlocks(1001, 7 + threads);
      const x = new Float64Array(3 * 1001).map((_, i) => Math.sin(i));
      const want = bsr3Spmv(new Float64Array(3 * 1001), B, x);
      const par = new ParallelBsr3Product(pool!, B);
      const got = new Float64Array(3 * 1001);
      for (let rep = 0; rep < 3; rep++) {
        got.fill(NaN);
        par.apply(got, x);
        expect(got.every((v, i) => Object.is(v, want[i]))).to.equal(true);
      }
      // values refilled in place are seen by the workers
      par.matrix.values.forEach((v, i, a) => (a[i] = 2 * v));
      par.apply(got, x);
      expect(got.every((v, i) => v === 2 * want[i])).to.equal(true);
    }
  });

  it('the WebAssembly product (one thread) is bit for bit bsr3Spmv', () => {
    const B = randomBlocks(777, 3);
    const x = new Float64Array(3 * 777).map((_, i) => Math.cos(7 * i) * 1e3);
    const want = bsr3Spmv(new Float64Array(3 * 777), B, x);
    const w = Bsr3Wasm.create(B)!;
    const got = new Float64Array(3 * 777).fill(NaN);
    w.apply(got, x);
    expect(got.every((v, i) => Object.is(v, want[i]))).to.equal(true);
  });

  it('the fused product and dot (x and y in the kernel memory) is bit for bit bsr3Spmv and dot', () => {
    const B = randomBlocks(501, 11);
    const w = Bsr3Wasm.create(B)!;
    w.xView.forEach((_, i, a) => (a[i] = Math.sin(3 * i) * 10));
    const x = Float64Array.from(w.xView);
    const want = bsr3Spmv(new Float64Array(3 * 501), B, x);
    const d = w.applyDot(w.yView, w.xView);
    expect(w.yView.every((v, i) => Object.is(v, want[i]))).to.equal(true);
    expect(Object.is(d, dot(x, want))).to.equal(true);
  });

  it('refilled from a CSR matrix through kernelScatter, the kernel multiplies as the CSR', () => {
    const A = csrFromTriplets(9, 9, [0, 1, 2, 3, 4, 5, 7, 8, 0, 4], [0, 1, 2, 3, 4, 5, 7, 8, 5, 1], [1, 2, 3, 4, 5, 6, 7, 8, 0.5, -0.25]);
    const { matrix, scatter } = bsr3FromCsrPattern(A);
    const w = Bsr3Wasm.create(matrix)!;
    bsr3RefillFromCsr(w.matrix, A, w.kernelScatter(scatter));
    const x = Float64Array.from({ length: 9 }, (_, i) => i - 3.5);
    const got = new Float64Array(9);
    w.apply(got, x);
    expect(Array.from(got)).to.deep.equal(Array.from(spmv(new Float64Array(9), A, x)));
  });

  it('a pool of fewer than 2 threads is not made', () => {
    expect(ThreadPool.get(1)).to.equal(undefined);
    expect(ThreadPool.get(0)).to.equal(undefined);
  });
});
