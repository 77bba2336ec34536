import { expect } from 'chai';
import type { BaseMechanicalState } from 'sofa-ts';
import { findNamed, sceneOf } from './harness-support-test-support.js';

/**
 * The patch test of the tetrahedral and triangular FEMs, through the XML path: the border nodes of
 * a small mesh are moved by AffineMovementProjectiveConstraint to the affine image F·x⁰ + T and the
 * static equilibrium is solved (StaticSolver + NewtonRaphsonSolver); a uniform deformation gradient
 * is an equilibrium of every element law, so the interior node must follow the same affine map.
 */

const F = [1.06, 0.03, -0.02, 0.01, 0.95, 0.04, -0.03, 0.02, 1.02];
const T = [0.1, -0.2, 0.05];
const image = (p: number[]) => [0, 1, 2].map((r) => F[3 * r] * p[0] + F[3 * r + 1] * p[1] + F[3 * r + 2] * p[2] + T[r]);
const T2 = [0.1, -0.2, 0];
/** In-plane maps: a general one, and a uniform dilation with a rotation (10°). */
const general2 = [1.06, 0.03, 0, 0.01, 0.95, 0, 0, 0, 1];
const c10 = 1.05 * Math.cos(Math.PI / 18),
  s10 = 1.05 * Math.sin(Math.PI / 18);
const conformal2 = [c10, -s10, 0, s10, c10, 0, 0, 0, 1];
const image2 = (F2: number[], p: number[]) => [0, 1, 2].map((r) => F2[3 * r] * p[0] + F2[3 * r + 1] * p[1] + F2[3 * r + 2] * p[2] + T2[r]);

const solver = `<StaticSolver/><NewtonRaphsonSolver maxNbIterationsNewton="30" absoluteResidualStoppingThreshold="1e-14" relativeInitialStoppingThreshold="1e-15" relativeSuccessiveStoppingThreshold="1e-15" warnWhenDiverge="false"/>
  <SparseLDLSolver template="CompressedRowSparseMatrixMat3x3d"/>`;

/** A 3×3×3 grid in tetrahedra (6 per cube), its border moved; the centre node 13 is free. */
function volume(ff: string): string {
  const border = Array.from({ length: 27 }, (_, i) => i)
    .filter((i) => i !== 13)
    .join(' ');
  return `<Node name="body">${solver}
    <RegularGridTopology name="grid" n="3 3 3" min="0 0 0" max="2 2 2"/>
    <MechanicalObject name="dofs"/>
    <TetrahedronSetTopologyContainer name="tetra"/><TetrahedronSetTopologyModifier/><Hexa2TetraTopologicalMapping input="@grid" output="@tetra"/>
    <TetrahedronSetGeometryAlgorithms/>
    ${ff}
    <AffineMovementProjectiveConstraint meshIndices="${border}" indices="${border}" beginConstraintTime="0" endConstraintTime="0.5" rotation="${F.join(' ')}" translation="${T.join(' ')}"/>
  </Node>`;
}

/** A 3×3 grid of points in z = 0 in 8 triangles, its border moved; the centre node 4 is free in its plane (a membrane has no stiffness out of it). */
function surface(ff: string, F2: number[]): string {
  const pos = '0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0  0 2 0  1 2 0  2 2 0';
  const tris = '0 1 4  0 4 3  1 2 4  2 5 4  3 4 6  4 7 6  4 5 8  4 8 7';
  const border = '0 1 2 3 5 6 7 8';
  return `<Node name="body">${solver}
    <TriangleSetTopologyContainer position="${pos}" triangles="${tris}"/><TriangleSetGeometryAlgorithms/>
    <MechanicalObject name="dofs" position="${pos}"/>
    ${ff}
    <AffineMovementProjectiveConstraint meshIndices="${border}" indices="${border}" beginConstraintTime="0" endConstraintTime="0.5" rotation="${F2.join(' ')}" translation="${T2.join(' ')}"/>
    <PartialFixedProjectiveConstraint indices="4" fixedDirections="0 0 1"/>
  </Node>`;
}

const E = 'youngModulus="1000" poissonRatio="0.3"';
const volumeFems: Record<string, string> = {
  'TetrahedronFEMForceField small': `<TetrahedronFEMForceField ${E} method="small"/>`,
  'TetrahedronFEMForceField large': `<TetrahedronFEMForceField ${E} method="large"/>`,
  'TetrahedronFEMForceField polar': `<TetrahedronFEMForceField ${E} method="polar"/>`,
  'TetrahedronFEMForceField svd': `<TetrahedronFEMForceField ${E} method="svd"/>`,
  TetrahedralCorotationalFEMForceField: `<TetrahedralCorotationalFEMForceField ${E} method="large"/>`,
  FastTetrahedralCorotationalForceField: `<FastTetrahedralCorotationalForceField ${E}/>`,
  LinearSmallStrainFEMForceField: `<LinearSmallStrainFEMForceField template="Vec3,Tetrahedron" ${E}/>`,
  CorotationalFEMForceField: `<CorotationalFEMForceField template="Vec3,Tetrahedron" ${E}/>`,
  TetrahedralTensorMassForceField: `<TetrahedralTensorMassForceField ${E}/>`,
  StandardTetrahedralFEMForceField: '<StandardTetrahedralFEMForceField materialName="StVenantKirchhoff" ParameterSet="500 300"/>',
  TetrahedronHyperelasticityFEMForceField: '<TetrahedronHyperelasticityFEMForceField materialName="NeoHookean" ParameterSet="500 3000"/>',
};
/**
 * SOFA's corotational triangles take each element's rotation from its first edge (TriangleFEMUtils'
 * computeRotationLarge), so under a shear the elements turn by different angles and the patch test
 * holds only for a uniform dilation with a rotation; sofa-ts keeps SOFA's frames. The others take
 * a general in-plane map.
 */
const surfaceFems: Record<string, [string, number[]]> = {
  'TriangularFEMForceField large': [`<TriangularFEMForceField ${E} method="large"/>`, conformal2],
  'TriangularFEMForceField small': [`<TriangularFEMForceField ${E} method="small"/>`, general2],
  'TriangleFEMForceField large': [`<TriangleFEMForceField ${E} method="large"/>`, conformal2],
  'TriangleFEMForceField small': [`<TriangleFEMForceField ${E} method="small"/>`, general2],
  TriangularFEMForceFieldOptim: [`<TriangularFEMForceFieldOptim ${E}/>`, conformal2],
  TriangularTensorMassForceField: [`<TriangularTensorMassForceField ${E}/>`, general2],
};

describe('patch test: the interior node follows an affine motion of the border (static solve through the XML path)', () => {
  for (const [label, ff] of Object.entries(volumeFems)) {
    it(`${label} (tetrahedra of a 3×3×3 grid)`, async () => {
      const scene = await sceneOf(volume(ff), 'gravity="0 0 0" dt="0.1"');
      const dofs = findNamed<BaseMechanicalState>(scene.root, 'dofs');
      scene.step(8);
      // the border at its affine image, and the centre (1, 1, 1) too
      for (let i = 0; i < 27; i++) {
        const x0 = [i % 3, Math.floor(i / 3) % 3, Math.floor(i / 9)];
        const got = Array.from(dofs.x.subarray(3 * i, 3 * i + 3)),
          want = image(x0);
        for (let k = 0; k < 3; k++) expect(got[k], `node ${i}`).to.be.closeTo(want[k], i === 13 ? 1e-9 : 1e-12);
      }
    });
  }
  for (const [label, [ff, F2]] of Object.entries(surfaceFems)) {
    it(`${label} (8 triangles of a 3×3 grid, ${F2 === conformal2 ? 'dilation and rotation' : 'general map'})`, async () => {
      const scene = await sceneOf(surface(ff, F2), 'gravity="0 0 0" dt="0.1"');
      const dofs = findNamed<BaseMechanicalState>(scene.root, 'dofs');
      scene.step(8);
      for (let i = 0; i < 9; i++) {
        const got = Array.from(dofs.x.subarray(3 * i, 3 * i + 3)),
          want = image2(F2, [i % 3, Math.floor(i / 3), 0]);
        for (let k = 0; k < 3; k++) expect(got[k], `node ${i}`).to.be.closeTo(want[k], i === 4 ? 1e-9 : 1e-12);
      }
    });
  }
});
