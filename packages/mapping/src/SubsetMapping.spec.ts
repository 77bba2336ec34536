import { expect } from 'chai';
import { Rigid3d, Vec3d } from '@sofa-ts/core';
import { SubsetMapping } from './SubsetMapping.js';
import { StubState, checkJacobian, checkTranspose, expectValidCsr, mount, rng } from './test-support.js';

function input(n: number, seed: number): StubState {
  const r = rng(seed);
  return new StubState(Vec3d, Array.from({ length: 3 * n }, r), 'in');
}

describe('SubsetMapping', () => {
  it('maps the given indices and resizes the output to their number', () => {
    const from = input(6, 1);
    const to = new StubState(Vec3d, [0, 0, 0], 'out');
    const m = new SubsetMapping();
    m.indices.read('4 1 1');
    mount(m, from, to);
    expect(to.size).to.equal(3);
    const pick = (i: number) => Array.from(from.x.subarray(3 * i, 3 * i + 3));
    expect(Array.from(to.x)).to.deep.equal([...pick(4), ...pick(1), ...pick(1)]);
  });

  it('first..last gives a range, clamped to the input as SOFA does', () => {
    const from = input(6, 2);
    const m = new SubsetMapping();
    m.first.read('2');
    m.last.read('10');
    mount(m, from, new StubState(Vec3d, [], 'out'));
    expect(Array.from(m.indices.value)).to.deep.equal([2, 3, 4, 5]);
  });

  it('without indices, finds each output point in the input within radius', () => {
    const from = input(5, 3);
    const to = new StubState(
      Vec3d,
      [...from.x.subarray(9, 12), ...from.x.subarray(0, 3)].map((v) => v + 1e-7),
      'out',
    );
    const m = new SubsetMapping();
    mount(m, from, to);
    expect(Array.from(m.indices.value)).to.deep.equal([3, 0]);
    const lonely = new StubState(Vec3d, [10, 10, 10], 'out');
    expect(() => mount(new SubsetMapping(), input(5, 3), lonely)).to.throw(/no input point within radius/);
  });

  it('a point not found is kept at its rest position with ignoreNotFound', () => {
    const from = input(3, 4);
    const to = new StubState(Vec3d, [...from.x.subarray(3, 6), 10, 20, 30], 'out');
    const m = new SubsetMapping();
    m.ignoreNotFound.value = true;
    mount(m, from, to);
    from.x[3] += 1;
    m.apply();
    expect(Array.from(to.x)).to.deep.equal([...from.x.subarray(3, 6), 10, 20, 30]);
    // its rows of J are empty
    expect(m.getJ(0).rowPtr[6] - m.getJ(0).rowPtr[3]).to.equal(0);
  });

  it('J equals finite differences of apply and applyJT is its transpose (Vec3d and Rigid3d)', () => {
    const from = input(5, 5);
    const to = new StubState(Vec3d, [], 'out');
    const m = new SubsetMapping();
    m.indices.read('0 3 3 4');
    mount(m, from, to);
    expectValidCsr(m.getJ(0), 12, 15);
    checkJacobian(m, from, to, 6);
    checkTranspose(m, 15, 12, 7);

    const rig = new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 0, 0.6, 0, 0.8], 'in');
    const out = new StubState(Rigid3d, [], 'out');
    const s = new SubsetMapping();
    s.indices.read('1');
    mount(s, rig, out);
    expect(Array.from(out.x)).to.deep.equal([1, 2, 3, 0, 0.6, 0, 0.8]);
    expectValidCsr(s.getJ(0), 6, 12);
    checkTranspose(s, 12, 6, 8);
  });

  it('refuses indices outside the input', () => {
    const m = new SubsetMapping();
    m.indices.read('0 7');
    expect(() => mount(m, input(3, 9), new StubState(Vec3d, [], 'out'))).to.throw(/not points of the input/);
  });
});
