import { expect } from 'chai';
import { Rigid2d, Rigid3d, Vec2d, Vec3d } from '@sofa-ts/core';
import { nsdProject3 } from './nsd-projection.js';
import { RigidMapping } from './RigidMapping.js';
import { DenseAccumulator, StubState, checkJacobian, checkTranspose, dense, expectValidCsr, mount, perturb, rng } from './test-support.js';

/** Rigid frames at random positions with random unit quaternions. */
function frames(n: number, seed: number): StubState {
  const r = rng(seed);
  const x = new Float64Array(7 * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) x[7 * i + k] = 2 * r() - 1;
    const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
    const l = Math.hypot(...q);
    for (let k = 0; k < 4; k++) x[7 * i + 3 + k] = q[k] / l;
  }
  return new StubState(Rigid3d, x, 'frames');
}

function points(n: number, seed: number): StubState {
  const r = rng(seed);
  return new StubState(
    Vec3d,
    Array.from({ length: 3 * n }, () => 2 * r() - 1),
    'points',
  );
}

describe('RigidMapping', () => {
  it('maps local points through the frame: x = c + R·p (closed form, 90° about z)', () => {
    const s = Math.SQRT1_2;
    const from = new StubState(Rigid3d, [1, 2, 3, 0, 0, s, s], 'frame');
    const to = new StubState(Vec3d, [1, 0, 0, 0, 0, 2], 'pts');
    mount(new RigidMapping(), from, to);
    const expected = [1, 3, 3, 1, 2, 5];
    to.x.forEach((v, i) => expect(v).to.be.closeTo(expected[i], 1e-15));
  });

  it('globalToLocalCoords keeps the output where it was at init', () => {
    const from = frames(1, 1);
    const to = points(4, 2);
    const before = Float64Array.from(to.x);
    const m = new RigidMapping();
    m.globalToLocalCoords.value = true;
    mount(m, from, to);
    to.x.forEach((v, i) => expect(v).to.be.closeTo(before[i], 1e-14));
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
      for (let i = 0; i < nIn; i++) expect(acc.A[i][j]).to.be.closeTo((gp[i] - gm[i]) / (2 * h), 1e-7);
    }
    from.x.set(base);
    m.apply();
    // applyDJT: df += k·K·dx
    const dx = Float64Array.from({ length: nIn }, () => 2 * r() - 1);
    const df = new Float64Array(nIn);
    m.applyDJT([df], [dx], f, 0.5);
    for (let i = 0; i < nIn; i++) expect(df[i]).to.be.closeTo(0.5 * acc.A[i].reduce((s, v, k) => s + v * dx[k], 0), 1e-12);
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
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) expect(K[i][j]).to.be.closeTo(K[j][i], 1e-14);
    for (let t = 0; t < 20; t++) {
      const v = Array.from({ length: 6 }, () => 2 * r() - 1);
      const q = v.reduce((s, vi, i) => s + vi * K[i].reduce((a, kij, j) => a + kij * v[j], 0), 0);
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
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) expect(as.A[i][j]).to.be.closeTo(ae.A[i][j], 1e-13);
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
    m.addGeometricStiffness(
      b,
      Float64Array.from({ length: 9 }, (_, i) => i),
      2,
    );
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
    const c = Math.cos(0.3),
      s = Math.sin(0.3);
    const V = [c, -s, 0, s, c, 0, 0, 0, 1];
    const build = (l: number[]) => {
      const A = new Float64Array(9);
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) A[3 * i + j] += V[3 * i + k] * l[k] * V[3 * j + k];
      return A;
    };
    const A = build([2, -1, -3]);
    nsdProject3(A);
    const E = build([0, -1, -3]);
    A.forEach((v, i) => expect(v).to.be.closeTo(E[i], 1e-13));
  });
});

/** Rotation vector θ·u of the unit quaternion a ⊗ b⁻¹ (both (x, y, z, w) at a[ao..], b[bo..]). */
function rotationVector(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number[] {
  const ax = a[ao],
    ay = a[ao + 1],
    az = a[ao + 2],
    aw = a[ao + 3];
  const bx = -b[bo],
    by = -b[bo + 1],
    bz = -b[bo + 2],
    bw = b[bo + 3];
  let x = aw * bx + ax * bw + ay * bz - az * by;
  let y = aw * by - ax * bz + ay * bw + az * bx;
  let z = aw * bz + ax * by - ay * bx + az * bw;
  let w = aw * bw - ax * bx - ay * by - az * bz;
  if (w < 0) [x, y, z, w] = [-x, -y, -z, -w];
  const n = Math.hypot(x, y, z);
  if (n === 0) return [0, 0, 0];
  const k = (2 * Math.atan2(n, w)) / n;
  return [k * x, k * y, k * z];
}

describe('RigidMapping Rigid3d → Rigid3d (child frames on a parent frame)', () => {
  const s = Math.SQRT1_2;

  it('composes the frames: centre c + R·p, orientation q ⊗ q_l (closed form: 90° about z, then 90° about x)', () => {
    const from = new StubState(Rigid3d, [1, 2, 3, 0, 0, s, s], 'parent');
    const to = new StubState(Rigid3d, [1, 0, 0, s, 0, 0, s, 0, 0, 2, 0, 0, 0, 1], 'children');
    const m = mount(new RigidMapping(), from, to);
    expect(m.template).to.equal('Rigid3d,Rigid3d');
    // child 0: centre (1, 2, 3) + Rz·(1, 0, 0) = (1, 3, 3); orientation Rz90 ⊗ Rx90 = the 120° turn about (1, 1, 1)
    // child 1: centre (1, 2, 3) + Rz·(0, 0, 2) = (1, 2, 5); orientation Rz90
    const expected = [1, 3, 3, 0.5, 0.5, 0.5, 0.5, 1, 2, 5, 0, 0, s, s];
    to.x.forEach((v, i) => expect(v, `x[${i}]`).to.be.closeTo(expected[i], 1e-15));
  });

  it('velocity at init is (v_c + ω × r, ω); globalToLocalCoords keeps the children where they were', () => {
    const from = new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1], 'parent');
    from.v.set([1, 0, 0, 0, 0, 2]);
    const to = new StubState(Rigid3d, [1, 0, 0, 0, 0, 0, 1], 'child');
    mount(new RigidMapping(), from, to);
    expect(Array.from(to.v)).to.deep.equal([1, 2, 0, 0, 0, 2]);
    const parents = frames(2, 31);
    const children = new StubState(Rigid3d, Array.from(frames(3, 32).x), 'children');
    const before = Float64Array.from(children.x);
    const g = new RigidMapping();
    g.globalToLocalCoords.value = true;
    g.rigidIndexPerPoint.read('1 0 1');
    mount(g, parents, children);
    for (let i = 0; i < 3; i++) {
      for (let k = 0; k < 3; k++) expect(children.x[7 * i + k]).to.be.closeTo(before[7 * i + k], 1e-14);
      // same orientation up to the sign of the quaternion
      const dot = [3, 4, 5, 6].reduce((a, k) => a + children.x[7 * i + k] * before[7 * i + k], 0);
      expect(Math.abs(dot)).to.be.closeTo(1, 1e-14);
    }
  });

  it('J equals finite differences of apply (centres and rotation vectors of the children), applyJT is its transpose', () => {
    const from = frames(2, 33);
    const to = new StubState(Rigid3d, Array.from(frames(3, 34).x), 'children');
    const m = new RigidMapping();
    m.rigidIndexPerPoint.read('1 0 1');
    mount(m, from, to);
    expectValidCsr(m.getJ(0), 18, 12);
    const J = dense(m.getJ(0));
    const base = Float64Array.from(from.x);
    const h = 1e-6;
    for (let j = 0; j < 12; j++) {
      from.x.set(base);
      perturb(Rigid3d, from.x, j, h);
      m.apply();
      const plus = Float64Array.from(to.x);
      from.x.set(base);
      perturb(Rigid3d, from.x, j, -h);
      m.apply();
      const minus = Float64Array.from(to.x);
      for (let i = 0; i < 3; i++) {
        const rot = rotationVector(plus, 7 * i + 3, minus, 7 * i + 3);
        for (let k = 0; k < 3; k++) {
          expect(J[6 * i + k][j], `J[${6 * i + k}][${j}]`).to.be.closeTo((plus[7 * i + k] - minus[7 * i + k]) / (2 * h), 1e-8);
          expect(J[6 * i + 3 + k][j], `J[${6 * i + 3 + k}][${j}]`).to.be.closeTo(rot[k] / (2 * h), 1e-8);
        }
      }
    }
    from.x.set(base);
    m.apply();
    checkTranspose(m, 12, 18, 35);
    // applyJ = J·u
    const r = rng(36);
    const u = Float64Array.from({ length: 12 }, () => 2 * r() - 1);
    const out = new Float64Array(18);
    m.applyJ(out, [u]);
    for (let i = 0; i < 18; i++)
      expect(out[i]).to.be.closeTo(
        J[i].reduce((a, v, k) => a + v * u[k], 0),
        1e-13,
      );
  });

  it('a child torque goes to the parent unchanged, a child force adds r × f (Jᵀ)', () => {
    const from = new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1], 'parent');
    const to = new StubState(Rigid3d, [0, 2, 0, 0, 0, 0, 1], 'child');
    const m = mount(new RigidMapping(), from, to);
    const fin = new Float64Array(6);
    m.applyJT([fin], Float64Array.of(3, 0, 0, 0, 0, 1));
    // r = (0, 2, 0), f = (3, 0, 0): r × f = (0, 0, −6); plus the child's torque (0, 0, 1)
    expect(Array.from(fin)).to.deep.equal([3, 0, 0, 0, 0, -5]);
  });
});

describe('RigidMapping Rigid2d → Vec2d (plane points on plane frames)', () => {
  it('maps x = c + R(θ)·p (closed form: θ = 90°), velocity v + ω·(−r_y, r_x)', () => {
    const from = new StubState(Rigid2d, [1, 2, Math.PI / 2], 'frame');
    from.v.set([0.5, 0, 2]);
    const to = new StubState(Vec2d, [1, 0, 0, 3], 'points');
    const m = mount(new RigidMapping(), from, to);
    expect(m.template).to.equal('Rigid2d,Vec2d');
    [1, 3, -2, 2].forEach((v, i) => expect(to.x[i]).to.be.closeTo(v, 1e-15));
    // r0 = (0, 1): v = (0.5 − 2·1, 0 + 2·0); r1 = (−3, 0): v = (0.5 − 0, 0 + 2·(−3))
    [-1.5, 0, 0.5, -6].forEach((v, i) => expect(to.v[i]).to.be.closeTo(v, 1e-15));
  });

  it('J equals finite differences of apply, applyJT is its transpose (two frames, index)', () => {
    const from = new StubState(Rigid2d, [0.3, -0.2, 0.7, 1, 2, -1.1], 'frames');
    const to = new StubState(Vec2d, [0.4, 1.2, -0.5, 0.3, 2, -1], 'points');
    const m = new RigidMapping();
    m.index.value = 1;
    mount(m, from, to);
    expectValidCsr(m.getJ(0), 6, 6);
    checkJacobian(m, from, to, 37);
    checkTranspose(m, 6, 6, 38);
    const fin = new Float64Array(6);
    m.applyJT([fin], Float64Array.of(1, 0, 0, 0, 0, 0));
    // point 0 on frame 1: r = R(−1.1)·(0.4, 1.2); torque = r_x·f_y − r_y·f_x = −r_y
    const ry = Math.sin(-1.1) * 0.4 + Math.cos(-1.1) * 1.2;
    expect(fin[3]).to.equal(1);
    expect(fin[5]).to.be.closeTo(-ry, 1e-15);
  });

  it('globalToLocalCoords keeps the points where they were at init', () => {
    const from = new StubState(Rigid2d, [1, -1, 0.4], 'frame');
    const to = new StubState(Vec2d, [0.2, 0.3, -2, 5], 'points');
    const m = new RigidMapping();
    m.globalToLocalCoords.value = true;
    mount(m, from, to);
    [0.2, 0.3, -2, 5].forEach((v, i) => expect(to.x[i]).to.be.closeTo(v, 1e-14));
  });
});
