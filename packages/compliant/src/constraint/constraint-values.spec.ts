import { expect } from 'chai';
import { Vec1d, Vec3d } from '@sofa-ts/core';
import { BaumgarteStabilization } from './BaumgarteStabilization.js';
import { ConstraintValue } from './ConstraintValue.js';
import { HolonomicConstraintValue } from './HolonomicConstraintValue.js';
import { Restitution } from './Restitution.js';
import { Stabilization } from './Stabilization.js';
import { VelocityConstraintValue } from './VelocityConstraintValue.js';
import { TestState } from '../test-support.js';

const h = 0.1;

describe('compliant: constraint values (right-hand sides of the constraint rows)', () => {
  const state = new TestState(Vec1d, 3, [0.2, -0.4, 0.0], [1, -2, 3]);
  const out = (fn: (o: Float64Array) => void) => {
    const o = new Float64Array(5).fill(99);
    fn(o);
    return Array.from(o);
  };

  it('ConstraintValue: dynamics −φ/h, no correction; rows written at the offset only', () => {
    const c = new ConstraintValue();
    expect(out((o) => c.dynamics(o, 1, state, true, h))).to.deep.equal([99, -2, 4, -0, 99]);
    expect(out((o) => c.correction(o, 2, state))).to.deep.equal([99, 99, 0, 0, 0]);
  });

  it('Stabilization: with a stabilizing solver the dynamics cancels the velocity (0) and the correction gives −φ/h; without, −φ/h', () => {
    const s = new Stabilization();
    expect(out((o) => s.dynamics(o, 0, state, true, h))).to.deep.equal([0, 0, 0, 99, 99]);
    expect(out((o) => s.dynamics(o, 0, state, false, h))).to.deep.equal([-2, 4, -0, 99, 99]);
    expect(out((o) => s.correction(o, 0, state, h))).to.deep.equal([-2, 4, -0, 99, 99]);
  });

  it('Stabilization mask: only flagged blocks are stabilized; with a projector and no mask, the violated blocks are flagged, then cleared', () => {
    const s = new Stabilization();
    s.mask.value = Uint32Array.of(1, 0, 1);
    expect(out((o) => s.dynamics(o, 0, state, true, h))).to.deep.equal([0, 4, 0, 99, 99]);
    expect(out((o) => s.correction(o, 0, state, h))).to.deep.equal([-2, 0, -0, 99, 99]);
    const f = new Stabilization();
    f.filterConstraints(undefined, state); // φ < 0 only for the second block
    expect(out((o) => f.correction(o, 0, state, h))).to.deep.equal([0, 4, 0, 99, 99]);
    expect(out((o) => f.dynamics(o, 0, state, true, h))).to.deep.equal([-2, 0, -0, 99, 99]);
    f.clear();
    expect(out((o) => f.correction(o, 0, state, h))).to.deep.equal([-2, 4, -0, 99, 99]);
  });

  it('HolonomicConstraintValue cancels the velocity of stabilized blocks even without a stabilization pass', () => {
    const s = new HolonomicConstraintValue();
    expect(out((o) => s.dynamics(o, 0, state, false, h))).to.deep.equal([0, 0, 0, 99, 99]);
  });

  it('BaumgarteStabilization: dynamics −α·φ; VelocityConstraintValue: the given velocities', () => {
    const b = new BaumgarteStabilization();
    b.alpha.value = 5;
    expect(out((o) => b.dynamics(o, 0, state, true, h))).to.deep.equal([-1, 2, -0, 99, 99]);
    const v = new VelocityConstraintValue();
    v.velocities.value = Float64Array.of(7, 8, 9);
    expect(out((o) => v.dynamics(o, 2, state, true, h))).to.deep.equal([99, 99, 7, 8, 9]);
    expect(out((o) => v.correction(o, 0, state))).to.deep.equal([0, 0, 0, 99, 99]);
    v.velocities.value = Float64Array.of(1);
    expect(() => v.dynamics(new Float64Array(3), 0, state, true, h)).to.throw(/velocities has 1 values, the constraint has 3 rows/);
  });

  it('Restitution: violated contacts moving faster than 1e-5 bounce (−e·v), resting ones hold, non-violated ones are deactivated', () => {
    // 3 contacts of 3 rows (normal first): violated & fast, violated & resting, not violated
    const s = new TestState(Vec3d, 3, [-0.1, 0.2, 0.3, -0.05, 0, 0, 0.5, 0, 0], [-2, 1, 1, 1e-7, 0, 0, -3, 4, 5]);
    const r = new Restitution();
    r.restitution.value = 0.5;
    const active = new Uint8Array(3).fill(1);
    r.filterConstraints(active, s);
    expect(Array.from(active)).to.deep.equal([1, 1, 0]);
    const o = new Float64Array(9);
    r.dynamics(o, 0, s, true, h);
    const expected = [1, -2, -3, 0, 0, 0, -3, 4, 5];
    Array.from(o).forEach((v, i) => expect(v).to.be.closeTo(expected[i], 1e-14));
    r.dynamics(o, 0, s, false, h);
    expect(o[3]).to.be.closeTo(0.5, 1e-15);
    r.correction(o, 0, s, h);
    expect(Array.from(o)).to.deep.equal([0, 0, 0, 0.5, -0, -0, 0, 0, 0]);
  });
});
