import { expect } from 'chai';
import { Rigid3d, Vec1d, Vec3d, type StateType } from '@sofa-ts/core';
import { DistanceMultiMapping } from './DistanceMultiMapping.js';
import { checkMultiJacobian, checkMultiTranspose, mountMulti, randomArray } from './compliant-test-support.js';
import { DenseAccumulator, StubState, StubTopology, expectValidCsr, perturb, rng } from './test-support.js';

/** n random Vec3d points, or n random Rigid3d frames (unit quaternions). */
function points(type: StateType, n: number, seed: number, name: string): StubState {
  const r = rng(seed);
  if (type === Vec3d)
    return new StubState(
      Vec3d,
      Array.from({ length: 3 * n }, () => 2 * r() - 1),
      name,
    );
  const x: number[] = [];
  for (let i = 0; i < n; i++) {
    const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
    const l = Math.hypot(...q);
    x.push(2 * r() - 1, 2 * r() - 1, 2 * r() - 1, ...q.map((v) => v / l));
  }
  return new StubState(Rigid3d, x, name);
}

/** pairs: (input, point); edges join pairs. Edge 2 joins two points of input 1, edge 3 a point to itself. */
const pairs = '0 2  1 0  1 3  0 0  0 2';
const edges = Uint32Array.of(0, 1, 3, 1, 2, 1, 0, 4, 3, 2);

function setup(type: StateType, seed: number, configure: (m: DistanceMultiMapping) => void = () => {}) {
  const A = points(type, 3, seed, 'A'),
    B = points(type, 4, seed + 1, 'B');
  const to = new StubState(Vec1d, [], 'out');
  const m = new DistanceMultiMapping();
  m.indexPairs.read(pairs);
  m.topology.set(new StubTopology({ edges }));
  configure(m);
  mountMulti(m, [A, B], to);
  return { m, A, B, to };
}

/** ‖p_b − p_a‖ of edge i (centres of rigid frames). */
function length(A: StubState, B: StubState, i: number): number {
  const p = pairs.split(/\s+/).map(Number);
  const pt = (k: number): number[] => {
    const s = p[2 * k] === 0 ? A : B,
      c = s.stateType.coordSize,
      o = p[2 * k + 1] * c;
    return [s.x[o], s.x[o + 1], s.x[o + 2]];
  };
  const a = pt(edges[2 * i]),
    b = pt(edges[2 * i + 1]);
  return Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
}

describe('DistanceMultiMapping', () => {
  it('maps each edge of index pairs to ‖p_b − p_a‖ − l0 across the inputs (rest lengths at init, zero with computeDistance)', () => {
    const { m, A, B, to } = setup(Vec3d, 1);
    expect(to.size).to.equal(5);
    for (let i = 0; i < 5; i++) {
      expect(m.restLengths.value[i]).to.be.closeTo(length(A, B, i), 1e-15);
      expect(to.x[i]).to.be.closeTo(0, 1e-15);
    }
    const d = setup(Vec3d, 1, (mm) => (mm.computeDistance.value = true));
    for (let i = 0; i < 5; i++) expect(d.to.x[i]).to.be.closeTo(length(d.A, d.B, i), 1e-15);
    expectValidCsr(d.m.getJ(0), 5, 9);
    expectValidCsr(d.m.getJ(1), 5, 12);
  });

  it('J_i equal finite differences of apply and applyJT is the transpose (Vec3d and Rigid3d)', () => {
    for (const type of [Vec3d, Rigid3d]) {
      const { m, A, B, to } = setup(type, 3);
      A.x.set(points(type, 3, 7, 'A').x);
      B.x.set(points(type, 4, 8, 'B').x);
      checkMultiJacobian(m, [A, B], to, 9, 1e-6, 1e-6);
      checkMultiTranspose(m, [3 * type.derivSize, 4 * type.derivSize], 5, 10);
    }
  });

  it("Exact geometric stiffness equals finite differences of Σ J_iᵀ·λ in the inputs' concatenated space; applyDJT = K·dx", () => {
    for (const type of [Vec3d, Rigid3d]) {
      const { m, A, B } = setup(type, 5, (mm) => (mm.geometricStiffness.value = 'Exact'));
      A.x.set(points(type, 3, 11, 'A').x);
      B.x.set(points(type, 4, 12, 'B').x);
      const d = type.derivSize,
        nA = 3 * d,
        n = 7 * d;
      const lambda = randomArray(5, 13);
      m.apply();
      const acc = new DenseAccumulator(n);
      m.addGeometricStiffness(acc, lambda, 1);
      const jtl = (): Float64Array => {
        m.apply();
        const gA = new Float64Array(nA),
          gB = new Float64Array(n - nA);
        m.applyJT([gA, gB], lambda);
        return Float64Array.of(...gA, ...gB);
      };
      const h = 1e-6;
      for (let j = 0; j < n; j++) {
        const [s, jj] = j < nA ? [A, j] : [B, j - nA];
        const base = Float64Array.from(s.x);
        perturb(type, s.x, jj, h);
        const plus = jtl();
        s.x.set(base);
        perturb(type, s.x, jj, -h);
        const minus = jtl();
        s.x.set(base);
        for (let r = 0; r < n; r++) expect(acc.A[r][j], `K[${r}][${j}]`).to.be.closeTo((plus[r] - minus[r]) / (2 * h), 1e-6);
      }
      m.apply();
      const dx = randomArray(n, 14);
      const dfA = new Float64Array(nA),
        dfB = new Float64Array(n - nA);
      m.applyDJT([dfA, dfB], [dx.subarray(0, nA), dx.subarray(nA)], lambda, 0.5);
      const df = [...dfA, ...dfB];
      for (let r = 0; r < n; r++) {
        let kdx = 0;
        for (let c = 0; c < n; c++) kdx += acc.A[r][c] * dx[c];
        expect(df[r]).to.be.closeTo(0.5 * kdx, 1e-12);
      }
    }
  });

  it('Stabilized keeps λ < 0 only; None emits nothing', () => {
    const { m } = setup(Vec3d, 15);
    const lambda = Float64Array.of(-1, 2, -3, 4, -5);
    const stab = new DenseAccumulator(21);
    m.addGeometricStiffness(stab, lambda, 1);
    m.geometricStiffness.value = 'Exact';
    const exact = new DenseAccumulator(21);
    m.addGeometricStiffness(
      exact,
      lambda.map((v) => Math.min(v, 0)),
      1,
    );
    expect(stab.A).to.deep.equal(exact.A);
    m.geometricStiffness.value = 'None';
    const none = new DenseAccumulator(21);
    m.addGeometricStiffness(none, lambda, 1);
    expect(none.order).to.have.length(0);
  });

  it('reports pairs and edges out of range', () => {
    const A = points(Vec3d, 3, 1, 'A');
    const m = new DistanceMultiMapping();
    m.indexPairs.read('0 5');
    m.topology.set(new StubTopology({ edges: Uint32Array.of(0, 0) }));
    expect(() => mountMulti(m, [A], new StubState(Vec1d, [], 'out'))).to.throw(/names point 5/);
    const e = new DistanceMultiMapping();
    e.indexPairs.read('0 1  0 2');
    e.topology.set(new StubTopology({ edges: Uint32Array.of(0, 2) }));
    expect(() => mountMulti(e, [A], new StubState(Vec1d, [], 'out'))).to.throw(/names pair 2/);
  });
});
