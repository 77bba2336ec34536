import { expect } from 'chai';
import { planeDistance, planeDistanceGradient } from './unilateral-plane-geometry.js';

/**
 * The point-plane distance against its closed form (a horizontal plane: δ = z), its gradient
 * against central finite differences for random configurations (with and without flipNormal, the
 * point also repeated as a plane point), the zero sum of the rows (translation), and the
 * barycentric split −β_k·n̂ over the plane points when the point lies over the triangle.
 */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 4294967296;
}

describe('softrobots: unilateral plane geometry', () => {
  it('a horizontal plane: δ = ±z', () => {
    const x = Float64Array.of(0.3, 0.2, 1.5, 0, 0, 0, 1, 0, 0, 0, 1, 0);
    expect(planeDistance(x, 0, 1, 2, 3, false)).to.be.closeTo(1.5, 1e-15);
    expect(planeDistance(x, 0, 1, 2, 3, true)).to.be.closeTo(-1.5, 1e-15);
    expect(planeDistance(Float64Array.of(0, 0, 1, 0, 0, 0, 1, 0, 0, 2, 0, 0), 0, 1, 2, 3, false)).to.be.NaN;
  });

  for (const flip of [false, true]) {
    it(`∂δ/∂x by central differences (flipNormal ${flip})`, () => {
      const r = rng(flip ? 5 : 9);
      for (let trial = 0; trial < 5; trial++) {
        const x = new Float64Array(12);
        for (let i = 0; i < 12; i++) x[i] = 2 * r() - 1;
        const g = new Float64Array(12);
        const d = planeDistanceGradient(g, x, 0, 1, 2, 3, flip);
        expect(d).to.be.closeTo(planeDistance(x, 0, 1, 2, 3, flip), 1e-14);
        const h = 1e-6;
        for (let i = 0; i < 12; i++) {
          const xi = x[i];
          x[i] = xi + h;
          const dp = planeDistance(x, 0, 1, 2, 3, flip);
          x[i] = xi - h;
          const dm = planeDistance(x, 0, 1, 2, 3, flip);
          x[i] = xi;
          expect(g[i]).to.be.closeTo((dp - dm) / (2 * h), 1e-7);
        }
        for (let a = 0; a < 3; a++) expect(g[a] + g[3 + a] + g[6 + a] + g[9 + a]).to.be.closeTo(0, 1e-14);
      }
    });
  }

  it('a point on the plane over barycentric weights β gets rows −β_k·n̂ on the plane points', () => {
    const beta = [0.2, 0.5, 0.3];
    const p1 = [0, 0, 0],
      p2 = [3, 0, 0],
      p3 = [0, 2, 0];
    const p0 = [0, 1, 2].map((a) => beta[0] * p1[a] + beta[1] * p2[a] + beta[2] * p3[a]);
    const x = Float64Array.from([...p0, ...p1, ...p2, ...p3]);
    const g = new Float64Array(12);
    expect(planeDistanceGradient(g, x, 0, 1, 2, 3, false)).to.be.closeTo(0, 1e-15);
    expect([...g.subarray(0, 3)]).to.deep.equal([0, 0, 1]);
    for (let k = 0; k < 3; k++) {
      expect(g[3 * (k + 1)]).to.be.closeTo(0, 1e-15);
      expect(g[3 * (k + 1) + 1]).to.be.closeTo(0, 1e-15);
      expect(g[3 * (k + 1) + 2]).to.be.closeTo(-beta[k], 1e-15);
    }
  });
});
