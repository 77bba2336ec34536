import { expect } from 'chai';
import { Rigid3d, Vec1d, Vec3d, type StateType } from '@sofa-ts/core';
import { DistanceFromTargetMapping } from './DistanceFromTargetMapping.js';
import {
  checkGeometricStiffness,
  checkMultiJacobian,
  checkMultiTranspose,
  emittedGeometricStiffness,
  randomArray,
} from './compliant-test-support.js';
import { StubState, expectValidCsr, mount, rng } from './test-support.js';

/** n random points of a type (unit quaternions for Rigid3d). */
function coords(type: StateType, n: number, seed: number): number[] {
  const r = rng(seed);
  const x: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < type.spatialDimensions; k++) x.push(2 * r() - 1);
    if (type === Rigid3d) {
      const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
      const l = Math.hypot(...q);
      x.push(...q.map((v) => v / l));
    }
  }
  return x;
}

const indices = '3 0 3 1';

function setup(
  type: StateType,
  seed: number,
  configure: (m: DistanceFromTargetMapping) => void = () => {},
): { m: DistanceFromTargetMapping; from: StubState; to: StubState; targets: number[] } {
  const from = new StubState(type, coords(type, 4, seed), 'in');
  const to = new StubState(Vec1d, [0], 'out');
  const m = new DistanceFromTargetMapping();
  m.indices.read(indices);
  const targets = coords(type, 4, seed + 100);
  m.targetPositions.value = Float64Array.from(targets);
  configure(m);
  mount(m, from, to);
  return { m, from, to, targets };
}

describe('DistanceFromTargetMapping', () => {
  it('e_i = ‖p_idx − t_i‖ − r_i; unset rest distances are zero', () => {
    for (const type of [Vec3d, Vec1d, Rigid3d]) {
      const { m, from, to, targets } = setup(type, 1, (mm) => mm.restLengths.read('0.25'));
      expect(Array.from(m.restLengths.value)).to.deep.equal([0.25, 0, 0, 0]);
      const idx = [3, 0, 3, 1];
      const c = type.coordSize;
      for (let i = 0; i < 4; i++) {
        let s = 0;
        for (let k = 0; k < type.spatialDimensions; k++) s += (from.x[idx[i] * c + k] - targets[i * c + k]) ** 2;
        expect(to.x[i]).to.be.closeTo(Math.sqrt(s) - (i === 0 ? 0.25 : 0), 1e-15);
      }
    }
  });

  it('J equals finite differences of apply and applyJT is its transpose (Vec3d, Vec1d, Rigid3d)', () => {
    for (const type of [Vec3d, Vec1d, Rigid3d]) {
      const { m, from, to } = setup(type, 2);
      expectValidCsr(m.getJ(0), 4, 4 * type.derivSize);
      checkMultiJacobian(m, [from], to, 3);
      checkMultiTranspose(m, [4 * type.derivSize], 4, 4);
    }
  });

  it('Exact geometric stiffness equals finite differences of Jᵀ·f, applyDJT = K·dx', () => {
    for (const type of [Vec3d, Vec1d, Rigid3d]) {
      const { m, from } = setup(type, 5, (mm) => (mm.geometricStiffness.value = 'Exact'));
      checkGeometricStiffness(m, from, randomArray(4, 6), 7);
    }
  });

  it('Stabilized keeps only f < 0 (points pulled back toward their target); same entries every call', () => {
    const { m } = setup(Vec3d, 8);
    const f = Float64Array.of(-1, 2, 0.5, -3);
    const stab = emittedGeometricStiffness(m, 12, f, 1);
    m.geometricStiffness.value = 'Exact';
    const exact = emittedGeometricStiffness(
      m,
      12,
      f.map((v) => Math.min(v, 0)),
      1,
    );
    for (let r = 0; r < 12; r++) for (let c = 0; c < 12; c++) expect(stab.A[r][c]).to.be.closeTo(exact.A[r][c], 1e-14);
    expect(stab.order).to.deep.equal(exact.order);
  });

  it('follows targetPositions changed after init (a moving anchor)', () => {
    const { m, from, to } = setup(Vec3d, 9);
    const t = Float64Array.from(m.targetPositions.value);
    t[0] = from.x[9];
    t[1] = from.x[10];
    t[2] = from.x[11] + 2;
    m.targetPositions.value = t;
    m.apply();
    expect(to.x[0]).to.be.closeTo(2, 1e-15);
  });

  it('reports targets that do not match the indices and indices outside the input', () => {
    const from = new StubState(Vec3d, coords(Vec3d, 2, 1), 'in');
    const m = new DistanceFromTargetMapping();
    m.indices.read('0 1');
    m.targetPositions.read('0 0 0');
    expect(() => mount(m, from, new StubState(Vec1d, [0], 'out'))).to.throw(/2 indices but targetPositions holds 1/);
    const m2 = new DistanceFromTargetMapping();
    m2.indices.read('5');
    m2.targetPositions.read('0 0 0');
    expect(() => mount(m2, new StubState(Vec3d, coords(Vec3d, 2, 1), 'in'), new StubState(Vec1d, [0], 'out'))).to.throw(
      /index 5 is not a point/,
    );
  });

  it('with no indices maps nothing and ignores targetPositions (SOFA release behaviour)', () => {
    const from = new StubState(Vec3d, coords(Vec3d, 2, 1), 'in');
    const to = new StubState(Vec1d, [0, 0], 'out');
    const m = new DistanceFromTargetMapping();
    m.targetPositions.read('0 0 0  1 1 1');
    mount(m, from, to);
    expect(to.size).to.equal(0);
  });
});
