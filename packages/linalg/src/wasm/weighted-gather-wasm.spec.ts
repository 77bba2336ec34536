import { expect } from 'chai';
import { WeightedGatherWasm } from './weighted-gather-wasm.js';

describe('WeightedGatherWasm (y_i = Σ_k w_ik·x_c_ik, K terms per 3-vector)', () => {
  const bitwise = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

  /** The loop it replaces: each component summed from 0 over the terms in order, x·w per term. */
  function reference(nOut: number, idx: Int32Array, w: Float64Array, x: Float64Array, K = 4): Float64Array {
    const y = new Float64Array(3 * nOut);
    for (let i = 0; i < nOut; i++)
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let k = K * i; k < K * i + K; k++) s += x[3 * idx[k] + c] * w[k];
        y[3 * i + c] = s;
      }
    return y;
  }

  it('gives the JavaScript sums bit for bit (repeated inputs, negative zeros, weights summing to 1)', () => {
    const nIn = 37,
      nOut = 503;
    const idx = Int32Array.from({ length: 4 * nOut }, (_, k) => (k * 7919 + (k >> 2) * 31) % nIn);
    const w = Float64Array.from({ length: 4 * nOut }, (_, k) =>
      k % 4 === 3 ? 1 - 0.1 * ((k >> 2) % 7) - 0.2 - 0.3 : [0.1 * ((k >> 2) % 7), 0.2, 0.3][k % 4],
    );
    const x = Float64Array.from({ length: 3 * nIn }, (_, i) => (i % 11 === 0 ? -0 : Math.sin(1.7 * i) * 10 ** ((i % 5) - 2)));
    const g = WeightedGatherWasm.create(nIn, idx, w, 4)!;
    expect(g).to.not.equal(undefined);
    const y = new Float64Array(3 * nOut).fill(NaN);
    g.apply(y, x);
    expect(bitwise(y, reference(nOut, idx, w, x))).to.equal(true);
    // a point whose terms are all −0: 0 + (−0) = +0, as the loop gives
    const z = new Float64Array(3 * nIn).fill(-0);
    g.apply(y, z);
    expect(bitwise(y, reference(nOut, idx, w, z))).to.equal(true);
    expect(Object.is(y[0], 0)).to.equal(true);
  });

  it('takes every K from 1 to 8 (edges … hexahedra), bit for bit', () => {
    const nIn = 29,
      nOut = 211;
    for (let K = 1; K <= 8; K++) {
      const idx = Int32Array.from({ length: K * nOut }, (_, k) => (k * 31 + 7 * K) % nIn);
      const w = Float64Array.from({ length: K * nOut }, (_, k) => Math.cos(0.37 * k + K));
      const x = Float64Array.from({ length: 3 * nIn }, (_, i) => Math.sin(1.3 * i) * 10 ** ((i % 3) - 1));
      const y = new Float64Array(3 * nOut);
      WeightedGatherWasm.create(nIn, idx, w, K)!.apply(y, x);
      expect(bitwise(y, reference(nOut, idx, w, x, K)), `K = ${K}`).to.equal(true);
    }
  });

  it('refuses term lists that do not divide into outputs of K terms, and K beyond 8', () => {
    expect(WeightedGatherWasm.create(3, new Int32Array(6), new Float64Array(6), 4)).to.equal(undefined);
    expect(WeightedGatherWasm.create(3, new Int32Array(9), new Float64Array(9), 9)).to.equal(undefined);
  });
});
