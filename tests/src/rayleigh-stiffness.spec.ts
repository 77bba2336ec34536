import { expect } from 'chai';
import { loadSceneFromString, mechanics } from 'sofa-ts';

/**
 * A force field's own rayleighStiffness r adds B = r·K (SOFA's kFactorIncludingRayleighDamping).
 * Matrix-free solvers meet it in addDForce, assembled ones in addKBToMatrix: both must give the same
 * trajectory, and it must differ from r = 0.
 */
function scene(forceField: string, linear: string): string {
  return `<Node name="root" dt="0.02" gravity="0 -9.81 0">
  <Node name="body">
    <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
    ${linear}
    <RegularGridTopology name="grid" n="3 3 4" min="0 0 0" max="1 1 2"/>
    <MechanicalObject name="dofs" template="Vec3"/>
    <UniformMass totalMass="1"/>
    ${forceField}
    <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8"/>
  </Node>
</Node>`;
}

const cg = '<CGLinearSolver iterations="500" tolerance="1e-14" threshold="1e-30"/>';
const ldl = '<SparseLDLSolver template="CompressedRowSparseMatrixMat3x3d"/>';

async function run(forceField: string, linear: string): Promise<Float64Array> {
  const s = await loadSceneFromString(scene(forceField, linear));
  s.step(30);
  return Float64Array.from(s.get<mechanics.MechanicalObject>('/body/dofs')!.x);
}

function maxDiff(a: Float64Array, b: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

describe('force fields: rayleighStiffness in matrix-free and assembled solvers', () => {
  for (const [name, ff] of [
    ['MeshSpringForceField', '<MeshSpringForceField stiffness="200" damping="0" rayleighStiffness="RS"/>'],
    ['HexahedronFEMForceField', '<HexahedronFEMForceField youngModulus="300" poissonRatio="0.3" method="large" rayleighStiffness="RS"/>'],
    ['TetrahedronFEMForceField', '<TetrahedronFEMForceField youngModulus="300" poissonRatio="0.3" method="large" rayleighStiffness="RS"/>'],
  ] as const) {
    it(`${name}: CG matrix-free = SparseLDL assembled, and the damping acts`, async () => {
      const damped = ff.replace('RS', '0.2');
      const a = await run(damped, cg);
      const b = await run(damped, ldl);
      const undamped = await run(ff.replace('RS', '0'), ldl);
      expect(maxDiff(a, b)).to.be.below(1e-9);
      expect(maxDiff(b, undamped)).to.be.above(1e-4);
    });
  }
});
