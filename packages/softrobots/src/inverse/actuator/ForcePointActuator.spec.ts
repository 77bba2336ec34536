import { expect } from 'chai';
import { Vec3d } from '@sofa-ts/core';
import { InverseRows } from '../inverse-rows.js';
import { jacobian, jacobianError, mount, rng, TestState } from '../test-support.js';
import { ForcePointActuator } from './ForcePointActuator.js';

/** ForcePointActuator: one row, J = direction on each point (= ∂δ/∂x), and its force bounds. */
function actuator(state: TestState, attrs: Record<string, string> = {}): ForcePointActuator {
  const c = new ForcePointActuator();
  for (const [k, v] of Object.entries(attrs)) c.findData(k)!.read(v);
  return mount(c, state);
}

describe('softrobots: ForcePointActuator (unit)', () => {
  it('one row, J = unit direction on each point, the gradient of δ (central differences)', () => {
    const r = rng(3);
    const s = new TestState(
      Vec3d,
      Array.from({ length: 15 }, () => r()),
    );
    const c = actuator(s, { indices: '1 4', direction: '2 0 0' });
    const J = jacobian(c, s);
    expect(J.length).to.equal(1);
    expect(Array.from(J[0])).to.deep.equal([0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]);
    for (let i = 0; i < s.xFree.length; i++) s.xFree[i] += r() - 0.5;
    expect(jacobianError(c, s)).to.be.at.most(1e-9);
  });

  it('λ in [minForce, maxForce] and within maxForceVariation of the last λ; no displacement bound', () => {
    const rows = new InverseRows();
    rows.reset(1);
    const c = actuator(new TestState(Vec3d, [0, 0, 0]), { minForce: '0', maxForce: '10', maxForceVariation: '2' });
    c.getInverseRows(rows);
    expect([rows.lambdaMin[0], rows.lambdaMax[0], rows.deltaMin[0], rows.deltaMax[0]]).to.deep.equal([0, 2, -Infinity, Infinity]);
    c.storeResults(Float64Array.of(9), Float64Array.of(0), 0.25);
    expect(c.physicalForce.value).to.equal(36);
    c.getInverseRows(rows);
    expect([rows.lambdaMin[0], rows.lambdaMax[0]]).to.deep.equal([7, 10]);
  });
});
