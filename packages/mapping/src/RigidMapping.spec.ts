import { expect } from 'chai';
import { Rigid3d, Vec3d } from '@sofa-ts/core';
import { nsdProject3 } from './nsd-projection.js';
import { RigidMapping } from './RigidMapping.js';
import { DenseAccumulator, StubState, checkJacobian, checkTranspose, expectValidCsr, mount, perturb, rng } from './test-support.js';

/** Rigid frames at random positions with random unit quaternions. */
function frames(n: number, seed: number): StubState {
  const r = rng(seed);
  const x = new Float64Array(7 * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) x[7 * i + k] = 2 * r() - 1;
    const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
    const l = Math.hypot(...q);
    for (let k = 0; k < 4; k++) x[7 * i + 3 + k] = q[k]! / l;
  }
  return new StubState(Rigid3d, x, 'frames');
}

function points(n: number, seed: number): StubState {
  const r = rng(seed);
  return new StubState(Vec3d, Array.from({ length: 3 * n }, () => 2 * r() - 1), 'points');
}

describe('RigidMapping', () => {
  it('maps local points through the frame: x = c + R·p (closed form, 90° about z)', () => {
    const s = Math.SQRT1_2;
    const from = new StubState(Rigid3d, [1, 2, 3, 0, 0, s, s], 'frame');
    const to = new StubState(Vec3d, [1, 0, 0, 0, 0, 2], 'pts');
    mount(new RigidMapping(), from, to);
    const expected = [1, 3, 3, 1, 2, 5];
    to.x.forEach((v, i) => expect(v).to.be.closeTo(expected[i]!, 1e-15));
  });

  it('globalToLocalCoords keeps the output where it was at init', () => {
    const from = frames(1, 1);
    const to = points(4, 2);
    const before = Float64Array.from(to.x);
    const m = new RigidMapping();
    m.globalToLocalCoords.value = true;
    mount(m, from, to);
    to.x.forEach((v, i) => expect(v).to.be.closeTo(before[i]!, 1e-14));
  });

  it('velocity at init is v_c + ω × r', () => {
    const from = new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1], 'frame');
    from.v.set([1, 0, 0, 0, 0, 2]);
    const to = new StubState(Vec3d, [1, 0, 0], 'pts');
    mount(new RigidMapping(), from, to);
    expect(Array.from(to.v)).to.deep.equal([1, 2, 0]);
  });

  it('J equals finite differences of apply, and applyJT is its transpose (several frames, rigidIndexPerPoint)', () => {
    const from = frames(3, 3);
    const to = points(5, 4);
    const m = new RigidMapping();
    m.rigidIndexPerPoint.read('2 0 2 1 0');
    mount(m, from, to);
    expectValidCsr(m.getJ(0), 15, 18);
    checkJacobian(m, from, to, 5);
    checkTranspose(m, 18, 15, 6);
  });

  it('index and indexFromEnd choose the frame of every point', () => {
    const from = frames(3, 7);
    const a = new RigidMapping();
    a.index.value = 1;
    mount(a, from, points(2, 8));
    const b = new RigidMapping();
    b.index.value = 1;
    b.indexFromEnd.value = true;
    const to = points(2, 8);
    mount(b, frames(3, 7), to);
    // index 1 from the end of 3 frames is frame 1 too; index 0 from the end is frame 2
    const c = new RigidMapping();
    c.indexFromEnd.value = true;
    mount(c, frames(3, 7), points(2, 8));
    expect(Array.from(c.getJ(0).colInd.subarray(0, 3))).to.deep.equal([12, 16, 17]);
    expect(Array.from(b.getJ(0).colInd.subarray(0, 3))).to.deep.equal([6, 10, 11]);
  });

  it('Exact geometric stiffness equals finite differences of Jᵀ·f (assembled and applyDJT)', () => {
    const from = frames(2, 9);
    const to = points(4, 10);
    const m = new RigidMapping();
    m.rigidIndexPerPoint.read('0 1 1 0');
    m.geometricStiffness.value = 'Exact';
    mount(m, from, to);
    const r = rng(11);
    const f = Float64Array.from({ length: 12 }, () => 2 * r() - 1);
    const nIn = 12;
    const acc = new DenseAccumulator(nIn);
    m.addGeometricStiffness(acc, f, 1);
    const base = Float64Array.from(from.x);
    const h = 1e-6;
    const G = (sign: number, j: number): Float64Array => {
      from.x.set(base);
      perturb(Rigid3d, from.x, j, sign * h);
      m.apply();
      const g = new Float64Array(nIn);
      m.applyJT([g], f);
      return g;
    };
    for (let j = 0; j < nIn; j++) {
      const gp = G(1, j);
      const gm = G(-1, j);
      for (let i = 0; i < nIn; i++) expect(acc.A[i]![j]!).to.be.closeTo((gp[i]! - gm[i]!) / (2 * h), 1e-7);
    }
    from.x.set(base);
    m.apply();
    // applyDJT: df += k·K·dx
    const dx = Float64Array.from({ length: nIn }, () => 2 * r() - 1);
    const df = new Float64Array(nIn);
    m.applyDJT([df], [dx], f, 0.5);
    for (let i = 0; i < nIn; i++) expect(df[i]!).to.be.closeTo(0.5 * acc.A[i]!.reduce((s, v, k) => s + v * dx[k]!, 0), 1e-12);
  });

  it('Stabilized geometric stiffness is symmetric, negative semi-definite, and equals Exact when that already is', () => {
    const from = frames(1, 12);
    const to = points(6, 13);
    const m = new RigidMapping();
    m.geometricStiffness.value = 'Stabilized';
    mount(m, from, to);
    const r = rng(14);
    const f = Float64Array.from({ length: 18 }, () => 2 * r() - 1);
    const acc = new DenseAccumulator(6);
    m.addGeometricStiffness(acc, f, 1);
    const K = acc.A;
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) expect(K[i]![j]!).to.be.closeTo(K[j]![i]!, 1e-14);
    for (let t = 0; t < 20; t++) {
      const v = Array.from({ length: 6 }, () => 2 * r() - 1);
      const q = v.reduce((s, vi, i) => s + vi * K[i]!.reduce((a, kij, j) => a + kij * v[j]!, 0), 0);
      expect(q).to.be.at.most(1e-12);
    }
    // A point pulled outwards along its own arm, f = s·r (s > 0): [f]×[r]× = s·(r·rᵀ − |r|²·I) is
    // symmetric negative semi-definite, so stabilisation leaves it unchanged.
    const one = new StubState(Vec3d, [1, 2, 3], 'p');
    const e = new RigidMapping();
    e.geometricStiffness.value = 'Exact';
    const s = new RigidMapping();
    s.geometricStiffness.value = 'Stabilized';
    mount(e, new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1], 'a'), one);
    mount(s, new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1], 'b'), new StubState(Vec3d, [1, 2, 3], 'q'));
    const fr = Float64Array.of(0.5, 1, 1.5);
    const ae = new DenseAccumulator(6);
    const as = new DenseAccumulator(6);
    e.addGeometricStiffness(ae, fr, 1);
    s.addGeometricStiffness(as, fr, 1);
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) expect(as.A[i]![j]!).to.be.closeTo(ae.A[i]![j]!, 1e-13);
  });

  it('emits the same entry sequence at every call; None emits nothing', () => {
    const from = frames(2, 15);
    const m = new RigidMapping();
    m.rigidIndexPerPoint.read('1 1 0');
    m.geometricStiffness.value = 'Exact';
    mount(m, from, points(3, 16));
    const a = new DenseAccumulator(12);
    const b = new DenseAccumulator(12);
    m.addGeometricStiffness(a, new Float64Array(9), 1);
    m.addGeometricStiffness(b, Float64Array.from({ length: 9 }, (_, i) => i), 2);
    expect(b.order).to.deep.equal(a.order);
    expect(a.order.length).to.equal(18);
    const n = new RigidMapping();
    mount(n, frames(1, 17), points(2, 18));
    const c = new DenseAccumulator(6);
    n.addGeometricStiffness(c, Float64Array.of(1, 2, 3, 4, 5, 6), 1);
    expect(c.order.length).to.equal(0);
    expect(n.isLinear).to.equal(false);
  });

  it('nsdProject3 keeps the negative part of the spectrum (closed form)', () => {
    // A = V·diag(2, −1, −3)·Vᵀ with V a rotation: A⁻ = V·diag(0, −1, −3)·Vᵀ
    const c = Math.cos(0.3), s = Math.sin(0.3);
    const V = [c, -s, 0, s, c, 0, 0, 0, 1];
    const build = (l: number[]) => {
      const A = new Float64Array(9);
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) A[3 * i + j] += V[3 * i + k]! * l[k]! * V[3 * j + k]!;
      return A;
    };
    const A = build([2, -1, -3]);
    nsdProject3(A);
    const E = build([0, -1, -3]);
    A.forEach((v, i) => expect(v).to.be.closeTo(E[i]!, 1e-13));
  });
});
