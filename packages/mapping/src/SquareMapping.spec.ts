import { expect } from 'chai';
import { Vec1d } from '@sofa-ts/core';
import { SquareMapping } from './SquareMapping.js';
import {
  checkGeometricStiffness,
  checkMultiJacobian,
  checkMultiTranspose,
  emittedGeometricStiffness,
  randomArray,
} from './compliant-test-support.js';
import { StubState, mount } from './test-support.js';

describe('SquareMapping', () => {
  it('x → x²; J = diag(2x) against finite differences; applyJT its transpose', () => {
    const from = new StubState(Vec1d, [0.5, -1.5, 2, 0], 'in');
    const to = new StubState(Vec1d, [0], 'out');
    const m = mount(new SquareMapping(), from, to);
    expect(Array.from(to.x)).to.deep.equal([0.25, 2.25, 4, 0]);
    checkMultiJacobian(m, [from], to, 1);
    checkMultiTranspose(m, [4], 4, 2);
  });

  it('geometric stiffness diag(2λ) equals finite differences of Jᵀλ; None emits nothing', () => {
    const from = new StubState(Vec1d, [0.5, -1.5, 2, 0.1], 'in');
    const m = mount(new SquareMapping(), from, new StubState(Vec1d, [0], 'out'));
    expect(m.geometricStiffness.value).to.equal('Exact');
    checkGeometricStiffness(m, from, randomArray(4, 3), 4);
    m.geometricStiffness.value = 'None';
    expect(emittedGeometricStiffness(m, 4, Float64Array.of(1, 1, 1, 1), 1).order).to.have.length(0);
  });
});
