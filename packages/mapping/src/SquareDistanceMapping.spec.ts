import { expect } from 'chai';
import { Rigid3d, Vec1d, Vec3d } from '@sofa-ts/core';
import { SquareDistanceMapping } from './SquareDistanceMapping.js';
import {
  checkGeometricStiffness,
  checkMultiJacobian,
  checkMultiTranspose,
  emittedGeometricStiffness,
  randomArray,
} from './compliant-test-support.js';
import { StubState, StubTopology, expectValidCsr, mount, rng } from './test-support.js';

/** n random Vec3d points, or n random Rigid3d frames (unit quaternions). */
function points(type: typeof Vec3d, n: number, seed: number): StubState {
  const r = rng(seed);
  if (type === Vec3d)
    return new StubState(
      Vec3d,
      Array.from({ length: 3 * n }, () => 2 * r() - 1),
      'in',
    );
  const x: number[] = [];
  for (let i = 0; i < n; i++) {
    const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
    const l = Math.hypot(...q);
    x.push(2 * r() - 1, 2 * r() - 1, 2 * r() - 1, ...q.map((v) => v / l));
  }
  return new StubState(Rigid3d, x, 'in');
}

const edges = Uint32Array.of(0, 1, 1, 2, 3, 1, 2, 4, 4, 0);

function setup(
  type: typeof Vec3d,
  seed: number,
  method?: 'None' | 'Exact' | 'Stabilized',
): { m: SquareDistanceMapping; from: StubState; to: StubState } {
  const from = points(type, 5, seed);
  const to = new StubState(Vec1d, [0], 'out');
  const m = new SquareDistanceMapping();
  if (method) m.geometricStiffness.value = method;
  mount(m, from, to, new StubTopology({ edges }));
  return { m, from, to };
}

describe('SquareDistanceMapping', () => {
  it('maps each edge to its squared length ‖p_b − p_a‖² (rigid frames: their centres), no rest length', () => {
    for (const type of [Vec3d, Rigid3d]) {
      const { from, to } = setup(type, 1);
      const c = type.coordSize;
      expect(to.size).to.equal(5);
      for (let i = 0; i < 5; i++) {
        const a = edges[2 * i] * c,
          b = edges[2 * i + 1] * c;
        const d2 = (from.x[b] - from.x[a]) ** 2 + (from.x[b + 1] - from.x[a + 1]) ** 2 + (from.x[b + 2] - from.x[a + 2]) ** 2;
        expect(to.x[i]).to.be.closeTo(d2, 1e-15);
      }
    }
  });

  it('J equals finite differences of apply and applyJT is its transpose (Vec3d and Rigid3d)', () => {
    for (const type of [Vec3d, Rigid3d]) {
      const { m, from, to } = setup(type, 4);
      from.x.set(points(type, 5, 5).x);
      m.apply();
      expectValidCsr(m.getJ(0), 5, 5 * type.derivSize);
      checkMultiJacobian(m, [from], to, 6);
      checkMultiTranspose(m, [5 * type.derivSize], 5, 7);
    }
  });

  it('Exact geometric stiffness equals finite differences of Jᵀ·λ (forces of both signs), applyDJT = K·dx', () => {
    for (const type of [Vec3d, Rigid3d]) {
      const { m, from } = setup(type, 8, 'Exact');
      from.x.set(points(type, 5, 9).x);
      checkGeometricStiffness(m, from, randomArray(5, 10), 11);
    }
  });

  it('Stabilized keeps λ < 0 only, None emits nothing, the emitted sequence is fixed', () => {
    const f = Float64Array.of(-2, 1.5, -0.5, 3, -1);
    const { m } = setup(Vec3d, 12);
    expect(m.geometricStiffness.value).to.equal('Stabilized');
    const stab = emittedGeometricStiffness(m, 15, f, 1);
    m.geometricStiffness.value = 'Exact';
    const exact = emittedGeometricStiffness(
      m,
      15,
      f.map((v) => Math.min(v, 0)),
      1,
    );
    expect(stab.A).to.deep.equal(exact.A);
    expect(stab.order).to.deep.equal(emittedGeometricStiffness(m, 15, f, 1).order);
    // the closed form 2λ·[I −I; −I I] on edge (3, 1), λ = 3
    const K = emittedGeometricStiffness(m, 15, Float64Array.of(0, 0, 3, 0, 0), 1).A;
    for (let k = 0; k < 3; k++) {
      expect(K[9 + k][9 + k]).to.equal(6);
      expect(K[9 + k][3 + k]).to.equal(-6);
      expect(K[3 + k][3 + k]).to.equal(6);
    }
    m.geometricStiffness.value = 'None';
    expect(emittedGeometricStiffness(m, 15, f, 1).order).to.have.length(0);
  });
});
