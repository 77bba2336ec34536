import { expect } from 'chai';
import { loadSceneFromString, type BaseMechanicalState, type BaseMeshTopology } from 'sofa-ts';

/**
 * A cylinder in traction, solved by StaticSolver through the XML path, for the linear tetrahedral
 * force fields (SOFA's ForceField tests state the same case): a uniform traction p on the top face,
 * the bottom face free to slide in its plane, gives the uniform stress σ_zz = p, so the displacement
 * is u_z = p·z/E and u_r = −ν·p·r/E. Linear tetrahedra represent that field exactly (the patch
 * test), so the only error is round-off (and, for the corotational ones, their geometric
 * non-linearity, O(ε²) in the strain). The Newton iterations run to a residual of 1e-15, so that the
 * force itself is tested, not only the stiffness at rest (one iteration from rest would give every
 * field the same answer).
 *
 * The load is the face's consistent nodal force, written by this test from the mesh: p·A/3 to each
 * corner of every boundary triangle of the top face (triangles found as tetrahedron faces used once).
 */

const E = 5000,
  NU = 0.3,
  P = 0.05, // strain p/E = 1e-5
  R = 0.2,
  H = 1;

interface Cylinder {
  points: number[];
  tetrahedra: number[];
}

/** SOFA's GenerateCylinder mesh (axis z, bottom at the origin), read from a scene. */
async function cylinder(): Promise<Cylinder> {
  const scene = await loadSceneFromString(`<Node name="root">
    <GenerateCylinder name="gen" radius="${R}" height="${H}" resCircumferential="8" resRadial="3" resHeight="7"/>
    <MeshTopology name="topo" position="@gen.output_TetrahedraPosition" tetrahedra="@gen.tetrahedra"/>
  </Node>`);
  const topo = scene.get<BaseMeshTopology>('/topo')!;
  const tetrahedra = Array.from(topo.getTetrahedra());
  const points = Array.from(topo.getPositions()!);
  return { points, tetrahedra };
}

/** Consistent nodal forces of the traction p·e_z on the face z = H: index → force z. */
function topLoads(c: Cylinder): Map<number, number> {
  const faces = new Map<string, number[]>();
  const t = c.tetrahedra;
  for (let e = 0; e < t.length / 4; e++)
    for (const skip of [0, 1, 2, 3]) {
      const f = [0, 1, 2, 3].filter((k) => k !== skip).map((k) => t[4 * e + k]);
      const key = [...f].sort((a, b) => a - b).join(',');
      if (faces.has(key)) faces.delete(key);
      else faces.set(key, f);
    }
  const loads = new Map<number, number>();
  const z = (i: number): number => c.points[3 * i + 2];
  for (const f of faces.values()) {
    if (!f.every((i) => Math.abs(z(i) - H) < 1e-12)) continue;
    const [a, b, d] = f.map((i) => [c.points[3 * i], c.points[3 * i + 1]]);
    const area = Math.abs((b![0] - a![0]) * (d![1] - a![1]) - (b![1] - a![1]) * (d![0] - a![0])) / 2;
    for (const i of f) loads.set(i, (loads.get(i) ?? 0) + (P * area) / 3);
  }
  return loads;
}

/** [component, options, corotational]: a corotational field is linear elasticity up to O(ε²) in the strain ε. */
const FORCE_FIELDS: [string, string, boolean][] = [
  ['TetrahedronFEMForceField', 'method="small"', false],
  ['TetrahedronFEMForceField', 'method="large"', true],
  ['TetrahedronFEMForceField', 'method="polar"', true],
  ['TetrahedronFEMForceField', 'method="svd"', true],
  ['TetrahedralCorotationalFEMForceField', 'method="large"', true],
  ['FastTetrahedralCorotationalForceField', '', true],
  ['TetrahedralTensorMassForceField', '', false],
];

describe('a cylinder in traction under a static solve: u_z = p·z/E and u_r = −ν·p·r/E (linear tetrahedral force fields)', function () {
  this.timeout(120000);
  let c: Cylinder;
  let loads: Map<number, number>;
  before(async () => {
    c = await cylinder();
    loads = topLoads(c);
  });

  for (const [ff, options, corotational] of FORCE_FIELDS)
    it(`${ff} ${options}`.trim(), async () => {
      const n = c.points.length / 3;
      const at = (i: number, k: number): number => c.points[3 * i + k];
      const bottom = [...Array(n).keys()].filter((i) => at(i, 2) === 0);
      const centre = bottom.filter((i) => at(i, 0) === 0 && at(i, 1) === 0);
      const onX = bottom.filter((i) => at(i, 1) === 0 && at(i, 0) > 0);
      expect(centre, 'the axis point of the bottom').to.have.length(1);
      expect(onX.length, 'bottom points on the x axis').to.be.above(0);
      // total load p·πR² up to the polygon's area (8 sides: the inscribed octagon)
      const total = [...loads.values()].reduce((s, v) => s + v, 0);
      expect(total).to.be.closeTo(P * 2 * Math.SQRT2 * R * R, 1e-12);
      const scene = await loadSceneFromString(`<Node name="root" dt="1" gravity="0 0 0">
        <DefaultAnimationLoop/>
        <StaticSolver/>
        <NewtonRaphsonSolver maxNbIterationsNewton="10" absoluteResidualStoppingThreshold="1e-15" relativeInitialStoppingThreshold="0" relativeSuccessiveStoppingThreshold="0"/>
        <SparseLDLSolver template="CompressedRowSparseMatrixMat3x3d"/>
        <MeshTopology name="topo" tetrahedra="${c.tetrahedra.join(' ')}"/>
        <MechanicalObject name="dofs" position="${c.points.join(' ')}"/>
        <${ff} name="FEM" youngModulus="${E}" poissonRatio="${NU}" ${options}/>
        <PartialFixedProjectiveConstraint indices="${bottom.join(' ')}" fixedDirections="0 0 1"/>
        <PartialFixedProjectiveConstraint indices="${centre.join(' ')}" fixedDirections="1 1 0"/>
        <PartialFixedProjectiveConstraint indices="${onX.join(' ')}" fixedDirections="0 1 0"/>
        <ConstantForceField indices="${[...loads.keys()].join(' ')}" forces="${[...loads.values()].map((f) => `0 0 ${f}`).join(' ')}"/>
      </Node>`);
      scene.step(1);
      const x = scene.get<BaseMechanicalState>('/dofs')!.x;
      const strain = P / E;
      let worst = 0;
      for (let i = 0; i < n; i++) {
        const exact = [-NU * strain * at(i, 0), -NU * strain * at(i, 1), strain * at(i, 2)];
        for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(x[3 * i + k] - at(i, k) - exact[k]));
      }
      // the largest displacement is p·H/E = 1e-5 (strain ε = 1e-5). A linear field is exact to round-off
      // (measured 3e-11 of it); a corotational one equilibrates its own geometric non-linearity, O(ε) of
      // the displacement (measured 0.14·ε: polar and svd alike, large and the other two alike)
      expect(worst).to.be.below((corotational ? 0.3 * strain : 1e-9) * strain * H);
    });
});
