import { expect } from 'chai';
import { Rigid3d } from '@sofa-ts/core';
import { StiffSpringForceField } from './SpringForceField.js';
import { stiffnessAndFiniteDifferences } from '../load/fd-check-test-support.js';
import { buildNode } from '../mass/mesh-test-support.js';

describe('SpringForceField / StiffSpringForceField on Rigid3d frames', () => {
  /** Two frames, turned, a spring of stiffness 10, damping 2, rest length 1 between their centres. */
  const s = Math.sin(0.3),
    c = Math.cos(0.3);
  const x = Float64Array.of(0, 0, 0, s, 0, 0, c, 3, 4, 0, 0, s, 0, c);
  const make = () => {
    const ff = new StiffSpringForceField();
    ff.spring.read('0 1 10 2 1');
    buildNode(x, undefined, [ff], { template: 'Rigid3d' });
    return ff;
  };

  it('pulls the centres along the spring (f = ks·(d − L) + kd·û·Δv), no torque', () => {
    const ff = make();
    const f = new Float64Array(12);
    const v = Float64Array.of(0, 0, 0, 5, 5, 5, 0.3, 0.4, 0, 7, 7, 7);
    ff.addForce([f], [x], [v]);
    // d = 5, û = (0.6, 0.8, 0), û·Δv = 0.5: f = 10·4 + 2·0.5 = 41
    const expected = [24.6, 32.8, 0, 0, 0, 0, -24.6, -32.8, 0, 0, 0, 0];
    f.forEach((val, i) => expect(val, `f[${i}]`).to.be.closeTo(expected[i], 1e-13));
  });

  it('K equals ∂f/∂x by central differences (rotations included: zero columns)', () => {
    const ff = make();
    const { K, FD } = stiffnessAndFiniteDifferences(ff, x, new Float64Array(12), 1e-6, Rigid3d);
    for (let i = 0; i < 12; i++) for (let j = 0; j < 12; j++) expect(K[i][j], `K[${i}][${j}]`).to.be.closeTo(FD[i][j], 1e-6);
    expect(K[0][0]).to.not.equal(0);
  });
});
