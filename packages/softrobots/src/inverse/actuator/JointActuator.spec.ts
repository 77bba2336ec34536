import { expect } from 'chai';
import { Vec1d } from '@sofa-ts/core';
import { InverseRows } from '../inverse-rows.js';
import { jacobian, jacobianError, mount, TestState, violation } from '../test-support.js';
import { JointActuator } from './JointActuator.js';

/** JointActuator: δ = the angle q_free, J = 1 on it, and the angle and effort bounds. */
function joint(state: TestState, attrs: Record<string, string> = {}): JointActuator {
  const c = new JointActuator();
  for (const [k, v] of Object.entries(attrs)) c.findData(k)!.read(v);
  return mount(c, state);
}

describe('softrobots: JointActuator (unit)', () => {
  it('δ = q_free of its coordinate, J = 1 there (central differences)', () => {
    const s = new TestState(Vec1d, [0.1, 0.2, 0.3]);
    const c = joint(s, { index: '1' });
    expect(c.angle.value).to.equal(0.2);
    expect(Array.from(jacobian(c, s)[0])).to.deep.equal([0, 1, 0]);
    s.xFree[1] = 0.7;
    expect(violation(c, 1)[0]).to.equal(0.7);
    expect(jacobianError(c, s)).to.be.at.most(1e-9);
  });

  it('angle limits, effort bounds, and maxAngleVariation around the last angle (the initial one at first)', () => {
    const rows = new InverseRows();
    rows.reset(1);
    const c = joint(new TestState(Vec1d, [0.5]), {
      minAngle: '-1',
      maxAngle: '1',
      maxAngleVariation: '0.2',
      minForce: '-3',
      maxForce: '4',
    });
    c.getInverseRows(rows);
    expect([rows.lambdaMin[0], rows.lambdaMax[0]]).to.deep.equal([-3, 4]);
    expect(rows.deltaMin[0]).to.be.closeTo(0.3, 1e-15);
    expect(rows.deltaMax[0]).to.be.closeTo(0.7, 1e-15);
    c.storeResults(Float64Array.of(2), Float64Array.of(0.9), 0.1);
    expect(c.angle.value).to.equal(0.9);
    expect(c.physicalForce.value).to.equal(20);
    c.getInverseRows(rows);
    expect(rows.deltaMin[0]).to.be.closeTo(0.7, 1e-15);
    expect(rows.deltaMax[0]).to.equal(1);
    expect(() => joint(new TestState(Vec1d, [0]), { index: '1' })).to.throw(/out of range/);
  });
});
