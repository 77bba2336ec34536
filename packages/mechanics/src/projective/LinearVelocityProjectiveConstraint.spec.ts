import { expect } from 'chai';
import { LinearVelocityProjectiveConstraint } from './LinearVelocityProjectiveConstraint.js';
import { buildNode } from '../mass/mesh-test-support.js';

/**
 * The imposed velocity against its definition, and the motion x(t) = x0 + ∫v over the steps:
 * key times 0, 2 and velocities (0, 0, 0), (1, −2, 0.5): v(t) = t/2·(1, −2, 0.5) on [0, 2), then
 * the last velocity with continueAfterEnd (else the point is free).
 */
describe('LinearVelocityProjectiveConstraint', () => {
  const x0 = [0, 0, 0, 1, 2, 3];
  const V = [1, -2, 0.5];

  function make(continueAfterEnd: boolean, template = 'Vec3d', positions: number[] = x0, velocities = [0, 0, 0, ...V]) {
    const pc = new LinearVelocityProjectiveConstraint();
    pc.indices.value = Uint32Array.of(1);
    pc.keyTimes.value = Float64Array.of(0, 2);
    pc.velocities.value = Float64Array.from(velocities);
    pc.continueAfterEnd.value = continueAfterEnd;
    const { node, state } = buildNode(positions, undefined, [pc], { template });
    node.dt.value = 0.1;
    return { pc, node, state };
  }

  it('v(t) interpolates the key velocities; dx ← 0 on the points while it acts', () => {
    const { pc, node } = make(true);
    for (const t of [0, 0.5, 1.25, 1.9]) {
      node.time.value = t;
      const v = Float64Array.of(9, 9, 9, 9, 9, 9);
      pc.projectVelocity(v);
      for (let k = 0; k < 3; k++) expect(v[3 + k]).to.be.closeTo((t / 2) * V[k], 1e-15);
      expect(v[0]).to.equal(9);
      const dx = Float64Array.of(1, 1, 1, 1, 1, 1);
      pc.projectResponse(dx);
      expect(Array.from(dx)).to.deep.equal([1, 1, 1, 0, 0, 0]);
    }
  });

  it('the position integrates v·dt at each projection (forward Euler of the imposed velocity)', () => {
    const { pc, node } = make(true);
    const x = Float64Array.from(x0);
    const dt = 0.1;
    const expected = x0.slice(3);
    for (let k = 0; k < 30; k++) {
      const t = k * dt;
      node.time.value = t;
      pc.projectPosition(x);
      // after the last key time the last key velocity goes on (continueAfterEnd)
      const vt = t < 2 ? t / 2 : 1;
      for (let c = 0; c < 3; c++) expected[c] += vt * V[c] * dt;
      for (let c = 0; c < 3; c++) expect(x[3 + c], `t=${t}`).to.be.closeTo(expected[c], 1e-12);
    }
    // the closed form at t = 3: x0 + Σ_k v(k·dt)·dt
    let sum = 0;
    for (let k = 0; k < 30; k++) sum += (k * dt < 2 ? (k * dt) / 2 : 1) * dt;
    expect(x[3]).to.be.closeTo(1 + sum * V[0], 1e-12);
  });

  it('without continueAfterEnd the point is free after the last key time', () => {
    const { pc, node } = make(false);
    node.time.value = 2.5;
    const v = Float64Array.of(9, 9, 9, 9, 9, 9);
    pc.projectVelocity(v);
    const dx = Float64Array.of(1, 1, 1, 1, 1, 1);
    pc.projectResponse(dx);
    expect(Array.from(v)).to.deep.equal([9, 9, 9, 9, 9, 9]);
    expect(Array.from(dx)).to.deep.equal([1, 1, 1, 1, 1, 1]);
  });

  it('Rigid3d: a constant angular velocity ω about z turns the frame by ω·t (exact rotations)', () => {
    const { pc, node } = make(true, 'Rigid3d', [0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0.3, 0, 0, 0, 0, 0, 0.3]);
    const x = Float64Array.of(0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1);
    for (let k = 0; k < 20; k++) {
      node.time.value = k * 0.1;
      pc.projectPosition(x);
    }
    // 20 steps of 0.1 s at 0.3 rad/s: angle 0.6 about z, centre unchanged
    expect(Array.from(x.subarray(7, 10))).to.deep.equal([1, 0, 0]);
    expect(x[12]).to.be.closeTo(Math.sin(0.3), 1e-14);
    expect(x[13]).to.be.closeTo(Math.cos(0.3), 1e-14);
  });

  it('refuses velocities that do not match the key times', () => {
    expect(() => make(true, 'Vec3d', x0, [1, 2, 3])).to.throw(/'velocities' needs 3 numbers per key time/);
  });
});
