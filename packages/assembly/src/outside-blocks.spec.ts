import { expect } from 'chai';
import { all, create } from 'mathjs';
import { BaseForceField, Node, Vec2d, Vec3d, type BaseMechanicalState, type OutsideStateAccumulator } from '@sofa-ts/core';
import { csrToDense } from '@sofa-ts/linalg';
import { MechanicalSystem } from './mechanical-system.js';
import { DenseTestMass, FixedDofs, LinearTestMapping, TestState, randomSpd, rng } from './test-support.js';

const math = create(all);
type M = number[][];

/** A force field on one state with fixed dense blocks K_oi, K_io against a state outside the system (nOut dofs). */
class OutsideBlocksFF extends BaseForceField {
  constructor(
    readonly state: BaseMechanicalState,
    readonly Koi: M,
    readonly Kio: M,
  ) {
    super();
  }
  getMechanicalStates(): readonly BaseMechanicalState[] {
    return [this.state];
  }
  addForce(): void {}
  addDForce(): void {}
  addKToMatrix(): void {}
  override addOutsideStateKToMatrix(acc: OutsideStateAccumulator, kFactor: number): void {
    this.Koi.forEach((row, o) => row.forEach((v, d) => acc.addOutsideRow(o, 0, d, kFactor * v)));
    this.Kio.forEach((row, d) => row.forEach((v, o) => acc.addOutsideCol(0, d, o, kFactor * v)));
  }
}

const randomDense = (r: () => number, m: number, n: number): M => Array.from({ length: m }, () => Array.from({ length: n }, () => r()));

/**
 * Masters Xd (Vec2, 2 points: dofs 0..3) and Xa (Vec3, 3 points: dofs 4..12); Xb (Vec3, 2 points)
 * mapped from Xa by a fixed J; a mass on each master; a force field on Xb with blocks against a
 * state outside the system, of nOut dofs.
 */
function scene(nOut: number, seed = 5) {
  const r = rng(seed);
  const root = new Node('root');
  const nd = root.createChild('d');
  const na = root.createChild('a');
  const nb = na.createChild('b');
  const Xd = nd.addObject(new TestState(Vec2d, 2, 'Xd'));
  const Xa = na.addObject(new TestState(Vec3d, 3, 'Xa'));
  const Xb = nb.addObject(new TestState(Vec3d, 2, 'Xb'));
  const map = nb.addObject(LinearTestMapping.random([Xa], Xb, seed + 1));
  const Md = randomSpd(4, seed + 2);
  const Ma = randomSpd(9, seed + 3);
  nd.addObject(new DenseTestMass(Xd, Md));
  na.addObject(new DenseTestMass(Xa, Ma));
  const Koi = randomDense(r, nOut, 6);
  const Kio = randomDense(r, 6, nOut);
  nb.addObject(new OutsideBlocksFF(Xb, Koi, Kio));
  return { root, Xa, Md, Ma, J: map.A[0], Koi, Kio };
}

describe('MechanicalSystem: blocks of a force field with a state outside the system (SOFA MatrixLinearSystem)', () => {
  it("K_oi·J lands on the rows top + o of the inside state's top-most master, Jᵀ·K_io on its columns; K_oo nowhere", () => {
    const s = scene(3);
    const sys = MechanicalSystem.compile(s.root);
    const f = { m: 2, b: 0, k: -0.5 };
    const A = csrToDense(sys.assembleMBK(f, { outsideBlocks: true }));
    // without the option (every solver but BTDLinearSolver): the masses only
    const A0 = csrToDense(sys.assembleMBK(f));
    expect(A0[4][4]).to.be.closeTo(f.m * s.Ma[0][0], 1e-12);
    // expected: the masses, then the outside blocks with Xa's offset (4) as their origin
    const E: M = Array.from({ length: 13 }, () => new Array<number>(13).fill(0));
    s.Md.forEach((row, i) => row.forEach((v, j) => (E[i][j] += f.m * v)));
    s.Ma.forEach((row, i) => row.forEach((v, j) => (E[4 + i][4 + j] += f.m * v)));
    const KJ = math.multiply(s.Koi, s.J) as M; // nOut × 9
    const JK = math.multiply(math.transpose(s.J), s.Kio) as M; // 9 × nOut
    KJ.forEach((row, o) => row.forEach((v, j) => (E[4 + o][4 + j] += f.k * v)));
    JK.forEach((row, i) => row.forEach((v, o) => (E[4 + i][4 + o] += f.k * v)));
    for (let i = 0; i < 13; i++)
      for (let j = 0; j < 13; j++) expect(A[i][j], `(${i}, ${j})`).to.be.closeTo(E[i][j], 1e-12 * (1 + Math.abs(E[i][j])));
  });

  it('an outside dof past the matrix is left out (said once); the unprojected assembly keeps projected rows for the caller', () => {
    const s = scene(12);
    const sys = MechanicalSystem.compile(s.root);
    const warnings: string[] = [];
    const ff = s.root.children[1].children[0].objects.find((o) => o instanceof OutsideBlocksFF) as OutsideBlocksFF;
    ff.warn = ((m: string) => {
      warnings.push(m);
    }) as unknown as typeof ff.warn;
    const A = csrToDense(sys.assembleMBK({ m: 1, b: 0, k: 1 }, { outsideBlocks: true }));
    expect(A.length).to.equal(13);
    expect(warnings.length).to.equal(1);
    expect(warnings[0]).to.match(/past the 13 rows/);
    // rows 4 + o for o ≥ 9 do not exist: the entries of K_oi rows 0..8 are there
    const KJ = math.multiply(s.Koi, s.J) as M;
    expect(A[4 + 8][4]).to.be.closeTo(s.Ma[8][0] + KJ[8][0] + (math.multiply(math.transpose(s.J), s.Kio) as M)[8][0], 1e-12);
    // a projection: assembleMBK projects, the unprojected call leaves the rows to the caller and lists them
    s.Xa.context.addObject(new FixedDofs(s.Xa, [0, 1]));
    const sys2 = MechanicalSystem.compile(s.root);
    const P = csrToDense(sys2.assembleMBK({ m: 1, b: 0, k: 1 }));
    expect(P[4][5]).to.equal(0);
    const U = csrToDense(sys2.assembleMBK({ m: 1, b: 0, k: 1 }, { project: false }));
    expect(U[4][5]).to.not.equal(0);
    expect(Array.from(sys2.projectedDofList())).to.deep.equal([4, 5]);
  });
});
