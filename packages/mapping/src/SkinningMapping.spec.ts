import { expect } from 'chai';
import { Rigid3d, Vec3d } from '@sofa-ts/core';
import { SkinningMapping } from './SkinningMapping.js';
import { DenseAccumulator, StubState, checkJacobian, checkTranspose, expectValidCsr, mount, perturb, rng } from './test-support.js';

function frames(n: number, seed: number): StubState {
  const r = rng(seed);
  const x = new Float64Array(7 * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) x[7 * i + k] = 3 * (2 * r() - 1);
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
    Array.from({ length: 3 * n }, () => 3 * (2 * r() - 1)),
    'points',
  );
}

/** Moves the frames away from their rest positions (x0 stays). */
function move(from: StubState, seed: number): void {
  const r = rng(seed);
  for (let j = 0; j < (from.x.length / 7) * 6; j++) perturb(Rigid3d, from.x, j, 0.4 * (2 * r() - 1));
}

describe('SkinningMapping', () => {
  it("SOFA's weights: the nbRef nearest frames by 1/d², normalised; a frame on the point takes it", () => {
    const from = new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 1, 0, 4, 0, 0, 0, 0, 1], 'frames');
    const to = new StubState(Vec3d, [1, 0, 0, 2, 0, 0], 'pts');
    const m = new SkinningMapping();
    m.nbRef.read('2');
    mount(m, from, to);
    // point 0: d² = 1, 1, 17 → frames 1 and 0 (equal weights: the later frame first, as SOFA inserts), ½ each
    expect(Array.from(m.indices.value)).to.deep.equal([1, 0, 1, 0]);
    expect(m.weight.value[0]).to.be.closeTo(0.5, 1e-15);
    expect(m.weight.value[1]).to.be.closeTo(0.5, 1e-15);
    // point 1 sits on frame 1
    expect(m.weight.value[2]).to.equal(1);
    expect(m.weight.value[3]).to.be.closeTo(0, 1e-300);
    // at rest the points do not move
    expect(Array.from(to.x)).to.deep.equal([1, 0, 0, 2, 0, 0]);
  });

  it('x = Σ w·(c + R·p): one frame turned 90° about z, the other translated (closed form)', () => {
    const from = new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 1], 'frames');
    const to = new StubState(Vec3d, [1, 1, 0], 'pts');
    const m = new SkinningMapping();
    m.nbRef.read('2');
    m.indices.read('0 1');
    m.weight.read('3 1');
    mount(m, from, to);
    expect(Array.from(m.weight.value)).to.deep.equal([0.75, 0.25]);
    const s = Math.SQRT1_2;
    from.x.set([0, 0, 0, 0, 0, s, s, 2, 0, 5, 0, 0, 0, 1]);
    m.apply();
    // frame 0: R·(1, 1, 0) = (−1, 1, 0); frame 1: (2, 0, 5) + (−1, 1, 0) = (1, 1, 5)
    const expected = [0.75 * -1 + 0.25 * 1, 0.75 * 1 + 0.25 * 1, 0.25 * 5];
    to.x.forEach((v, i) => expect(v).to.be.closeTo(expected[i], 1e-15));
  });

  it('J equals finite differences of apply, applyJT is its transpose (moved frames, 4 references per point)', () => {
    const from = frames(5, 1);
    const to = points(6, 2);
    const m = new SkinningMapping();
    mount(m, from, to);
    move(from, 3);
    m.apply();
    expectValidCsr(m.getJ(0), 18, 30);
    checkJacobian(m, from, to, 4);
    checkTranspose(m, 30, 18, 5);
  });

  it('Exact geometric stiffness equals finite differences of Jᵀ·f (assembled and applyDJT); None adds nothing', () => {
    const from = frames(3, 6);
    const to = points(4, 7);
    const m = new SkinningMapping();
    m.geometricStiffness.value = 'Exact';
    mount(m, from, to);
    move(from, 8);
    m.apply();
    const r = rng(9);
    const f = Float64Array.from({ length: 12 }, () => 2 * r() - 1);
    const nIn = 18;
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
      const gp = G(1, j),
        gm = G(-1, j);
      for (let i = 0; i < nIn; i++) expect(acc.A[i][j]).to.be.closeTo((gp[i] - gm[i]) / (2 * h), 1e-7);
    }
    from.x.set(base);
    m.apply();
    const dx = Float64Array.from({ length: nIn }, () => 2 * r() - 1);
    const df = new Float64Array(nIn);
    m.applyDJT([df], [dx], f, 0.5);
    for (let i = 0; i < nIn; i++) expect(df[i]).to.be.closeTo(0.5 * acc.A[i].reduce((s, v, k) => s + v * dx[k], 0), 1e-12);
    m.geometricStiffness.value = 'None';
    const none = new Float64Array(nIn);
    m.applyDJT([none], [dx], f, 1);
    expect(none.every((v) => v === 0)).to.equal(true);
  });
});
