import { expect } from 'chai';
import { loadSceneFromString } from 'sofa-ts';

/**
 * NonUniformHexahedronFEMForceFieldAndMass against closed forms on one coarse cell (the unit cube)
 * of a sparse grid with one virtual finer level: filled, the condensed stiffness is the classical
 * element's (both integrate the trilinear element exactly); half filled, a uniform strain stores
 * half the energy, ½·(λ + 2μ)·ε²·V/2; the condensed mass keeps the mass of the part held.
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

interface ElementView {
  elementStiffness(out: Float64Array, e: number): Float64Array;
  massPart?: { elementMatrices: Float64Array };
}

async function element(ff: string, levels: number, surface: string): Promise<{ K: Float64Array; M: Float64Array; x: Float64Array }> {
  const scene = await loadSceneFromString(`<Node name="root" gravity="0 0 0">
    <DefaultAnimationLoop/>
    <SparseGridTopology name="grid" n="2 2 2" min="0 0 0" max="1 1 1" nbVirtualFinerLevels="${levels}" fillWeighted="0" ${surface}/>
    <MechanicalObject name="dofs"/>
    <${ff} name="ff" youngModulus="${E}" poissonRatio="${NU}" density="2" method="large" ${ff.startsWith('NonUniform') ? `nbVirtualFinerLevels="${levels}"` : ''}/>
  </Node>`);
  const f = scene.root.getObjectByName('ff') as unknown as ElementView;
  const K = f.elementStiffness(new Float64Array(576), 0);
  // the positions of the element's corners, in the order of K's rows
  const p = (scene.root.getObjectByName('dofs') as unknown as { x: Float64Array }).x;
  const H = (scene.root.getObjectByName('grid') as unknown as { getHexahedra(): Uint32Array }).getHexahedra();
  const x = new Float64Array(24);
  for (let v = 0; v < 8; v++) for (let c = 0; c < 3; c++) x[3 * v + c] = p[3 * H[v] + c];
  return { K, M: f.massPart!.elementMatrices.slice(0, 576), x };
}

/** ½·uᵀ·(−K)·u for u_x = ε·x (elementStiffness is ∂f/∂x = −K). */
function stretchEnergy(K: Float64Array, x: Float64Array, eps: number): number {
  const u = new Float64Array(24);
  for (let v = 0; v < 8; v++) u[3 * v] = eps * x[3 * v];
  let e = 0;
  for (let i = 0; i < 24; i++) for (let j = 0; j < 24; j++) e -= u[i] * K[24 * i + j] * u[j];
  return e / 2;
}

const sum = (a: Float64Array) => a.reduce((s, v) => s + v, 0);

describe('NonUniformHexahedronFEMForceFieldAndMass (condensation from virtual finer levels)', () => {
  it('a filled cell: the condensed stiffness is the classical element stiffness, the mass the same total', async () => {
    const full = box([0.05, 0.05, 0.05], [0.95, 0.95, 0.95]);
    const condensed = await element('NonUniformHexahedronFEMForceFieldAndMass', 1, full);
    const classical = await element('HexahedronFEMForceFieldAndMass', 0, full);
    const scale = Math.max(...classical.K.map(Math.abs));
    for (let k = 0; k < 576; k++) expect(condensed.K[k]).to.be.closeTo(classical.K[k], 1e-12 * scale);
    expect(stretchEnergy(condensed.K, condensed.x, 1e-3)).to.be.closeTo(0.5 * (lambda + 2 * mu) * 1e-6, 1e-12);
    // ρ·V per component, through both element matrices
    expect(sum(condensed.M) / 3).to.be.closeTo(sum(classical.M) / 3, 1e-12);
    expect(sum(classical.M) / 3).to.be.closeTo(2 * ((64 * 8) / 27) * 1, 1e-12);
  });

  it('a half-filled cell stores half the energy of a uniform strain and holds half the mass', async () => {
    // the lower half of the cube (z < 0.5 at the finer level): four of the eight children
    const half = await element('NonUniformHexahedronFEMForceFieldAndMass', 1, box([0.05, 0.05, 0.05], [0.95, 0.95, 0.4]));
    expect(stretchEnergy(half.K, half.x, 1e-3)).to.be.closeTo(0.5 * (lambda + 2 * mu) * 1e-6 * 0.5, 1e-12);
    const full = await element('NonUniformHexahedronFEMForceFieldAndMass', 1, box([0.05, 0.05, 0.05], [0.95, 0.95, 0.95]));
    expect(sum(half.M)).to.be.closeTo(sum(full.M) / 2, 1e-12);
  });

  it('nbVirtualFinerLevels above the grid: the classical matrices, with a located warning', async () => {
    const scene = await loadSceneFromString(`<Node name="root" gravity="0 0 0">
      <DefaultAnimationLoop/>
      <SparseGridTopology n="2 2 2" min="0 0 0" max="1 1 1" ${box([0.05, 0.05, 0.05], [0.95, 0.95, 0.95])}/>
      <MechanicalObject/>
      <NonUniformHexahedronFEMForceFieldAndMass nbVirtualFinerLevels="2"/>
    </Node>`);
    expect(scene.warnings.map(String).join('\n')).to.match(
      /has 0 virtual finer levels, fewer than 2: the classical, uniform element matrices are used/,
    );
  });
});
