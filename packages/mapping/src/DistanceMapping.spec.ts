import { expect } from 'chai';
import { Rigid3d, Vec1d, Vec3d } from '@sofa-ts/core';
import { DistanceMapping } from './DistanceMapping.js';
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
  configure: (m: DistanceMapping) => void = () => {},
): { m: DistanceMapping; from: StubState; to: StubState } {
  const from = points(type, 5, seed);
  const to = new StubState(Vec1d, [0], 'out');
  const m = new DistanceMapping();
  configure(m);
  mount(m, from, to, new StubTopology({ edges }));
  return { m, from, to };
}

/** ‖p_b − p_a‖ for edge i (centres for rigid frames). */
function edgeLength(from: StubState, i: number): number {
  const c = from.stateType.coordSize;
  const a = edges[2 * i] * c,
    b = edges[2 * i + 1] * c;
  return Math.hypot(from.x[b] - from.x[a], from.x[b + 1] - from.x[a + 1], from.x[b + 2] - from.x[a + 2]);
}

describe('DistanceMapping', () => {
  it('rest lengths are the lengths at init (zero output), zero with computeDistance, or as given', () => {
    const { m, from, to } = setup(Vec3d, 1);
    expect(to.size).to.equal(5);
    for (let i = 0; i < 5; i++) {
      expect(m.restLengths.value[i]).to.be.closeTo(edgeLength(from, i), 1e-15);
      expect(to.x[i]).to.be.closeTo(0, 1e-15);
    }
    const d = setup(Vec3d, 1, (mm) => (mm.computeDistance.value = true));
    for (let i = 0; i < 5; i++) expect(d.to.x[i]).to.be.closeTo(edgeLength(d.from, i), 1e-15);
    const g = setup(Vec3d, 1, (mm) => mm.restLengths.read('0.1 0.2 0.3 0.4 0.5'));
    for (let i = 0; i < 5; i++) expect(g.to.x[i]).to.be.closeTo(edgeLength(g.from, i) - 0.1 * (i + 1), 1e-15);
  });

  it('the output follows the input: e = ‖p_b − p_a‖ − l0 (rigid frames: their centres)', () => {
    for (const type of [Vec3d, Rigid3d]) {
      const { m, from, to } = setup(type, 2);
      const rest = Float64Array.from(m.restLengths.value);
      const r = rng(3);
      for (let k = 0; k < from.x.length; k++) from.x[k] += 0.3 * (r() - 0.5);
      m.apply();
      for (let i = 0; i < 5; i++) expect(to.x[i]).to.be.closeTo(edgeLength(from, i) - rest[i], 1e-14);
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

  it('Exact geometric stiffness equals finite differences of Jᵀ·f (forces of both signs), applyDJT = K·dx', () => {
    for (const type of [Vec3d, Rigid3d]) {
      const { m, from } = setup(type, 8, (mm) => (mm.geometricStiffness.value = 'Exact'));
      from.x.set(points(type, 5, 9).x);
      checkGeometricStiffness(m, from, randomArray(5, 10), 11);
    }
  });

  it('Stabilized keeps the edges in tension (f < 0) only; None emits nothing', () => {
    const f = Float64Array.of(-2, 1.5, -0.5, 3, -1);
    const tensionOnly = f.map((v) => Math.min(v, 0));
    const { m, from } = setup(Vec3d, 12);
    from.x.set(points(Vec3d, 5, 13).x);
    m.apply();
    expect(m.geometricStiffness.value).to.equal('Stabilized');
    const stabilized = emittedGeometricStiffness(m, 15, f, 1).A;
    m.geometricStiffness.value = 'Exact';
    const exact = emittedGeometricStiffness(m, 15, tensionOnly, 1).A;
    for (let r = 0; r < 15; r++) for (let c = 0; c < 15; c++) expect(stabilized[r][c]).to.be.closeTo(exact[r][c], 1e-14);
    // In tension the stabilized matrix is negative semi-definite: xᵀKx ≤ 0.
    const x = randomArray(15, 14);
    let q = 0;
    for (let r = 0; r < 15; r++) for (let c = 0; c < 15; c++) q += x[r] * stabilized[r][c] * x[c];
    expect(q).to.be.at.most(1e-14);
    m.geometricStiffness.value = 'None';
    expect(emittedGeometricStiffness(m, 15, f, 1).order).to.have.length(0);
  });

  it('emits the same entry sequence at every call, whatever the forces', () => {
    const { m } = setup(Vec3d, 15);
    const a = emittedGeometricStiffness(m, 15, Float64Array.of(-1, -1, -1, -1, -1), 1).order;
    const b = emittedGeometricStiffness(m, 15, Float64Array.of(1, 1, 1, 1, 1), 2).order;
    expect(b).to.deep.equal(a);
  });

  it('a zero-length edge takes the direction (1, 1, 1)/√3 as SOFA does, and no geometric stiffness', () => {
    const from = new StubState(Vec3d, [1, 2, 3, 1, 2, 3], 'in');
    const to = new StubState(Vec1d, [0], 'out');
    const m = new DistanceMapping();
    m.geometricStiffness.value = 'Exact';
    mount(m, from, to, new StubTopology({ edges: Uint32Array.of(0, 1) }));
    expect(Array.from(m.getJ(0).values)).to.deep.equal([0, 0, 0, 0, 0, 0].map((v, k) => (k < 3 ? -1 : 1) / Math.sqrt(3)));
    expect(to.x[0]).to.equal(0);
    const K = emittedGeometricStiffness(m, 6, Float64Array.of(-1), 1).A;
    expect(K.flat().every((v) => v === 0)).to.equal(true);
  });

  it('reports a missing topology, a topology without edges and edges outside the input', () => {
    const mk = (topo: StubTopology | undefined) => () =>
      mount(new DistanceMapping(), points(Vec3d, 3, 1), new StubState(Vec1d, [0], 'out'), topo);
    expect(mk(undefined)).to.throw(/no topology/);
    expect(mk(new StubTopology({}))).to.throw(/has no edges/);
    expect(mk(new StubTopology({ edges: Uint32Array.of(0, 7) }))).to.throw(/names point 7/);
  });
});
