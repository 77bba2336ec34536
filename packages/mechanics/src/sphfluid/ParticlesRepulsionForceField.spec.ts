import { expect } from 'chai';
import { ParticlesRepulsionForceField } from './ParticlesRepulsionForceField.js';
import { SpatialGridContainer } from './SpatialGridContainer.js';
import { buildNode } from '../mass/mesh-test-support.js';

function repulsion(x: number[], h: number, ks: number, kd: number): ParticlesRepulsionForceField {
  const ff = new ParticlesRepulsionForceField();
  ff.distance.value = h;
  ff.stiffness.value = ks;
  ff.damping.value = kd;
  const g = new SpatialGridContainer();
  g.cellWidth.value = h;
  buildNode(x, undefined, [g, ff]);
  return ff;
}

const forces = (ff: ParticlesRepulsionForceField, x: Float64Array, v: Float64Array): Float64Array => {
  const f = new Float64Array(x.length);
  ff.addForce([f], [x], [v]);
  return f;
};

describe('ParticlesRepulsionForceField (SofaSphFluid)', () => {
  const h = 0.4,
    ks = 200,
    kd = 3;
  const u = [2, -1, 2].map((c) => c / 3);
  const d = 0.25;
  const x = Float64Array.of(0.1, 0.2, 0.3, 0.1 + d * u[0], 0.2 + d * u[1], 0.3 + d * u[2], 5, 5, 5);
  const v = Float64Array.of(1, 0, 0, 0, 2, 0, 0, 0, 1);

  it('pushes apart the particles closer than distance: fi = ks·(d − h)·u − kd·(d − h)·(vj − vi), fj = −fi', () => {
    const ff = repulsion(Array.from(x), h, ks, kd);
    const f = forces(ff, x, v);
    for (let a = 0; a < 3; a++) {
      const want = ks * (d - h) * u[a] - kd * (d - h) * (v[3 + a] - v[a]);
      expect(f[a]).to.be.closeTo(want, 1e-12);
      expect(f[3 + a]).to.be.closeTo(-want, 1e-12);
      expect(f[6 + a]).to.equal(0);
    }
  });

  it('exerts nothing between coincident particles', () => {
    const y = Float64Array.of(0, 0, 0, 0, 0, 0);
    const ff = repulsion(Array.from(y), h, ks, kd);
    expect(Array.from(forces(ff, y, new Float64Array(6)))).to.deep.equal([0, 0, 0, 0, 0, 0]);
  });

  it("has SOFA's stiffness ks·u·uᵀ: the finite-difference derivative along u, none across it (SOFA leaves that part out)", () => {
    const ff = repulsion(Array.from(x), h, ks, 0);
    const zero = new Float64Array(9);
    forces(ff, x, zero);
    const apply = (w: number[]): Float64Array => {
      const dx = new Float64Array(9);
      for (let a = 0; a < 3; a++) dx[3 + a] = w[a];
      const df = new Float64Array(9);
      ff.addDForce([df], [dx], 1, 0);
      return df;
    };
    const e = 1e-6;
    const fd = (w: number[]): number[] => {
      const xp = Float64Array.from(x),
        xm = Float64Array.from(x);
      for (let a = 0; a < 3; a++) {
        xp[3 + a] += e * w[a];
        xm[3 + a] -= e * w[a];
      }
      const fp = forces(ff, xp, zero),
        fm = forces(ff, xm, zero);
      return [0, 1, 2].map((a) => (fp[a] - fm[a]) / (2 * e));
    };
    // along u: ∂fi/∂xj·u = ks·u
    const along = apply(u);
    fd(u).forEach((c, a) => {
      expect(along[a]).to.be.closeTo(c, 1e-5 * ks);
      expect(along[3 + a]).to.be.closeTo(-c, 1e-5 * ks);
    });
    // across u: the exact derivative is ks·(d − h)/d·w, SOFA's K gives 0
    const w = [1, 2, 0].map((c) => c / Math.sqrt(5));
    forces(ff, x, zero); // K at x again (the differences moved it)
    const across = apply(w);
    fd(w).forEach((c, a) => {
      expect(c).to.be.closeTo((ks * (d - h) * w[a]) / d, 1e-5 * ks);
      expect(across[a]).to.be.closeTo(0, 1e-12);
    });
  });
});
