import { expect } from 'chai';
import { cableGradient, cableLength } from './cable-geometry.js';

/**
 * The cable row J = −∂L/∂x against central finite differences of the polyline length, with and
 * without a pull point, and with a point the cable passes through twice; the length of a straight
 * cable against its closed form.
 */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 4294967296;
}

function fdGradient(x: Float64Array, idx: Uint32Array, pull: Float64Array | undefined): Float64Array {
  const out = new Float64Array(3 * (x.length / 3));
  const h = 1e-6;
  for (let i = 0; i < x.length; i++) {
    const xi = x[i];
    x[i] = xi + h;
    const lp = cableLength(x, idx, pull);
    x[i] = xi - h;
    const lm = cableLength(x, idx, pull);
    x[i] = xi;
    out[i] = -(lp - lm) / (2 * h);
  }
  return out;
}

/** The rows per cable point scattered onto the state's points (entries of repeated points add). */
function scatter(rows: Float64Array, idx: Uint32Array, nPoints: number): Float64Array {
  const out = new Float64Array(3 * nPoints);
  for (let k = 0; k < idx.length; k++) for (let a = 0; a < 3; a++) out[3 * idx[k] + a] += rows[3 * k + a];
  return out;
}

describe('softrobots: cable geometry', () => {
  it('the length of a straight cable is the distance from the pull point to its last point', () => {
    const x = Float64Array.of(1, 0, 0, 2, 0, 0, 3.5, 0, 0);
    expect(cableLength(x, Uint32Array.of(0, 1, 2), Float64Array.of(-1, 0, 0))).to.be.closeTo(4.5, 1e-15);
    expect(cableLength(x, Uint32Array.of(0, 1, 2), undefined)).to.be.closeTo(2.5, 1e-15);
  });

  for (const [label, withPull, idxList] of [
    ['with a pull point', true, [3, 0, 4, 1]],
    ['without a pull point', false, [2, 0, 4, 1, 5]],
    ['through a point twice', true, [1, 3, 0, 3, 2]],
  ] as const) {
    it(`J = −∂L/∂x by central differences (${label})`, () => {
      const r = rng(7 + idxList.length);
      const n = 6;
      const x = new Float64Array(3 * n);
      for (let i = 0; i < x.length; i++) x[i] = 4 * r() - 2;
      const pull = withPull ? Float64Array.of(-3, 1, 0.5) : undefined;
      const idx = Uint32Array.from(idxList);
      const rows = new Float64Array(3 * idx.length);
      const L = cableGradient(rows, x, idx, pull);
      expect(L).to.be.closeTo(cableLength(x, idx, pull), 1e-14);
      const J = scatter(rows, idx, n);
      const fd = fdGradient(x, idx, pull);
      for (let i = 0; i < J.length; i++) expect(J[i]).to.be.closeTo(fd[i], 1e-8);
    });
  }
});
