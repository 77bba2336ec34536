import { expect } from 'chai';
import { Rigid3d, Vec3d } from '@sofa-ts/core';
import { BeamLinearMapping } from './BeamLinearMapping.js';
import { StubState, checkJacobian, checkTranspose, expectValidCsr, mount, rng } from './test-support.js';

/** n frames along x, spacing L, with small random rotations. */
function beamFrames(n: number, L: number, seed: number, tilt = 0.3): StubState {
  const r = rng(seed);
  const x = new Float64Array(7 * n);
  for (let i = 0; i < n; i++) {
    x[7 * i] = i * L;
    x[7 * i + 1] = 0.05 * (r() - 0.5);
    const q = [tilt * (r() - 0.5), tilt * (r() - 0.5), tilt * (r() - 0.5), 1];
    const l = Math.hypot(...q);
    for (let k = 0; k < 4; k++) x[7 * i + 3 + k] = q[k] / l;
  }
  return new StubState(Rigid3d, x, 'frames');
}

describe('BeamLinearMapping', () => {
  it('places a point of local coordinates (j + t, p_y, p_z) on the straight beam (closed form), with the cubic blend', () => {
    const L = 2;
    const from = new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1, L, 0, 0, 0, 0, 0, 1, 2 * L, 0, 0, 0, 0, 0, 1], 'frames');
    const to = new StubState(Vec3d, [0.25, 0.1, -0.2, 1.5, 0, 0.3], 'pts');
    mount(new BeamLinearMapping(), from, to);
    // straight, unrotated beam: x = ℓ·(s, p_y, p_z)
    const expected = [0.5, 0.2, -0.4, 3, 0, 0.6];
    to.x.forEach((v, i) => expect(v).to.be.closeTo(expected[i], 1e-14));
    // frame 1 turned by 90° about x: the point at t = 0.25 of segment 0 blends h = 3t² − 2t³
    const s = Math.SQRT1_2;
    from.x.set([s, 0, 0, s], 7 + 3);
    const m = new BeamLinearMapping();
    mount(m, from, new StubState(Vec3d, [0.25, 0.1, 0], 'p'));
    const t = 0.25,
      h = 3 * t * t - 2 * t * t * t;
    // from frame 0: (0.5, 0.2, 0); from frame 1: (2, 0, 0) + R_x(90°)·(−1.5, 0.2, 0) = (0.5, 0, 0.2)
    const out = m.getTo()!.x;
    expect(out[0]).to.be.closeTo(0.5, 1e-14);
    expect(out[1]).to.be.closeTo((1 - h) * 0.2, 1e-14);
    expect(out[2]).to.be.closeTo(h * 0.2, 1e-14);
  });

  it('localCoord="false": world positions measured along the beam from frame 0 stay where they were', () => {
    const from = new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 1], 'frames');
    const to = new StubState(Vec3d, [0.3, 0.05, 0, 1.7, -0.02, 0.01], 'pts');
    const before = Float64Array.from(to.x);
    const m = new BeamLinearMapping();
    m.localCoord.value = false;
    mount(m, from, to);
    to.x.forEach((v, i) => expect(v).to.be.closeTo(before[i], 1e-14));
  });

  it('J equals finite differences of apply (rotated frames, points on every segment), applyJT is its transpose', () => {
    const from = beamFrames(4, 1.5, 3);
    const r = rng(5);
    const pts: number[] = [];
    for (let i = 0; i < 6; i++) pts.push(3 * r(), 0.2 * (r() - 0.5), 0.2 * (r() - 0.5));
    const to = new StubState(Vec3d, pts, 'pts');
    const m = new BeamLinearMapping();
    mount(m, from, to);
    expectValidCsr(m.getJ(0), 18, 24);
    checkJacobian(m, from, to, 7);
    checkTranspose(m, 24, 18, 8);
  });
});
