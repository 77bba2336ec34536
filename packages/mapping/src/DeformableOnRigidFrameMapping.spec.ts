import { expect } from 'chai';
import { Node, Rigid3d, Vec3d } from '@sofa-ts/core';
import { DeformableOnRigidFrameMapping } from './DeformableOnRigidFrameMapping.js';
import { checkMultiJacobian, checkMultiTranspose, randomArray } from './compliant-test-support.js';
import { DenseAccumulator, StubState, perturb, rng } from './test-support.js';

function setup(seed: number, configure: (m: DeformableOnRigidFrameMapping) => void = () => {}) {
  const r = rng(seed);
  const def = new StubState(
    Vec3d,
    Array.from({ length: 12 }, () => 2 * r() - 1),
    'def',
  );
  const frames: number[] = [];
  for (let i = 0; i < 2; i++) {
    const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
    const l = Math.hypot(...q);
    frames.push(2 * r() - 1, 2 * r() - 1, 2 * r() - 1, ...q.map((v) => v / l));
  }
  const rigid = new StubState(Rigid3d, frames, 'rigid');
  const to = new StubState(Vec3d, [], 'out');
  const root = new Node('root');
  root.createChild('d').addObject(def);
  root.createChild('r').addObject(rigid);
  const child = root.createChild('mapped');
  child.addObject(to);
  const m = new DeformableOnRigidFrameMapping();
  child.addObject(m);
  m.input1.set(def);
  m.input2.set(rigid);
  m.output.set(to);
  configure(m);
  m.init();
  return { m, def, rigid, to };
}

describe('DeformableOnRigidFrameMapping', () => {
  it('y = c + R·x with frame `index` (from the end with indexFromEnd): a 90° turn about z (closed form)', () => {
    const { m, rigid, to, def } = setup(1, (mm) => (mm.index.value = 1));
    const s = Math.SQRT1_2;
    rigid.x.set([0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 0, 0, s, s]);
    def.x.set([1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1]);
    m.apply();
    const expected = [1, 3, 3, 0, 2, 3, 1, 2, 4, 0, 3, 4];
    to.x.forEach((v, i) => expect(v).to.be.closeTo(expected[i], 1e-15));
    const e = setup(1, (mm) => (mm.indexFromEnd.value = true));
    e.rigid.x.set(rigid.x);
    e.def.x.set(def.x);
    e.m.apply();
    e.to.x.forEach((v, i) => expect(v).to.be.closeTo(expected[i], 1e-15));
  });

  it('J of both inputs against finite differences of apply, applyJT their transpose', () => {
    const { m, def, rigid, to } = setup(2);
    checkMultiJacobian(m, [def, rigid], to, 3, 1e-6, 1e-6);
    checkMultiTranspose(m, [12, 12], 12, 4);
  });

  it("Exact geometric stiffness equals finite differences of Jᵀ·f in the inputs' concatenated space; applyDJT = K·dx; None adds nothing", () => {
    const { m, def, rigid } = setup(5, (mm) => (mm.geometricStiffness.value = 'Exact'));
    const n = 24,
      nA = 12;
    const f = randomArray(12, 6);
    m.apply();
    const acc = new DenseAccumulator(n);
    m.addGeometricStiffness(acc, f, 1);
    const jtf = (): number[] => {
      m.apply();
      const gA = new Float64Array(nA),
        gB = new Float64Array(n - nA);
      m.applyJT([gA, gB], f);
      return [...gA, ...gB];
    };
    const h = 1e-6;
    for (let j = 0; j < n; j++) {
      const [s, jj] = j < nA ? [def, j] : [rigid, j - nA];
      const base = Float64Array.from(s.x);
      perturb(s.stateType, s.x, jj, h);
      const plus = jtf();
      s.x.set(base);
      perturb(s.stateType, s.x, jj, -h);
      const minus = jtf();
      s.x.set(base);
      for (let r = 0; r < n; r++) expect(acc.A[r][j], `K[${r}][${j}]`).to.be.closeTo((plus[r] - minus[r]) / (2 * h), 1e-6);
    }
    m.apply();
    const dx = randomArray(n, 7);
    const dfA = new Float64Array(nA),
      dfB = new Float64Array(n - nA);
    m.applyDJT([dfA, dfB], [dx.subarray(0, nA), dx.subarray(nA)], f, 0.5);
    const df = [...dfA, ...dfB];
    for (let r = 0; r < n; r++) {
      let kdx = 0;
      for (let c = 0; c < n; c++) kdx += acc.A[r][c] * dx[c];
      expect(df[r]).to.be.closeTo(0.5 * kdx, 1e-12);
    }
    m.geometricStiffness.value = 'None';
    const zA = new Float64Array(nA),
      zB = new Float64Array(n - nA);
    m.applyDJT([zA, zB], [dx.subarray(0, nA), dx.subarray(nA)], f, 1);
    expect([...zA, ...zB].every((v) => v === 0)).to.equal(true);
  });

  it('refuses a repartition, scale factors other than 1 and an index out of range', () => {
    expect(() => setup(8, (mm) => (mm.repartition.value = Uint32Array.of(2, 2)))).to.throw(/repartition/);
    expect(() => setup(8, (mm) => (mm.rootAngularForceScaleFactor.value = 2))).to.throw(/scale factors/);
    expect(() => setup(8, (mm) => (mm.index.value = 2))).to.throw(/index 2 is out of range/);
  });
});
