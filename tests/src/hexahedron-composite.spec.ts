import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { loadScene, loadSceneFromString, type BaseObject, type Node, type SofaScene } from 'sofa-ts';
import { corpusRoot } from './corpus-test-support.js';

/**
 * HexahedronCompositeFEMForceFieldAndMass and HexahedronCompositeFEMMapping against closed forms:
 * - a filled coarse cell: the homogenized stiffness is the classical element's (HexahedronFEMForceField
 *   on the coarse cell): by the mirror symmetries of a filled box the masked, normalised weights are
 *   the trilinear ones, and the trilinear field of the coarse cell is one of the fine cells';
 * - with finestToCoarse (one condensation of the finest cells, no rigid void) on one level, the same;
 * - a cell filled in its lower half (mirror symmetric in x and y): a homogeneous strain in the
 *   (x, y) plane stores the energy of that strain in the filled half, ½·V/2·(λ(a + b)² + 2μ(a² + b² + 2c²)),
 *   since the weights reproduce fields linear in x and y exactly; translations and rotations about
 *   z are null modes of K, and a finite rigid motion gives no force;
 * - the mapping reproduces affine motions of a filled grid (patch test) and rigid motions of the
 *   half-filled one exactly, and its J is the derivative of its apply (rotations held).
 */

const E = 1000,
  NU = 0.3;
const lambda = (E * NU) / ((1 + NU) * (1 - 2 * NU)),
  mu = E / (2 * (1 + NU));

/** A closed box surface as position and quads Data (outward quads). */
function box(lo: number[], hi: number[]): string {
  const pos: number[] = [];
  for (let k = 0; k < 8; k++) pos.push(k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]);
  const quads = [
    [0, 2, 3, 1],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 4, 6, 2],
    [1, 3, 7, 5],
  ].flat();
  return `position="${pos.join(' ')}" quads="${quads.join(' ')}"`;
}

interface ForceFieldView {
  elementStiffness(out: Float64Array, e: number): Float64Array;
  addForce(f: Float64Array[], x: Float64Array[], v: Float64Array[]): void;
  massPart?: { elementMatrices: Float64Array };
}
interface StateView {
  x: Float64Array;
  v: Float64Array;
  size: number;
}
interface MappingView {
  apply(): void;
  applyJ(out: Float64Array, ins: readonly Float64Array[]): void;
}

function named<T>(root: Node, name: string): T {
  let found: BaseObject | undefined;
  root.visit((n) => {
    found ??= n.objects.find((o) => o.getName() === name);
    return found === undefined;
  });
  if (!found) throw new Error(`no object '${name}'`);
  return found as unknown as T;
}

/** One sparse grid over [0, max] with n points per axis, the composite FEM (levels) or the classical one (0). */
async function body(levels: number, surface: string, max = [1, 1, 1], n = '2 2 2', mapped = '', ffExtra = ''): Promise<SofaScene> {
  const grid =
    levels > 0
      ? `<SparseGridRamificationTopology name="grid" n="${n}" min="0 0 0" max="${max.join(' ')}" nbVirtualFinerLevels="${levels}" finestConnectivity="0" fillWeighted="0" ${surface}/>`
      : `<SparseGridTopology name="grid" n="${n}" min="0 0 0" max="${max.join(' ')}" fillWeighted="0" ${surface}/>`;
  const ff =
    levels > 0
      ? `<HexahedronCompositeFEMForceFieldAndMass name="ff" nbVirtualFinerLevels="${levels}" youngModulus="${E}" poissonRatio="${NU}" density="2" method="large" ${ffExtra}/>`
      : `<HexahedronFEMForceFieldAndMass name="ff" youngModulus="${E}" poissonRatio="${NU}" density="2" method="large"/>`;
  return loadSceneFromString(`<Node name="root" gravity="0 0 0">
    <DefaultAnimationLoop/>
    <Node name="body">${grid}<MechanicalObject name="dofs"/>${ff}${mapped}</Node>
  </Node>`);
}

/** Element 0's −K (elementStiffness is ∂f/∂x) and its corners' positions, in K's order. */
function element(scene: SofaScene): { K: Float64Array; X: Float64Array } {
  const K = named<ForceFieldView>(scene.root, 'ff').elementStiffness(new Float64Array(576), 0);
  for (let i = 0; i < 576; i++) K[i] = -K[i];
  const p = named<StateView>(scene.root, 'dofs').x;
  const H = named<{ getHexahedra(): Uint32Array }>(scene.root, 'grid').getHexahedra();
  const X = new Float64Array(24);
  for (let v = 0; v < 8; v++) for (let c = 0; c < 3; c++) X[3 * v + c] = p[3 * H[v] + c];
  return { K, X };
}

const energy = (K: Float64Array, u: Float64Array) => {
  let e = 0;
  for (let i = 0; i < 24; i++) for (let j = 0; j < 24; j++) e += u[i] * K[24 * i + j] * u[j];
  return e / 2;
};
const field = (X: Float64Array, f: (x: number, y: number, z: number) => number[]) => {
  const u = new Float64Array(24);
  for (let v = 0; v < 8; v++) u.set(f(X[3 * v], X[3 * v + 1], X[3 * v + 2]), 3 * v);
  return u;
};
const Ku = (K: Float64Array, u: Float64Array) =>
  Float64Array.from({ length: 24 }, (_, i) => u.reduce((s, uj, j) => s + K[24 * i + j] * uj, 0));
const maxAbs = (a: ArrayLike<number>) => Array.from(a).reduce((m, v) => Math.max(m, Math.abs(v)), 0);

/** The rotation exp([w]×) (Rodrigues), row-major. */
function rotation(w: number[]): number[] {
  const t = Math.hypot(...w),
    k = w.map((c) => c / t);
  const c = Math.cos(t),
    s = Math.sin(t),
    C = 1 - c;
  const [x, y, z] = k;
  return [
    c + x * x * C,
    x * y * C - z * s,
    x * z * C + y * s,
    y * x * C + z * s,
    c + y * y * C,
    y * z * C - x * s,
    z * x * C - y * s,
    z * y * C + x * s,
    c + z * z * C,
  ];
}
const mul = (A: number[], p: ArrayLike<number>, o: number) =>
  [0, 1, 2].map((r) => A[3 * r] * p[o] + A[3 * r + 1] * p[o + 1] + A[3 * r + 2] * p[o + 2]);

describe('HexahedronCompositeFEMForceFieldAndMass (homogenization of the finer levels)', () => {
  for (const [label, max] of [
    ['the unit cube', [1, 1, 1]],
    ['a 2 × 1 × 0.5 box', [2, 1, 0.5]],
  ] as const) {
    it(`a filled cell of ${label}: K is HexahedronFEMForceField's on the coarse cell (to 1e-10), the mass keeps ρV`, async () => {
      const surface = box(
        max.map((m) => 0.05 * m),
        max.map((m) => 0.95 * m),
      );
      const composite = await body(2, surface, [...max]);
      const classical = await body(0, surface, [...max]);
      const a = element(composite),
        b = element(classical);
      const scale = maxAbs(b.K);
      for (let k = 0; k < 576; k++) expect(a.K[k]).to.be.closeTo(b.K[k], 1e-10 * scale);
      // Σ of one axis of M: the fine cells' 512/27·ρ·V_f each, ρV·512/27 in all
      const M = named<ForceFieldView>(composite.root, 'ff').massPart!.elementMatrices;
      let total = 0;
      for (let i = 0; i < 24; i += 3) for (let j = 0; j < 24; j += 3) total += M[24 * i + j];
      expect(total).to.be.closeTo(((2 * 512) / 27) * max[0] * max[1] * max[2], 1e-10);
    });
  }

  it('a half-filled cell: a strain in the (x, y) plane stores the energy of the filled half (closed form)', async () => {
    const { K, X } = element(await body(2, box([0.05, 0.05, 0.05], [0.95, 0.95, 0.4])));
    const [a, b, c] = [1e-3, -4e-4, 7e-4];
    const u = field(X, (x, y) => [a * x + c * y, b * y + c * x, 0]);
    const w = 0.5 * lambda * (a + b) ** 2 + mu * (a * a + b * b + 2 * c * c);
    expect(energy(K, u)).to.be.closeTo(w * 0.5, 1e-12 * w);
    // and not the filled cell's: the void holds nothing
    const full = element(await body(2, box([0.05, 0.05, 0.05], [0.95, 0.95, 0.95])));
    expect(energy(full.K, u)).to.be.closeTo(w, 1e-12 * w);
  });

  it('rigid modes: translations and rotations about z are null modes of K, a finite rigid motion gives no force', async () => {
    const scene = await body(2, box([0.05, 0.05, 0.05], [0.95, 0.95, 0.4]));
    const { K, X } = element(scene);
    const scale = maxAbs(K);
    for (const u of [field(X, () => [1, 0, 0]), field(X, () => [0, 1, 0]), field(X, () => [0, 0, 1]), field(X, (x, y) => [-y, x, 0])])
      expect(maxAbs(Ku(K, u))).to.be.below(1e-12 * scale);
    // a finite rotation and translation of the rest shape: the corotational force is zero
    const dofs = named<StateView>(scene.root, 'dofs');
    const Q = rotation([0.3, -0.5, 0.8]);
    const x = new Float64Array(dofs.x.length);
    for (let i = 0; i < dofs.size; i++)
      x.set(
        mul(Q, dofs.x, 3 * i).map((v, d) => v + [0.2, -1, 3][d]),
        3 * i,
      );
    const f = new Float64Array(x.length);
    named<ForceFieldView>(scene.root, 'ff').addForce([f], [x], [new Float64Array(x.length)]);
    expect(maxAbs(f)).to.be.below(1e-12 * scale);
  });

  it('finestToCoarse (one condensation of the finest cells, no void): the closed forms on one level, translations free on two', async () => {
    const full = box([0.05, 0.05, 0.05], [0.95, 0.95, 0.95]),
      lower = box([0.05, 0.05, 0.05], [0.95, 0.95, 0.4]);
    const direct = (levels: number, surface: string) => body(levels, surface, [1, 1, 1], '2 2 2', '', 'finestToCoarse="1"');
    const a = element(await direct(1, full)),
      b = element(await body(0, full));
    const scale = maxAbs(b.K);
    for (let k = 0; k < 576; k++) expect(a.K[k]).to.be.closeTo(b.K[k], 1e-10 * scale);
    // the lower half: its top corners hold no fine point, the middle layer follows the bottom one
    const half = element(await direct(1, lower));
    const [ea, eb, ec] = [-6e-4, 9e-4, 2e-4];
    const u = field(half.X, (x, y) => [ea * x + ec * y, eb * y + ec * x, 0]);
    const w = 0.5 * lambda * (ea + eb) ** 2 + mu * (ea * ea + eb * eb + 2 * ec * ec);
    expect(energy(half.K, u)).to.be.closeTo(w * 0.5, 1e-12 * w);
    // two levels: the quarter points' weights are no longer fixed by symmetry, translations still cost nothing
    const two = element(await direct(2, lower));
    for (const t of [field(two.X, () => [1, 0, 0]), field(two.X, () => [0, 1, 0]), field(two.X, () => [0, 0, 1])])
      expect(maxAbs(Ku(two.K, t))).to.be.below(1e-12 * maxAbs(two.K));
  });

  it('a plain SparseGridTopology: the non-uniform condensation, with a located warning', async () => {
    const scene = await loadSceneFromString(`<Node name="root" gravity="0 0 0">
      <DefaultAnimationLoop/>
      <SparseGridTopology n="2 2 2" min="0 0 0" max="1 1 1" nbVirtualFinerLevels="1" ${box([0.05, 0.05, 0.05], [0.95, 0.95, 0.95])}/>
      <MechanicalObject/>
      <HexahedronCompositeFEMForceFieldAndMass nbVirtualFinerLevels="1"/>
    </Node>`);
    expect(scene.warnings.map(String).join('\n')).to.match(
      /HexahedronCompositeFEMForceFieldAndMass.*the topology is not a SparseGridRamificationTopology/,
    );
  });
});

describe('HexahedronCompositeFEMMapping (points moved with the homogenization weights)', () => {
  const points = '0.13 0.27 0.31  0.5 0.5 0.2  0.91 0.08 0.77  1.4 1.1 0.6  0.35 1.7 1.2  1.93 1.95 1.9';
  const mapped = `<Node name="m"><MechanicalObject name="pts" position="${points}"/><HexahedronCompositeFEMMapping name="map"/></Node>`;
  const p0 = points.trim().split(/\s+/).map(Number);

  /** Moves the coarse points to x, updates the force field's rotations (its addForce) and maps. */
  function moveTo(scene: SofaScene, x: Float64Array): Float64Array {
    const dofs = named<StateView>(scene.root, 'dofs');
    dofs.x.set(x);
    named<ForceFieldView>(scene.root, 'ff').addForce([new Float64Array(x.length)], [dofs.x], [new Float64Array(x.length)]);
    named<MappingView>(scene.root, 'map').apply();
    return Float64Array.from(named<StateView>(scene.root, 'pts').x);
  }

  it('patch test: an affine motion of a filled grid moves the points affinely (to 1e-12)', async () => {
    const scene = await body(2, box([0.05, 0.05, 0.05], [1.95, 1.95, 1.95]), [2, 2, 2], '3 3 3', mapped);
    const X = Float64Array.from(named<StateView>(scene.root, 'dofs').x);
    // A = a rotation times a stretch and shear, and a translation
    const Q = rotation([0.2, 0.4, -0.3]);
    const S = [1.1, 0.05, -0.02, 0, 0.95, 0.04, 0.03, 0, 1.02];
    const A = [0, 1, 2].flatMap((r) => [0, 1, 2].map((c) => Q[3 * r] * S[c] + Q[3 * r + 1] * S[3 + c] + Q[3 * r + 2] * S[6 + c]));
    const t = [0.3, -0.2, 0.5];
    const affine = (p: ArrayLike<number>) => {
      const out = new Float64Array(p.length);
      for (let i = 0; i < p.length; i += 3)
        out.set(
          mul(A, p, i).map((v, d) => v + t[d]),
          i,
        );
      return out;
    };
    const y = moveTo(scene, affine(X));
    const expected = affine(p0);
    for (let k = 0; k < y.length; k++) expect(y[k]).to.be.closeTo(expected[k], 1e-12);
  });

  it('a half-filled grid: a rigid motion moves the points rigidly, and J is the derivative of apply', async () => {
    const half = box([0.05, 0.05, 0.05], [1.95, 1.95, 0.9]);
    const scene = await body(
      2,
      half,
      [2, 2, 2],
      '3 3 3',
      mapped.replace(points, '0.13 0.27 0.31  0.5 0.5 0.2  0.91 0.08 0.77  1.4 1.1 0.6  1.8 0.2 0.85'),
    );
    const X = Float64Array.from(named<StateView>(scene.root, 'dofs').x);
    const rest = Float64Array.from(named<StateView>(scene.root, 'pts').x);
    const Q = rotation([-0.6, 0.25, 0.4]),
      t = [1, 2, -0.5];
    const rigid = (p: ArrayLike<number>) => {
      const out = new Float64Array(p.length);
      for (let i = 0; i < p.length; i += 3)
        out.set(
          mul(Q, p, i).map((v, d) => v + t[d]),
          i,
        );
      return out;
    };
    const y = moveTo(scene, rigid(X));
    const expected = rigid(rest);
    for (let k = 0; k < y.length; k++) expect(y[k]).to.be.closeTo(expected[k], 1e-12);
    // J at a deformed state (rotations of that state held) against central differences of apply
    const x = rigid(X).map((v, i) => v + 0.05 * Math.sin(7 * i + 1));
    moveTo(scene, x);
    const dofs = named<StateView>(scene.root, 'dofs'),
      map = named<MappingView>(scene.root, 'map');
    const dir = Float64Array.from(x, (_, i) => Math.cos(3 * i));
    const h = 1e-6;
    const at = (s: number) => {
      dofs.x.set(x.map((v, i) => v + s * dir[i]));
      map.apply();
      return Float64Array.from(named<StateView>(scene.root, 'pts').x);
    };
    const yp = at(h),
      ym = at(-h);
    const Jv = new Float64Array(yp.length);
    map.applyJ(Jv, [dir]);
    for (let k = 0; k < Jv.length; k++) expect(Jv[k]).to.be.closeTo((yp[k] - ym[k]) / (2 * h), 1e-7 * Math.max(1, maxAbs(Jv)));
  });
});

const fem = path.join(corpusRoot, 'sofa', 'examples', 'Component', 'SolidMechanics', 'FEM');
const seedScene = path.join(fem, 'HexahedronCompositeFEMMapping.scn');

describe('HexahedronCompositeFEMMapping.scn (SOFA example)', () => {
  it('the stiff seed keeps its shape with the composite weights, and deforms with the grape under a BarycentricMapping', async function () {
    if (!fs.existsSync(seedScene)) this.skip();
    this.timeout(120000);
    const scene = await loadScene(seedScene);
    // the scene's two bodies: composite weights (HexahedronCompositeFEMMapping), trilinear ones (BarycentricMapping)
    const bodies = scene.root.children.map((node) => {
      const seed = named<{ findData(n: string): { value: Float64Array } }>(node, 'VisualBody');
      const grape = node.children.find((c) => c.getName() === 'Collinonunif')!.objects.find((o) => o.className === 'MechanicalObject')!;
      return {
        name: node.getName(),
        seed: () => Float64Array.from(seed.findData('position').value),
        grape: () => Float64Array.from((grape as unknown as StateView).x),
      };
    });
    expect(bodies.map((b) => b.name)).to.deep.equal(['HexahedronCompositeFEMMapping', 'BarycentricMapping']);
    const before = bodies.map((b) => ({ seed: b.seed(), grape: b.grape() }));
    for (let s = 0; s < 40; s++) await scene.step();
    /** The largest change of the distances from point 0 to the others, relative to the object's size. */
    const strain = (a: Float64Array, b: Float64Array) => {
      let dd = 0,
        size = 0;
      for (let i = 3; i < a.length; i += 3) {
        const d0 = Math.hypot(a[i] - a[0], a[i + 1] - a[1], a[i + 2] - a[2]);
        const d1 = Math.hypot(b[i] - b[0], b[i + 1] - b[1], b[i + 2] - b[2]);
        dd = Math.max(dd, Math.abs(d1 - d0));
        size = Math.max(size, d0);
      }
      return dd / size;
    };
    const ratios = bodies.map((b, k) => {
      const grape = strain(before[k].grape, b.grape());
      expect(grape, `${b.name}: the grape deforms`).to.be.above(1e-6);
      return strain(before[k].seed, b.seed()) / grape;
    });
    // the seed's strain relative to the grape's: small with the composite weights, of the grape's order with trilinear ones
    expect(ratios[0]).to.be.below(0.1 * ratios[1]);
  });
});
