import { expect } from 'chai';
import { all, create, type Matrix } from 'mathjs';
import { BaseAnimationLoop, Node, Simulation, SofaError } from '@sofa-ts/core';
import { MechanicalObject } from '../../MechanicalObject.js';
import { stiffnessAndFiniteDifferences } from '../../load/fd-check-test-support.js';
import { gridPoints, gridTetrahedra, rng, StubTopology } from '../../mass/mesh-test-support.js';
import { TetrahedronDiffusionFEMForceField } from './TetrahedronDiffusionFEMForceField.js';

const math = create(all);

class IdleLoop extends BaseAnimationLoop {
  step(): void {}
}

interface Setup {
  D?: number;
  tetraD?: number[];
  ratio?: number;
  dirs?: number[];
  template?: 'Vec1d' | 'Vec2d' | 'Vec3d';
  tag?: string;
}

/** A 2 × 3 × 2-cell box (irregular spacing), its tetrahedra, a Vec3d geometry tagged 'meca' and a child node with the diffusing state. */
function build(setup: Setup = {}): { ff: TetrahedronDiffusionFEMForceField; pts: Float64Array; tets: number[]; state: MechanicalObject } {
  const base = gridPoints(3, 4, 3, 1, 1.5, 0.8);
  const jitter = rng(7);
  const pts = Float64Array.from(base, (c) => c + 0.05 * jitter());
  const tets = gridTetrahedra(3, 4, 3);
  const n = pts.length / 3;
  const root = new Node('root');
  root.addObject(new IdleLoop());
  const geo = new MechanicalObject();
  geo.template = 'Vec3d';
  geo.position.value = pts;
  geo.tags.value = [setup.tag ?? 'meca'];
  root.addObject(geo);
  root.addObject(new StubTopology(n, { tetrahedra: tets }));
  const child = root.createChild('Temperature');
  const template = setup.template ?? 'Vec1d';
  const d = template === 'Vec1d' ? 1 : template === 'Vec2d' ? 2 : 3;
  const state = new MechanicalObject();
  state.template = template;
  state.position.value = new Float64Array(d * n);
  child.addObject(state);
  const ff = new TetrahedronDiffusionFEMForceField();
  ff.template = template;
  if (setup.D !== undefined) ff.constantDiffusionCoefficient.value = setup.D;
  if (setup.tetraD) ff.tetraDiffusionCoefficient.value = Float64Array.from(setup.tetraD);
  if (setup.ratio !== undefined) ff.anisotropyRatio.value = setup.ratio;
  if (setup.dirs) ff.transverseAnisotropyArray.value = Float64Array.from(setup.dirs);
  child.addObject(ff);
  new Simulation(root).init();
  return { ff, pts, tets, state };
}

/**
 * The oracle: L = Σ_e D_e·V_e·Gᵀ·A_e·G with G (3 × 4) the gradients of the barycentric coordinates,
 * read from the inverse of the 4 × 4 matrix [1 x y z] of the vertices (mathjs), A = I + (r − 1)·a·aᵀ.
 */
function oracleLaplacian(pts: Float64Array, tets: number[], D: number[], ratio: number, dirs: number[]): number[][] {
  const n = pts.length / 3;
  const L = math.zeros(n, n) as Matrix;
  for (let e = 0; e < tets.length / 4; e++) {
    const v = tets.slice(4 * e, 4 * e + 4);
    const P = v.map((i) => [1, pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]]);
    const V = Math.abs(math.det(P)) / 6;
    const inv = math.inv(P) as number[][];
    const G = [inv[1], inv[2], inv[3]]; // row c: ∂N_k/∂x_c for k = 0..3
    const a = [dirs[3 * e] ?? 0, dirs[3 * e + 1] ?? 0, dirs[3 * e + 2] ?? 0];
    const A = math.add(math.identity(3), math.multiply(ratio - 1, math.multiply(math.transpose([a]), [a]))) as Matrix;
    const Ke = math.multiply(D[e] * V, math.multiply(math.transpose(G), math.multiply(A, G))) as Matrix;
    for (let k = 0; k < 4; k++) for (let l = 0; l < 4; l++) L.set([v[k], v[l]], L.get([v[k], v[l]]) + (Ke.get([k, l]) as number));
  }
  return L.toArray() as number[][];
}

function maxAbsDiff(A: number[][], B: number[][]): number {
  let m = 0;
  for (let i = 0; i < A.length; i++) for (let j = 0; j < A.length; j++) m = Math.max(m, Math.abs(A[i][j] - B[i][j]));
  return m;
}

function maxAbs(A: number[][]): number {
  return Math.max(...A.map((r) => Math.max(...r.map(Math.abs))));
}

/** Dense K from addDForce applied to the unit vectors (kFactor 1). */
function kFromDForce(ff: TetrahedronDiffusionFEMForceField, size: number): number[][] {
  const K = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  for (let j = 0; j < size; j++) {
    const dx = new Float64Array(size),
      df = new Float64Array(size);
    dx[j] = 1;
    ff.addDForce([df], [dx], 1, 0);
    for (let i = 0; i < size; i++) K[i][j] = df[i];
  }
  return K;
}

describe('TetrahedronDiffusionFEMForceField', () => {
  const nTets = gridTetrahedra(3, 4, 3).length / 4;
  const perTet = Array.from({ length: nTets }, (_, e) => 0.5 + (e % 5) * 0.3);
  const unitDirs = Array.from({ length: nTets }, (_, e) => {
    const v = [Math.cos(e), Math.sin(e), 0.5 * Math.cos(3 * e)];
    const s = Math.hypot(...v);
    return v.map((c) => c / s);
  }).flat();

  for (const [name, setup, ratio, D, dirs] of [
    ['isotropic, constant D', { D: 2.5 }, 1, new Array<number>(nTets).fill(2.5), []],
    ['per-tetrahedron D', { tetraD: perTet }, 1, perTet, []],
    ['transversely anisotropic (r = 4, a direction per tetrahedron)', { tetraD: perTet, ratio: 4, dirs: unitDirs }, 4, perTet, unitDirs],
    [
      'anisotropic with directions as given (not unit: SOFA does not normalise)',
      { D: 1.3, ratio: 0.25, dirs: unitDirs.map((c) => 1.7 * c) },
      0.25,
      new Array<number>(nTets).fill(1.3),
      unitDirs.map((c) => 1.7 * c),
    ],
  ] as Array<[string, Setup, number, number[], number[]]>) {
    it(`${name}: K = −L of the mathjs oracle Σ D·V·Gᵀ·A·G, = the central finite differences of addForce, = addDForce's`, () => {
      const { ff, pts, tets, state } = build(setup);
      const n = state.size;
      const L = oracleLaplacian(pts, tets, D, ratio, dirs);
      const x = Float64Array.from({ length: n }, (_, i) => Math.sin(1.3 * i) + 0.1 * i);
      const { K, FD } = stiffnessAndFiniteDifferences(ff, x, new Float64Array(n), 1e-4);
      const scale = maxAbs(L);
      expect(
        maxAbsDiff(
          K,
          L.map((r) => r.map((v) => -v)),
        ),
      ).to.be.below(1e-12 * scale);
      expect(maxAbsDiff(K, FD)).to.be.below(1e-9 * scale);
      expect(maxAbsDiff(K, kFromDForce(ff, n))).to.be.below(1e-13 * scale);
      // the force is f = −L·x, and the energy ½·xᵀ·L·x
      const f = new Float64Array(n);
      ff.addForce([f], [x], [new Float64Array(n)]);
      const Lx = math.multiply(L, Array.from(x)) as number[];
      for (let i = 0; i < n; i++) expect(f[i]).to.be.closeTo(-Lx[i], 1e-12 * scale * n);
      expect(ff.getPotentialEnergy([x])).to.be.closeTo(0.5 * (math.dot(Array.from(x), Lx) as number), 1e-10 * scale * n);
    });
  }

  it('K is symmetric negative semi-definite with the constants as its null space (isotropic and anisotropic)', () => {
    for (const setup of [{ tetraD: perTet }, { tetraD: perTet, ratio: 3, dirs: unitDirs }]) {
      const { ff, state } = build(setup);
      const n = state.size;
      const K = kFromDForce(ff, n);
      expect(maxAbsDiff(K, math.transpose(K))).to.equal(0);
      const ev = (math.eigs(K).values as number[]).slice().sort((a, b) => b - a);
      expect(Math.abs(ev[0])).to.be.below(1e-10 * Math.abs(ev[n - 1]));
      expect(ev[1]).to.be.below(0);
      const f = new Float64Array(n);
      ff.addForce([f], [new Float64Array(n).fill(3.7)], [new Float64Array(n)]);
      for (const v of f) expect(Math.abs(v)).to.be.below(1e-12);
    }
  });

  it('Vec3d: each component diffuses with the same operator (K = L ⊗ I₃), and tetraDiffusionCoefficient is filled from the constant', () => {
    const one = build({ D: 1.5 });
    const three = build({ D: 1.5, template: 'Vec3d' });
    const n = one.state.size;
    const K1 = kFromDForce(one.ff, n),
      K3 = kFromDForce(three.ff, 3 * n);
    for (let i = 0; i < 3 * n; i++)
      for (let j = 0; j < 3 * n; j++) expect(K3[i][j]).to.equal(i % 3 === j % 3 ? K1[Math.floor(i / 3)][Math.floor(j / 3)] : 0);
    expect(Array.from(one.ff.tetraDiffusionCoefficient.value)).to.deep.equal(new Array<number>(nTets).fill(1.5));
  });

  it('errors, located, on a missing tagged geometry, a mis-sized tetraDiffusionCoefficient and anisotropy without directions', () => {
    const message = (setup: Setup): string => {
      try {
        build(setup);
      } catch (e) {
        expect(e).to.be.instanceOf(SofaError);
        return (e as Error).message;
      }
      return '';
    };
    expect(message({ tag: 'other' })).to.contain("no MechanicalObject tagged 'meca'");
    expect(message({ tetraD: [1, 2, 3] })).to.contain(`${nTets} expected, got 3`);
    expect(message({ ratio: 2 })).to.contain('needs one transverseAnisotropyArray direction per tetrahedron');
  });
});
