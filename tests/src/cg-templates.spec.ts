import { expect } from 'chai';
import { loadSceneFromString, mechanics } from 'sofa-ts';

/** CGLinearSolver's templates solve the same system: matrix-free, scalar CSR and 3x3 blocks. */
async function run(template: string): Promise<Float64Array> {
  const s = await loadSceneFromString(`<Node name="root" dt="0.02" gravity="0 -9.81 0">
  <Node name="beam">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver iterations="300" tolerance="1e-14" threshold="1e-30" ${template}/>
    <RegularGridTopology name="grid" n="3 3 6" min="0 0 0" max="1 1 3"/>
    <MechanicalObject name="dofs" template="Vec3"/>
    <TetrahedronSetTopologyContainer name="tetra"/>
    <TetrahedronSetTopologyModifier/>
    <Hexa2TetraTopologicalMapping input="@grid" output="@tetra"/>
    <DiagonalMass massDensity="1"/>
    <TetrahedronFEMForceField youngModulus="500" poissonRatio="0.3" method="large"/>
    <BoxROI name="box" box="-0.1 -0.1 -0.1 1.1 1.1 0.1"/>
    <FixedProjectiveConstraint indices="@box.indices"/>
  </Node>
</Node>`);
  s.step(20);
  return Float64Array.from(s.get<mechanics.MechanicalObject>('/beam/dofs')!.x);
}

describe('CGLinearSolver templates', () => {
  it('GraphScattered, CompressedRowSparseMatrixd and CompressedRowSparseMatrixMat3x3d give the same trajectory', async () => {
    const free = await run('');
    const scalar = await run('template="CompressedRowSparseMatrixd"');
    const blocks = await run('template="CompressedRowSparseMatrixMat3x3d"');
    let d1 = 0,
      d2 = 0,
      moved = 0;
    for (let i = 0; i < free.length; i++) {
      d1 = Math.max(d1, Math.abs(free[i] - scalar[i]));
      d2 = Math.max(d2, Math.abs(free[i] - blocks[i]));
    }
    const rest = await (async () => {
      const s = await loadSceneFromString(
        '<Node name="root"><RegularGridTopology name="grid" n="3 3 6" min="0 0 0" max="1 1 3"/><MechanicalObject name="dofs" template="Vec3"/></Node>',
      );
      return s.get<mechanics.MechanicalObject>('dofs')!.x;
    })();
    for (let i = 0; i < free.length; i++) moved = Math.max(moved, Math.abs(free[i] - rest[i]));
    expect(moved).to.be.above(1e-3); // the beam bends
    expect(d1).to.be.below(1e-10);
    expect(d2).to.be.below(1e-10);
  });
});
