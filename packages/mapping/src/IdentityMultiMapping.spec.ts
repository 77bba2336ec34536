import { expect } from 'chai';
import { Rigid3d, Vec1d, Vec3d } from '@sofa-ts/core';
import { IdentityMultiMapping } from './IdentityMultiMapping.js';
import { checkMultiJacobian, checkMultiTranspose, mountMulti, randomArray } from './compliant-test-support.js';
import { StubState, expectValidCsr } from './test-support.js';

describe('IdentityMultiMapping', () => {
  it('concatenates the inputs in link order, positions and velocities', () => {
    const A = new StubState(Vec3d, randomArray(6, 1), 'A');
    const B = new StubState(Vec3d, randomArray(9, 2), 'B');
    B.v.set(randomArray(9, 3));
    const to = new StubState(Vec3d, [], 'out');
    mountMulti(new IdentityMultiMapping(), [B, A], to);
    expect(to.size).to.equal(5);
    expect(Array.from(to.x)).to.deep.equal([...B.x, ...A.x]);
    expect(Array.from(to.v)).to.deep.equal([...B.v, ...A.v]);
  });

  it('J_i equal finite differences of apply; applyJT is the transpose (Vec3d, Vec1d, Rigid3d)', () => {
    for (const type of [Vec3d, Vec1d]) {
      const d = type.derivSize;
      const A = new StubState(type, randomArray(2 * d, 4), 'A');
      const B = new StubState(type, randomArray(3 * d, 5), 'B');
      const to = new StubState(type, [], 'out');
      const m = mountMulti(new IdentityMultiMapping(), [A, B], to);
      expectValidCsr(m.getJ(0), 5 * d, 2 * d);
      expectValidCsr(m.getJ(1), 5 * d, 3 * d);
      checkMultiJacobian(m, [A, B], to, 6);
      checkMultiTranspose(m, [2 * d, 3 * d], 5 * d, 7);
    }
    const R = new StubState(Rigid3d, [1, 2, 3, 0, 0, 0, 1, 4, 5, 6, 0, 0.6, 0, 0.8], 'R');
    const S = new StubState(Rigid3d, [7, 8, 9, 0, 0, 0, 1], 'S');
    const out = new StubState(Rigid3d, [], 'out');
    const m = mountMulti(new IdentityMultiMapping(), [R, S], out);
    expect(Array.from(out.x)).to.deep.equal([...R.x, ...S.x]);
    checkMultiTranspose(m, [12, 6], 18, 8);
  });
});
