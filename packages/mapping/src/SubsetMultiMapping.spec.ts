import { expect } from 'chai';
import { Rigid3d, Vec3d } from '@sofa-ts/core';
import { SubsetMultiMapping } from './SubsetMultiMapping.js';
import { checkMultiJacobian, checkMultiTranspose, mountMulti, randomArray } from './compliant-test-support.js';
import { StubState, expectValidCsr, rng } from './test-support.js';

/** n random rigid frames (unit quaternions). */
function frames(n: number, seed: number, name: string): StubState {
  const r = rng(seed);
  const x: number[] = [];
  for (let i = 0; i < n; i++) {
    const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
    const l = Math.hypot(...q);
    x.push(r(), r(), r(), ...q.map((v) => v / l));
  }
  return new StubState(Rigid3d, x, name);
}

describe('SubsetMultiMapping', () => {
  it('output point k is point p_k of input s_k (indexPairs = s0 p0 s1 p1 …)', () => {
    const A = new StubState(Vec3d, randomArray(9, 1), 'A');
    const B = new StubState(Vec3d, randomArray(6, 2), 'B');
    const to = new StubState(Vec3d, [], 'out');
    const m = new SubsetMultiMapping();
    m.indexPairs.read('1 1  0 2  0 0  1 1');
    mountMulti(m, [A, B], to);
    expect(to.size).to.equal(4);
    const pick = (s: StubState, p: number) => Array.from(s.x.subarray(3 * p, 3 * p + 3));
    expect(Array.from(to.x)).to.deep.equal([...pick(B, 1), ...pick(A, 2), ...pick(A, 0), ...pick(B, 1)]);
    expectValidCsr(m.getJ(0), 12, 9);
    expectValidCsr(m.getJ(1), 12, 6);
  });

  it('J_i equal finite differences of apply; applyJT is the transpose (Vec3d, Rigid3d → Rigid3d and → Vec3d)', () => {
    const A = new StubState(Vec3d, randomArray(9, 3), 'A');
    const B = new StubState(Vec3d, randomArray(6, 4), 'B');
    const C = new StubState(Vec3d, randomArray(3, 5), 'C');
    const m = new SubsetMultiMapping();
    m.indexPairs.read('2 0  0 1  1 0  0 1');
    const to = new StubState(Vec3d, [], 'out');
    mountMulti(m, [A, B, C], to);
    checkMultiJacobian(m, [A, B, C], to, 6);
    checkMultiTranspose(m, [9, 6, 3], 12, 7);

    const R = frames(3, 8, 'R');
    const S = frames(2, 9, 'S');
    const centres = new SubsetMultiMapping();
    centres.indexPairs.read('1 1  0 2  0 0');
    const pts = new StubState(Vec3d, [], 'out');
    mountMulti(centres, [R, S], pts);
    expect(Array.from(pts.x.subarray(0, 3))).to.deep.equal(Array.from(S.x.subarray(7, 10)));
    checkMultiJacobian(centres, [R, S], pts, 10);
    checkMultiTranspose(centres, [18, 12], 9, 11);

    const rigid = new SubsetMultiMapping();
    rigid.indexPairs.read('1 0  0 1');
    const out = new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1], 'out');
    mountMulti(rigid, [frames(3, 12, 'R'), frames(2, 13, 'S')], out);
    expect(out.size).to.equal(2);
    checkMultiTranspose(rigid, [18, 12], 12, 14);
  });

  it('reports odd indexPairs, unknown inputs and points', () => {
    const A = () => new StubState(Vec3d, randomArray(6, 1), 'A');
    const mk = (pairs: string) => {
      const m = new SubsetMultiMapping();
      m.indexPairs.read(pairs);
      return () => mountMulti(m, [A()], new StubState(Vec3d, [], 'out'));
    };
    expect(mk('0 1 0')).to.throw(/expected pairs/);
    expect(mk('1 0')).to.throw(/names input 1/);
    expect(mk('0 5')).to.throw(/names point 5/);
  });
});
