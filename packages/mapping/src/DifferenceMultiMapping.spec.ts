import { expect } from 'chai';
import { Vec1d, Vec3d } from '@sofa-ts/core';
import { DifferenceMultiMapping } from './DifferenceMultiMapping.js';
import { checkMultiJacobian, checkMultiTranspose, mountMulti, randomArray } from './compliant-test-support.js';
import { StubState, expectValidCsr } from './test-support.js';

describe('DifferenceMultiMapping', () => {
  it('x_out[k] = x_B[b_k] − x_A[a_k]', () => {
    const A = new StubState(Vec3d, randomArray(9, 1), 'A');
    const B = new StubState(Vec3d, randomArray(6, 2), 'B');
    const to = new StubState(Vec3d, [], 'out');
    const m = new DifferenceMultiMapping();
    m.pairs.read('2 0  0 1');
    mountMulti(m, [A, B], to);
    expect(to.size).to.equal(2);
    for (let k = 0; k < 3; k++) {
      expect(to.x[k]).to.equal(B.x[k] - A.x[6 + k]);
      expect(to.x[3 + k]).to.equal(B.x[3 + k] - A.x[k]);
    }
    expect(m.getFrom()).to.deep.equal([A, B]);
    expectValidCsr(m.getJ(0), 6, 9);
    expectValidCsr(m.getJ(1), 6, 6);
  });

  it('without pairs, inputs of equal size are paired point by point', () => {
    const A = new StubState(Vec3d, randomArray(6, 3), 'A');
    const B = new StubState(Vec3d, randomArray(6, 4), 'B');
    const m = new DifferenceMultiMapping();
    const to = new StubState(Vec3d, [], 'out');
    mountMulti(m, [A, B], to);
    expect(Array.from(m.pairs.value)).to.deep.equal([0, 0, 1, 1]);
    for (let k = 0; k < 6; k++) expect(to.x[k]).to.equal(B.x[k] - A.x[k]);
  });

  it('J_A and J_B equal finite differences of apply; applyJT is the transpose (Vec3d and Vec1d)', () => {
    for (const type of [Vec3d, Vec1d]) {
      const d = type.derivSize;
      const A = new StubState(type, randomArray(4 * d, 5), 'A');
      const B = new StubState(type, randomArray(3 * d, 6), 'B');
      const to = new StubState(type, [], 'out');
      const m = new DifferenceMultiMapping();
      m.pairs.read('3 0  1 2  1 1  0 0');
      mountMulti(m, [A, B], to);
      checkMultiJacobian(m, [A, B], to, 7);
      checkMultiTranspose(m, [4 * d, 3 * d], 4 * d, 8);
    }
  });

  it('needs exactly two inputs of one template, and pairs when their sizes differ', () => {
    const s = (n: number, name: string) => new StubState(Vec3d, randomArray(3 * n, n), name);
    expect(() => mountMulti(new DifferenceMultiMapping(), [s(2, 'A')], new StubState(Vec3d, [], 'out'))).to.throw(
      /1 input state\(s\) given, 2 expected/,
    );
    expect(() => mountMulti(new DifferenceMultiMapping(), [s(2, 'A'), s(3, 'B')], new StubState(Vec3d, [], 'out'))).to.throw(
      /no pairs given/,
    );
    expect(() =>
      mountMulti(new DifferenceMultiMapping(), [s(2, 'A'), new StubState(Vec1d, [1, 2], 'B')], new StubState(Vec3d, [], 'out')),
    ).to.throw(/one template/);
  });
});
