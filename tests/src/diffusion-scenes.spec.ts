import { expect } from 'chai';
import { erf } from 'mathjs';
import * as path from 'node:path';
import { loadScene, loadSceneFromString, type BaseMechanicalState, type BaseMeshTopology, type SofaScene } from 'sofa-ts';
import { corpusRoot, hasCorpus } from './corpus-test-support.js';

/**
 * TetrahedronDiffusionFEMForceField in scenes, through the XML path users take: the heat equation
 * M·du/dt = −L·u on a tetrahedral bar (RegularGridTopology cut by Hexa2TetraTopologicalMapping, as
 * in SOFA's own test scene), against closed forms: the linear steady profile between two fixed
 * temperatures, the conservation of Σ M·u on an insulated bar, the decay rate D·(π/ℓ)² of the first
 * Fourier mode and its scaling by the anisotropy ratio along the bar, the erfc profile of an end
 * held hot.
 */

const [LX, LY, LZ] = [1, 0.2, 0.2];
const [NX, NY, NZ] = [21, 3, 3];
const NPOINTS = NX * NY * NZ;
const NTETS = 6 * (NX - 1) * (NY - 1) * (NZ - 1);
/** x of grid point i (RegularGridTopology numbers x fastest). */
const xOf = (i: number): number => ((i % NX) / (NX - 1)) * LX;
const xs = Array.from({ length: NPOINTS }, (_, i) => xOf(i));

interface BarOptions {
  u0: number[];
  solver: string;
  fixed?: number[];
  D?: number;
  diffusionExtra?: string;
  lumping?: boolean;
}

function bar(o: BarOptions): string {
  return `<Node name="root" dt="0.01" gravity="0 0 0">
  <DefaultAnimationLoop/>
  <RegularGridTopology name="grid" n="${NX} ${NY} ${NZ}" min="0 0 0" max="${LX} ${LY} ${LZ}"/>
  <MechanicalObject template="Vec3" name="gridDOFs" tags="geom"/>
  <Node name="Tetra">
    <TetrahedronSetTopologyContainer name="Container"/>
    <TetrahedronSetTopologyModifier/>
    <Hexa2TetraTopologicalMapping input="@../grid" output="@Container"/>
    <Node name="Temperature">
      ${o.solver}
      <MechanicalObject template="Vec1" name="T" position="${o.u0.join(' ')}"/>
      <TetrahedronDiffusionFEMForceField name="diffusion" template="Vec1" constantDiffusionCoefficient="${o.D ?? 1}" tagMechanics="geom" topology="@../Container" ${o.diffusionExtra ?? ''}/>
      <MeshMatrixMass template="Vec1" massDensity="1" lumping="${o.lumping ? 1 : 0}" topology="@../Container" geometryState="@../../gridDOFs"/>
      ${o.fixed ? `<FixedProjectiveConstraint indices="${o.fixed.join(' ')}"/>` : ''}
    </Node>
  </Node>
</Node>`;
}

const implicit =
  '<EulerImplicitSolver firstOrder="1" rayleighStiffness="0" rayleighMass="0"/><CGLinearSolver iterations="2000" tolerance="1e-24" threshold="1e-30"/>';

/**
 * The weights m_i with Σ M·u = Σ m_i·u_i: the row sums of the mass, ρ·V/4 per tetrahedron and
 * vertex (consistent or lumped alike), V from the container's tetrahedra and the grid's points.
 */
function heatWeights(scene: SofaScene): Float64Array {
  const tets = scene.get<BaseMeshTopology>('/Tetra/Container')!.getTetrahedra();
  const X = scene.get<BaseMechanicalState>('/gridDOFs')!.x;
  const w = new Float64Array(NPOINTS);
  for (let e = 0; e < tets.length / 4; e++) {
    const p = [0, 1, 2, 3].map((k) => [0, 1, 2].map((c) => X[3 * tets[4 * e + k] + c]));
    const [a, b, c] = [1, 2, 3].map((k) => p[k].map((v, j) => v - p[0][j]));
    const V =
      Math.abs(
        a![0] * (b![1] * c![2] - b![2] * c![1]) - a![1] * (b![0] * c![2] - b![2] * c![0]) + a![2] * (b![0] * c![1] - b![1] * c![0]),
      ) / 6;
    for (let k = 0; k < 4; k++) w[tets[4 * e + k]] += V / 4;
  }
  return w;
}

/** erfc from mathjs's erf (an implementation we did not write). */
const erfc = (x: number): number => 1 - erf(x);

const dot = (w: Float64Array, u: Float64Array): number => w.reduce((s, v, i) => s + v * u[i], 0);

describe('TetrahedronDiffusionFEMForceField in scenes (heat equation on a tetrahedral bar)', function () {
  this.timeout(60000);

  it('fixed temperatures 1 and 0 at the ends: the static solution is the linear profile 1 − x/ℓ (to solver tolerance)', async () => {
    const ends = xs.flatMap((x, i) => (x === 0 || x === LX ? [i] : []));
    const u0 = xs.map((x, i) => (x === 0 ? 1 : x === LX ? 0 : Math.sin(7 * i)));
    const scene = await loadSceneFromString(bar({ u0, fixed: ends, solver: '<StaticSolver/><SparseLDLSolver/>' }));
    scene.step(1);
    const u = scene.get<BaseMechanicalState>('/Tetra/Temperature/T')!.x;
    let err = 0;
    for (let i = 0; i < NPOINTS; i++) err = Math.max(err, Math.abs(u[i] - (1 - xs[i] / LX)));
    expect(err).to.be.below(1e-10);
  });

  it('insulated bar, uniform D: Σ M·u is conserved while u relaxes to its mean (implicit Euler, consistent and lumped mass)', async () => {
    for (const lumping of [false, true]) {
      const u0 = xs.map((x, i) => x * x + 0.3 * Math.sin(5 * i));
      const scene = await loadSceneFromString(bar({ u0, solver: implicit, D: 0.5, lumping }));
      const T = scene.get<BaseMechanicalState>('/Tetra/Temperature/T')!;
      const w = heatWeights(scene);
      expect(w.reduce((a, b) => a + b, 0)).to.be.closeTo(LX * LY * LZ, 1e-12);
      const heat0 = dot(w, T.x),
        mean = heat0 / (LX * LY * LZ);
      let spread = Infinity;
      for (let k = 0; k < 6; k++) {
        scene.step(10);
        expect(Math.abs(dot(w, T.x) - heat0)).to.be.below(1e-10 * Math.abs(heat0));
        const s = Math.max(...Array.from(T.x, (v) => Math.abs(v - mean)));
        expect(s).to.be.below(spread);
        spread = s;
      }
      // after t = 0.6 the slowest mode (rate D·π² ≈ 4.9) has decayed by e^−3
      expect(spread).to.be.below(0.1);
    }
  });

  /** The decay rate λ of u0 = cos(πx/ℓ) measured over n implicit Euler steps: a_n = a_0/(1 + h·λ)ⁿ. */
  async function firstModeRate(extra: string, D: number): Promise<number> {
    const h = 0.002,
      n = 20;
    const phi = xs.map((x) => Math.cos((Math.PI * x) / LX));
    const scene = await loadSceneFromString(bar({ u0: phi, solver: implicit, D, diffusionExtra: extra }));
    const T = scene.get<BaseMechanicalState>('/Tetra/Temperature/T')!;
    const amplitude = (): number => phi.reduce((s, p, i) => s + p * T.x[i], 0) / phi.reduce((s, p) => s + p * p, 0);
    const a0 = amplitude();
    scene.step(n, h);
    return ((a0 / amplitude()) ** (1 / n) - 1) / h;
  }

  it('the first Fourier mode decays at D·(π/ℓ)², and 4 times faster with anisotropyRatio 4 along the bar (not with it across)', async () => {
    const D = 0.7,
      exact = D * Math.PI ** 2;
    const iso = await firstModeRate('', D);
    const along = await firstModeRate(`anisotropyRatio="4" transverseAnisotropyArray="${'1 0 0 '.repeat(NTETS)}"`, D);
    const across = await firstModeRate(`anisotropyRatio="4" transverseAnisotropyArray="${'0 1 0 '.repeat(NTETS)}"`, D);
    // linear tetrahedra with a consistent mass overestimate the eigenvalue by ≈ (π·Δx)²/12 = 0.21 %
    // (measured: iso/exact 1.0023, along/iso 3.9989, across/iso 1.000006)
    expect(Math.abs(iso / exact - 1)).to.be.below(0.005);
    expect(Math.abs(along / (4 * iso) - 1)).to.be.below(0.002);
    expect(Math.abs(across / iso - 1)).to.be.below(0.001);
  });

  /** The bar at rest (u = 0) whose end x = 0 is held at u = 1, after n implicit Euler steps of h. */
  async function heatedEnd(D: number, h: number, n: number): Promise<Float64Array> {
    const end = xs.flatMap((x, i) => (x === 0 ? [i] : []));
    const scene = await loadSceneFromString(bar({ u0: xs.map((x) => (x === 0 ? 1 : 0)), solver: implicit, D, fixed: end }));
    scene.step(n, h);
    return scene.get<BaseMechanicalState>('/Tetra/Temperature/T')!.x;
  }

  it('an end held at 1 heats the bar as the half-space does: u = erfc(x / 2√(Dt)), and a 15 % other D is told apart', async () => {
    const D = 0.5,
      h = 0.0005,
      n = 80,
      t = n * h;
    const u = await heatedEnd(D, h, n);
    // 2√(Dt) = 0.28, under 6 cells: the far end (x = 1, insulated) sees erfc(3.5) ≈ 6e-7, so the bar is a half-space
    const maxError = (d: number): number => xs.reduce((m, x, i) => Math.max(m, Math.abs(u[i] - erfc(x / (2 * Math.sqrt(d * t))))), 0);
    // the error of linear elements, the O(h) of implicit Euler and the ramp of the first cell at t = 0
    // (measured 0.0044; a D 15 % off gives 0.043 and 0.030)
    expect(maxError(D)).to.be.below(0.01);
    expect(maxError(0.85 * D)).to.be.above(0.02);
    expect(maxError(1.15 * D)).to.be.above(0.02);
  });

  describe("SOFA's example scene", function () {
    before(function () {
      if (!hasCorpus) this.skip();
    });

    it('Component/Diffusion/TetrahedronDiffusionFEMForceField.scn runs 20 steps with finite temperatures', async () => {
      const share = path.join(corpusRoot, 'sofa', 'share');
      const scene = await loadScene(
        path.join(corpusRoot, 'sofa', 'examples', 'Component', 'Diffusion', 'TetrahedronDiffusionFEMForceField.scn'),
        { dataPaths: [share] },
      );
      scene.step(20);
      const T = scene.get<BaseMechanicalState>('/Temperature/gridTemperature')!;
      expect(T.size).to.equal(2996);
      for (const v of T.x) expect(Number.isFinite(v)).to.equal(true);
    });
  });
});
