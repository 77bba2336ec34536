import { expect } from 'chai';
import { CoulombConstraint } from './CoulombConstraint.js';
import { NegativeUnilateralConstraint } from './NegativeUnilateralConstraint.js';
import { UnilateralConstraint } from './UnilateralConstraint.js';
import { rng } from '../test-support.js';

describe('compliant: constraint projectors', () => {
  it('UnilateralConstraint clamps each row of the block to λ ≥ 0, NegativeUnilateralConstraint to λ ≤ 0', () => {
    const l = Float64Array.of(9, -1, 2, -3, 0.5, 7);
    new UnilateralConstraint().project(l, 1, 4);
    expect(Array.from(l)).to.deep.equal([9, 0, 2, 0, 0.5, 7]);
    const n = Float64Array.of(1, -2, 3);
    new NegativeUnilateralConstraint().project(n, 0, 3);
    expect(Array.from(n)).to.deep.equal([0, -2, 0]);
  });

  describe('CoulombConstraint (normal first)', () => {
    const cone = (mu: number, horizontal: boolean) => {
      const c = new CoulombConstraint();
      c.mu.value = mu;
      c.horizontalProjection.value = horizontal;
      return c;
    };
    const inCone = (l: Float64Array, mu: number, o = 0) => Math.hypot(l[o + 1], l[o + 2]) <= mu * l[o] + 1e-12 && l[o] >= -1e-12;

    it('keeps forces inside the cone and zeroes attractive normal forces', () => {
      for (const horizontal of [true, false]) {
        const l = Float64Array.of(2, 0.3, -0.4);
        cone(0.5, horizontal).project(l, 0, 3, 0, false);
        expect(Array.from(l)).to.deep.equal([2, 0.3, -0.4]);
      }
      const a = Float64Array.of(-1, 0.1, 0);
      cone(0.5, true).project(a, 0, 3, 0, false);
      expect(Array.from(a)).to.deep.equal([0, 0, 0]);
    });

    it('horizontal projection keeps the normal and scales the tangent to μ·λ_n', () => {
      const l = Float64Array.of(1, 3, 4);
      cone(0.5, true).project(l, 0, 3, 0, false);
      expect(l[0]).to.equal(1);
      expect(Math.hypot(l[1], l[2])).to.be.closeTo(0.5, 1e-15);
      expect(l[1] / l[2]).to.be.closeTo(3 / 4, 1e-15);
    });

    it('orthogonal projection is the nearest point of the cone (no point of the cone is closer), idempotent', () => {
      const r = rng(3);
      const mu = 0.7;
      for (let t = 0; t < 200; t++) {
        const f = Float64Array.of(2 * r(), 2 * r(), 2 * r());
        const p = Float64Array.from(f);
        cone(mu, false).project(p, 0, 3, 0, false);
        expect(inCone(p, mu)).to.equal(true);
        const d = Math.hypot(f[0] - p[0], f[1] - p[1], f[2] - p[2]);
        for (let s = 0; s < 50; s++) {
          const n = Math.abs(2 * r());
          const ang = Math.PI * r();
          const rad = mu * n * Math.abs(r());
          const q = [n, rad * Math.cos(ang), rad * Math.sin(ang)];
          expect(Math.hypot(f[0] - q[0], f[1] - q[1], f[2] - q[2])).to.be.at.least(d - 1e-12);
        }
        const again = Float64Array.from(p);
        cone(mu, false).project(again, 0, 3, 0, false);
        for (let k = 0; k < 3; k++) expect(again[k]).to.be.closeTo(p[k], 1e-14);
      }
    });

    it('the correction pass keeps only the (non-negative) normal; rows past the third are zeroed', () => {
      const l = Float64Array.of(0, 2, 0.1, 0.1, 9, 9);
      cone(0.5, true).project(l, 1, 5, 0, true);
      expect(Array.from(l)).to.deep.equal([0, 2, 0, 0, 0, 0]);
    });
  });
});
