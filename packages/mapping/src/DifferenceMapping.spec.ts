import { expect } from 'chai';
import { Vec1d, Vec3d } from '@sofa-ts/core';
import { DifferenceMapping } from './DifferenceMapping.js';
import { checkMultiJacobian, checkMultiTranspose, randomArray } from './compliant-test-support.js';
import { StubState, expectValidCsr, mount } from './test-support.js';

describe('DifferenceMapping', () => {
  it('x_out[k] = x[b_k] − x[a_k], output resized to the pairs; a pair (a, a) is a zero point with an empty J row', () => {
    const from = new StubState(Vec3d, randomArray(15, 1), 'in');
    const to = new StubState(Vec3d, [0, 0, 0], 'out');
    const m = new DifferenceMapping();
    m.pairs.read('0 1  4 2  3 3');
    mount(m, from, to);
    expect(to.size).to.equal(3);
    const x = from.x;
    for (let k = 0; k < 3; k++) {
      expect(to.x[k]).to.equal(x[3 + k] - x[k]);
      expect(to.x[3 + k]).to.equal(x[6 + k] - x[12 + k]);
      expect(to.x[6 + k]).to.equal(0);
    }
    const J = m.getJ(0);
    expectValidCsr(J, 9, 15);
    expect(J.rowPtr[9] - J.rowPtr[6]).to.equal(0);
  });

  it('J equals finite differences of apply and applyJT is its transpose (Vec3d and Vec1d)', () => {
    for (const type of [Vec3d, Vec1d]) {
      const d = type.derivSize;
      const from = new StubState(type, randomArray(5 * d, 2), 'in');
      const to = new StubState(type, [], 'out');
      const m = new DifferenceMapping();
      m.pairs.read('0 1  4 2  2 4  3 3  1 0');
      mount(m, from, to);
      checkMultiJacobian(m, [from], to, 3);
      checkMultiTranspose(m, [5 * d], 5 * d, 4);
    }
  });

  it('reports missing pairs and pairs outside the input', () => {
    const from = () => new StubState(Vec3d, randomArray(6, 5), 'in');
    expect(() => mount(new DifferenceMapping(), from(), new StubState(Vec3d, [], 'out'))).to.throw(/no pairs/);
    const m = new DifferenceMapping();
    m.pairs.read('0 2');
    expect(() => mount(m, from(), new StubState(Vec3d, [], 'out'))).to.throw(/names point 2/);
  });
});
