import { expect } from 'chai';
import { Vec3d } from '@sofa-ts/core';
import { EFFECTOR, InverseRows } from '../inverse-rows.js';
import { jacobian, jacobianError, mount, rng, TestState, violation } from '../test-support.js';
import { BarycentricCenterEffector } from './BarycentricCenterEffector.js';

/** BarycentricCenterEffector: δ = barycenter − goal per kept axis, J = e_k/N on each point. */
function effector(state: TestState, attrs: Record<string, string> = {}): BarycentricCenterEffector {
  const c = new BarycentricCenterEffector();
  for (const [k, v] of Object.entries(attrs)) c.findData(k)!.read(v);
  return mount(c, state);
}

describe('softrobots: BarycentricCenterEffector (unit)', () => {
  it('one row per kept axis, δ = b(x_free) − goal, J = e_k/N on every point (central differences)', () => {
    const s = new TestState(Vec3d, [0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 8]);
    const c = effector(s, { effectorGoal: '1 1 1', axis: '1 0 1' });
    const J = jacobian(c, s);
    expect(J.length).to.equal(2);
    for (let p = 0; p < 4; p++) {
      expect(Array.from(J[0].subarray(3 * p, 3 * p + 3))).to.deep.equal([0.25, 0, 0]);
      expect(Array.from(J[1].subarray(3 * p, 3 * p + 3))).to.deep.equal([0, 0, 0.25]);
    }
    // b = (0.5, 1, 2)
    expect(Array.from(violation(c, 2))).to.deep.equal([-0.5, 1]);
    const r = rng(9);
    for (let i = 0; i < s.xFree.length; i++) s.xFree[i] += r() - 0.5;
    expect(jacobianError(c, s)).to.be.at.most(1e-9);
    const rows = new InverseRows();
    rows.reset(2);
    c.getInverseRows(rows);
    expect([rows.role[0], rows.role[1]]).to.deep.equal([EFFECTOR, EFFECTOR]);
  });

  it('indices select the points; the goal defaults to the initial barycenter; useDirections is axis', () => {
    const s = new TestState(Vec3d, [0, 0, 0, 2, 0, 0, 0, 4, 0, 9, 9, 9]);
    const c = effector(s, { indices: '0 1 2', useDirections: '0 1 0' });
    expect(Array.from(c.barycenter.value)).to.deep.equal([2 / 3, 4 / 3, 0]);
    expect(jacobian(c, s).length).to.equal(1);
    s.xFree[7] = 7; // point 2 rises by 3: b_y by 1
    expect(violation(c, 1)[0]).to.be.closeTo(1, 1e-15);
    expect(() => effector(s, { axis: '0 0 0' })).to.throw(/drops every direction/);
  });
});
