import { expect } from 'chai';
import { all, create } from 'mathjs';
import { Node, Vec1d, Vec2d, Vec3d } from '@sofa-ts/core';
import { csrToDense } from '@sofa-ts/linalg';
import { MechanicalSystem } from './mechanical-system.js';
import { DenseTestCompliance, DenseTestMass, FixedDofs, LinearTestMapping, TestState, randomSpd, rng } from './test-support.js';

const math = create(all);
type M = number[][];

const I = (n: number): M => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (__, j) => (i === j ? 1 : 0)));
const Z = (r: number, c: number): M => Array.from({ length: r }, () => new Array<number>(c).fill(0));
const hcat = (...ms: M[]): M => ms[0].map((_, i) => ms.flatMap((m) => m[i]));
const mul = (...ms: M[]): M => ms.reduce((a, b) => math.multiply(a, b) as M);
const add = (...ms: M[]): M => ms.reduce((a, b) => math.add(a, b) as M);
const scale = (s: number, a: M): M => math.multiply(s, a) as M;
const tr = (a: M): M => math.transpose(a) as M;
const blockdiag = (a: M, b: M): M => [...hcat(a, Z(a.length, b[0].length)), ...hcat(Z(b.length, a[0].length), b)];

function expectClose(actual: M, expected: M, tol = 1e-11): void {
  expect(actual.length).to.equal(expected.length);
  for (let i = 0; i < expected.length; i++) {
    expect(actual[i].length).to.equal(expected[i].length);
    for (let j = 0; j < expected[i].length; j++) {
      const e = expected[i][j];
      expect(actual[i][j], `(${i}, ${j})`).to.be.closeTo(e, tol * (1 + Math.abs(e)));
    }
  }
}

/**
 * The mechanical system of figure 1 of the Compliant plugin's paper (Faure 2012): masters X_a and
 * X_d; X_b mapped from X_a, with a mass M_bb; X_c mapped from X_b, with a compliance C_αα; X_e
 * multi-mapped from X_a and X_d, with a compliance C_ββ; a mass M_dd on X_d. Every mapping, mass
 * and compliance is a fixed random matrix, so figure 4's sums of products can be formed densely.
 */
function figure1(seed = 11) {
  const r = rng(seed);
  const root = new Node('root');
  const na = root.createChild('a');
  const nb = na.createChild('b');
  const nc = nb.createChild('c');
  const nd = root.createChild('d');
  const ne = nd.createChild('e');
  const Xa = na.addObject(new TestState(Vec3d, 3, 'Xa')); // 9 dofs
  const Xd = nd.addObject(new TestState(Vec2d, 2, 'Xd')); // 4 dofs
  const Xb = nb.addObject(new TestState(Vec3d, 2, 'Xb')); // 6 dofs
  const Xc = nc.addObject(new TestState(Vec1d, 3, 'Xc')); // 3 rows
  const Xe = ne.addObject(new TestState(Vec2d, 2, 'Xe')); // 4 rows
  for (const s of [Xa, Xd]) for (let i = 0; i < s.x.length; i++) s.x[i] = r();
  const mapB = nb.addObject(LinearTestMapping.random([Xa], Xb, seed + 1));
  const mapC = nc.addObject(LinearTestMapping.random([Xb], Xc, seed + 2));
  const mapE = ne.addObject(LinearTestMapping.random([Xa, Xd], Xe, seed + 3));
  const Mbb = randomSpd(6, seed + 4);
  const Mdd = randomSpd(4, seed + 5);
  const Caa = randomSpd(3, seed + 6, 0.1);
  const Cbb = randomSpd(4, seed + 7, 0.1);
  nb.addObject(new DenseTestMass(Xb, Mbb));
  nd.addObject(new DenseTestMass(Xd, Mdd));
  const compC = nc.addObject(new DenseTestCompliance(Xc, Caa));
  const compE = ne.addObject(new DenseTestCompliance(Xe, Cbb));
  const sys = MechanicalSystem.compile(root);
  sys.propagatePositionsAndVelocities();
  // Shift matrices of the masters (figure 3): J_a0 = [I 0], J_d0 = [0 I].
  const Ja0 = hcat(I(9), Z(9, 4));
  const Jd0 = hcat(Z(4, 9), I(4));
  const [Jba] = mapB.A as [M];
  const [Jcb] = mapC.A as [M];
  const [Jea, Jed] = mapE.A as [M, M];
  return { root, sys, Xa, Xb, Xc, Xd, Xe, Mbb, Mdd, Caa, Cbb, Ja0, Jd0, Jba, Jcb, Jea, Jed, compC, compE };
}

describe('assembly engine: KKT system of figure 1 of the Compliant paper (dense oracle)', () => {
  it('orders masters, mapped and compliant states; compliances on mapped states act as compliances', () => {
    const f = figure1();
    expect(f.sys.masters.map((s) => s.state)).to.deep.equal([f.Xa, f.Xd]);
    expect(f.sys.size).to.equal(13);
    expect(f.sys.compliantStates.map((s) => s.state)).to.deep.equal([f.Xc, f.Xe]);
    expect(f.sys.compliantStates.map((s) => s.offset)).to.deep.equal([0, 3]);
    expect(f.sys.constraintSize).to.equal(7);
    expect(f.compC.actsAsCompliance && f.compE.actsAsCompliance).to.equal(true);
  });

  it('assembles every block as the sums of shifted products of figure 4', () => {
    const f = figure1();
    const factors = { m: 1.3, b: -0.2, k: -0.05 };
    const cFactor = 7.5;
    const kkt = f.sys.assembleKKT(factors, cFactor, 0.01);
    // H = J_a0ᵀ J_baᵀ M_bb J_ba J_a0 + J_d0ᵀ M_dd J_d0 (the compliances give no K)
    const H = scale(factors.m, add(mul(tr(f.Ja0), tr(f.Jba), f.Mbb, f.Jba, f.Ja0), mul(tr(f.Jd0), f.Mdd, f.Jd0)));
    expectClose(csrToDense(kkt.H), H);
    // J = [J_cb J_ba J_a0 ; J_ea J_a0 + J_ed J_d0] (the rows J_α0, J_β0 of the compliant states)
    const J = [...mul(f.Jcb, f.Jba, f.Ja0), ...add(mul(f.Jea, f.Ja0), mul(f.Jed, f.Jd0))];
    expectClose(csrToDense(kkt.J), J);
    expectClose(csrToDense(kkt.JP), J);
    // C = J_α0ᵀ C_αα J_α0 + J_β0ᵀ C_ββ J_β0 in constraint space: blockdiag(C_αα, C_ββ), times the factor
    expectClose(csrToDense(kkt.C), scale(cFactor, blockdiag(f.Caa, f.Cbb)));
    expectClose(csrToDense(kkt.P), I(13));
    expect(kkt.isPIdentity).to.equal(true);
    expect([kkt.m, kkt.n]).to.deep.equal([13, 7]);
    // φ = positions of the compliant states, themselves the mapped positions
    const xa = Array.from(f.Xa.x),
      xd = Array.from(f.Xd.x);
    const phi = [
      ...(math.multiply(mul(f.Jcb, f.Jba), xa) as number[]),
      ...(math.add(math.multiply(f.Jea, xa), math.multiply(f.Jed, xd)) as number[]),
    ];
    expect(
      Array.from(kkt.phi)
        .map((v, i) => v - phi[i])
        .every((d) => Math.abs(d) < 1e-12),
    ).to.equal(true);
  });

  it('refills the same patterns at the next step with new factors', () => {
    const f = figure1();
    const k1 = f.sys.assembleKKT({ m: 1, b: 0, k: 0 }, 1, 0.01);
    const version = k1.patternVersion;
    const H1 = k1.H,
      C1 = k1.C;
    const k2 = f.sys.assembleKKT({ m: 2, b: 0, k: 0 }, 3, 0.01);
    expect(k2.patternVersion).to.equal(version);
    expect(k2.H).to.equal(H1);
    expect(k2.C).to.equal(C1);
    expectClose(csrToDense(k2.C), scale(3, blockdiag(f.Caa, f.Cbb)));
  });

  it('projects: H ← P H P + (I − P) and J·P with the projected columns cleared', () => {
    const f = figure1();
    const fixed = [0, 4, 8];
    f.root.children.find((n) => n.getName() === 'a')!.addObject(new FixedDofs(f.Xa, fixed));
    const sys = MechanicalSystem.compile(f.root);
    sys.propagatePositionsAndVelocities();
    const kkt = sys.assembleKKT({ m: 1, b: 0, k: 0 }, 1, 0.01);
    const P = I(13).map((row, i) => (fixed.includes(i) ? row.map(() => 0) : row));
    const Hfree = add(mul(tr(f.Ja0), tr(f.Jba), f.Mbb, f.Jba, f.Ja0), mul(tr(f.Jd0), f.Mdd, f.Jd0));
    const H = add(mul(P, Hfree, P), add(I(13), scale(-1, P)));
    const J = [...mul(f.Jcb, f.Jba, f.Ja0), ...add(mul(f.Jea, f.Ja0), mul(f.Jed, f.Jd0))];
    expectClose(csrToDense(kkt.H), H);
    expectClose(csrToDense(kkt.J), J);
    expectClose(csrToDense(kkt.JP), mul(J, P));
    expectClose(csrToDense(kkt.P), P);
    expect(kkt.isPIdentity).to.equal(false);
  });

  it('a compliance on a master state is no constraint row (it acts as a stiffness)', () => {
    const root = new Node('root');
    const s = root.addObject(new TestState(Vec1d, 2, 'x'));
    const c = root.addObject(
      new DenseTestCompliance(s, [
        [1, 0],
        [0, 1],
      ]),
    );
    const sys = MechanicalSystem.compile(root);
    expect(c.actsAsCompliance).to.equal(false);
    expect(sys.constraintSize).to.equal(0);
    const kkt = sys.assembleKKT({ m: 1, b: 0, k: -1 }, 1, 0.01);
    expect([kkt.m, kkt.n, kkt.J.rows, kkt.J.cols, kkt.C.rows]).to.deep.equal([2, 0, 0, 2, 0]);
  });
});
