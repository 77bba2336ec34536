import { expect } from 'chai';
import type { BaseMechanicalState } from '@sofa-ts/core';
import { loadSceneFromString } from 'sofa-ts';

/**
 * The element force fields on quads, triangles and edges in 3D (SOFA's `Vec3,Quad`, `Vec3,Triangle`,
 * `Vec3,Edge`), in a static traction: the 3D material with its displacement gradient in the element,
 * so a strip in its plane is in plane strain (ε_zz = 0, σ_yy = 0): ε_xx = (1 − ν²)·σ/E and
 * ε_yy = −ν(1 + ν)·σ/E. A bar of edges holds its lateral strains: ε_xx = σ/(λ + 2μ).
 * Linear elements reproduce a uniform strain exactly.
 */

const E = 1000,
  NU = 0.3,
  L = 4,
  W = 2;

function strip(kind: 'Quad' | 'Triangle'): { points: number[]; elements: number[] } {
  // (nx + 1) × (ny + 1) points on [0, L] × [0, W]
  const nx = 4,
    ny = 2;
  const points: number[] = [];
  for (let j = 0; j <= ny; j++) for (let i = 0; i <= nx; i++) points.push((i * L) / nx, (j * W) / ny, 0);
  const id = (i: number, j: number) => i + (nx + 1) * j;
  const elements: number[] = [];
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++) {
      const [a, b, c, d] = [id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)];
      if (kind === 'Quad') elements.push(a, b, c, d);
      else elements.push(a, b, c, a, c, d);
    }
  return { points, elements };
}

const solve = async (topology: string, points: number[], fem: string, constraints: string, loads: Map<number, number>) => {
  const scene = await loadSceneFromString(`<Node name="root" dt="1" gravity="0 0 0">
    <DefaultAnimationLoop/>
    <StaticSolver/>
    <NewtonRaphsonSolver maxNbIterationsNewton="5" absoluteResidualStoppingThreshold="1e-14" relativeInitialStoppingThreshold="0" relativeSuccessiveStoppingThreshold="0"/>
    <SparseLDLSolver template="CompressedRowSparseMatrixMat3x3d"/>
    ${topology}
    <MechanicalObject name="dofs" position="${points.join(' ')}"/>
    ${fem}
    ${constraints}
    <ConstantForceField indices="${[...loads.keys()].join(' ')}" forces="${[...loads.values()].map((f) => `${f} 0 0`).join(' ')}"/>
  </Node>`);
  scene.step(1);
  return scene.get<BaseMechanicalState>('/dofs')!.x;
};

describe('element force fields on membranes and bars (plane strain, lateral strains held)', () => {
  const sigma = 5; // traction on the end x = L (force per unit length of edge, unit thickness)
  for (const kind of ['Quad', 'Triangle'] as const)
    for (const ff of ['LinearSmallStrainFEMForceField', 'CorotationalFEMForceField'])
      it(`${ff} Vec3,${kind}: a strip pulled in its plane stretches as in plane strain`, async () => {
        const { points, elements } = strip(kind);
        const n = points.length / 3;
        const at = (i: number, k: number) => points[3 * i + k];
        const left = [...Array(n).keys()].filter((i) => at(i, 0) === 0);
        const right = [...Array(n).keys()].filter((i) => at(i, 0) === L);
        // consistent nodal loads of a uniform traction on the right edge (linear edges): σ·h/2 at its ends
        const loads = new Map<number, number>();
        const h = W / (right.length - 1);
        for (const i of right) loads.set(i, sigma * (at(i, 1) === 0 || at(i, 1) === W ? h / 2 : h));
        const list = kind === 'Quad' ? 'quads' : 'triangles';
        const x = await solve(
          `<MeshTopology name="topo" ${list}="${elements.join(' ')}"/>`,
          points,
          `<${ff} template="Vec3d,${kind}" youngModulus="${E}" poissonRatio="${NU}"/>`,
          `<PartialFixedProjectiveConstraint indices="${[...Array(n).keys()].join(' ')}" fixedDirections="0 0 1"/>
           <PartialFixedProjectiveConstraint indices="${left.join(' ')}" fixedDirections="1 0 0"/>
           <PartialFixedProjectiveConstraint indices="0" fixedDirections="0 1 0"/>`,
          loads,
        );
        const exx = ((1 - NU * NU) * sigma) / E,
          eyy = (-NU * (1 + NU) * sigma) / E;
        let worst = 0;
        for (let i = 0; i < n; i++) {
          worst = Math.max(worst, Math.abs(x[3 * i] - at(i, 0) - exx * at(i, 0)), Math.abs(x[3 * i + 1] - at(i, 1) - eyy * at(i, 1)));
        }
        // exact to round-off for small strain. The corotational field equilibrates its own O(ε) geometric
        // term: stable_polar (quads) 0.3·ε of the displacement; the triangle method, whose frame follows
        // the element's first edge, takes a part of a slanted triangle's stretch for a rotation (3·ε measured)
        const bound = ff.startsWith('Corotational') ? (kind === 'Quad' ? 0.3 : 5) * exx : 1e-9;
        expect(worst).to.be.below(bound * exx * L);
      });

  it('LinearSmallStrainFEMForceField Vec3,Edge: a bar of edges stretches by σ/(λ + 2μ)', async () => {
    const points = [0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0, 0];
    const x = await solve(
      '<MeshTopology name="topo" edges="0 1 1 2 2 3 3 4"/>',
      points,
      `<LinearSmallStrainFEMForceField template="Vec3d,Edge" youngModulus="${E}" poissonRatio="${NU}"/>`,
      `<PartialFixedProjectiveConstraint indices="0 1 2 3 4" fixedDirections="0 1 1"/>
       <PartialFixedProjectiveConstraint indices="0" fixedDirections="1 0 0"/>`,
      new Map([[4, sigma]]),
    );
    const lambda = (E * NU) / ((1 + NU) * (1 - 2 * NU)),
      mu = E / (2 * (1 + NU));
    const exx = sigma / (lambda + 2 * mu);
    for (let i = 0; i < 5; i++) expect(x[3 * i] - points[3 * i]).to.be.closeTo(exx * points[3 * i], 1e-12);
  });

  it('FEMMass takes volumes only: a triangle template is refused with the supported list', async () => {
    let message = '';
    try {
      await loadSceneFromString(`<Node name="root"><DefaultAnimationLoop/>
        <MeshTopology triangles="0 1 2"/><MechanicalObject position="0 0 0 1 0 0 0 1 0"/>
        <NodalMassDensity property="1"/><FEMMass template="Vec3d,Triangle"/></Node>`);
    } catch (e) {
      message = String(e);
    }
    expect(message).to.match(/FEMMass 'FEMMass1': the template must name the element type: .*"Vec3,Prism"$/);
  });
});
