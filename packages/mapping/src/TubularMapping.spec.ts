import { expect } from 'chai';
import { Rigid3d, Vec3d } from '@sofa-ts/core';
import { TubularMapping } from './TubularMapping.js';
import { StubState, checkJacobian, checkTranspose, expectValidCsr, mount, rng } from './test-support.js';

/** n frames along x with random unit quaternions. */
function frames(n: number, seed: number): StubState {
  const r = rng(seed);
  const x = new Float64Array(7 * n);
  for (let i = 0; i < n; i++) {
    x.set([i, r() - 0.5, r() - 0.5], 7 * i);
    const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
    const l = Math.hypot(...q);
    for (let k = 0; k < 4; k++) x[7 * i + 3 + k] = q[k] / l;
  }
  return new StubState(Rigid3d, x, 'frames');
}

function tubular(N: number, radius: number, peak = 0): TubularMapping {
  const m = new TubularMapping();
  m.nbPointsOnEachCircle.value = N;
  m.radius.value = radius;
  m.peak.value = peak;
  return m;
}

describe('TubularMapping', () => {
  it("puts N points on a circle of the given radius in each frame's (y, z) plane (closed form)", () => {
    // frame 0 unrotated at the origin; frame 1 at (2, 0, 0) turned by 90° about x (y → z, z → −y)
    const s = Math.SQRT1_2;
    const from = new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1, 2, 0, 0, s, 0, 0, s], 'frames');
    const to = new StubState(Vec3d, [], 'skin');
    mount(tubular(4, 0.5), from, to);
    const expected = [
      [0, 0.5, 0],
      [0, 0, 0.5],
      [0, -0.5, 0],
      [0, 0, -0.5],
      [2, 0, 0.5],
      [2, -0.5, 0],
      [2, 0, -0.5],
      [2, 0.5, 0],
    ].flat();
    expect(to.size).to.equal(8);
    to.x.forEach((v, i) => expect(v).to.be.closeTo(expected[i], 1e-15));
  });

  it('peak scales the radius of the first (peak > 0) or last (peak < 0) frames linearly to 0 at the tip', () => {
    const from = new StubState(
      Rigid3d,
      [0, 1, 2, 3].flatMap((i) => [i, 0, 0, 0, 0, 0, 1]),
      'frames',
    );
    const radiusOfFrame = (peak: number): number[] => {
      const to = new StubState(Vec3d, [], 'skin');
      mount(tubular(3, 2, peak), from, to);
      // point 0 of each circle is c + ρ·e_y
      return [0, 1, 2, 3].map((i) => to.x[3 * (3 * i) + 1]);
    };
    expect(radiusOfFrame(0)).to.deep.equal([2, 2, 2, 2]);
    expect(radiusOfFrame(2)).to.deep.equal([0, 1, 2, 2]);
    expect(radiusOfFrame(-2)).to.deep.equal([2, 2, 1, 0]);
  });

  it('J equals finite differences of apply (random rotated frames), applyJ = J·u, applyJT is its transpose', () => {
    const from = frames(3, 11);
    const to = new StubState(Vec3d, [], 'skin');
    const m = tubular(5, 0.3);
    mount(m, from, to);
    expectValidCsr(m.getJ(0), 45, 18);
    checkJacobian(m, from, to, 3);
    checkTranspose(m, 18, 45, 4);
  });

  it('a scene without radius or points on the circles is refused, naming the Data', () => {
    const from = frames(2, 1);
    const noRadius = new TubularMapping();
    noRadius.nbPointsOnEachCircle.value = 4;
    expect(() => mount(noRadius, from, new StubState(Vec3d, [], 'skin'))).to.throw(/radius/);
    const noPoints = new TubularMapping();
    noPoints.radius.value = 1;
    expect(() => mount(noPoints, from, new StubState(Vec3d, [], 'skin2'))).to.throw(/nbPointsOnEachCircle/);
  });
});
