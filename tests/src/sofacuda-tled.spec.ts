import { expect } from 'chai';
import { loadSceneFromString, type BaseMechanicalState } from 'sofa-ts';

/**
 * SofaCUDA's TLED force fields in a SofaCUDA scene (CudaVec3f state, CentralDifferenceSolver as
 * its benchmarks use): a cantilever bending under gravity moves as with SOFA's linear
 * corotational TetrahedronFEMForceField (same E, ν, mesh and integrator) while its strains are
 * small, under the explicit solver and under an implicit one (the TLED tangent), and each scene
 * says once that no GPU kernel is used.
 */

const explicit = '<CentralDifferenceSolver rayleighMass="5"/>';
const implicit = '<EulerImplicitSolver rayleighMass="5"/><CGLinearSolver iterations="200" tolerance="1e-14" threshold="1e-14"/>';

function beam(solver: string, ff: string, elements: 'tetra' | 'hexa' = 'tetra'): string {
  const topology =
    elements === 'tetra'
      ? `<TetrahedronSetTopologyContainer name="topo"/><TetrahedronSetTopologyModifier/><Hexa2TetraTopologicalMapping input="@grid" output="@topo"/>`
      : '';
  const container =
    elements === 'tetra'
      ? '<TetrahedronSetTopologyContainer src="@../Beam/topo"/>'
      : '<HexahedronSetTopologyContainer src="@../Beam/grid"/>';
  return `<Node name="root" gravity="0 -9 0" dt="0.001">
    <RequiredPlugin name="SofaCUDA"/>
    <DefaultAnimationLoop/>
    <Node name="Beam">
      <RegularGridTopology name="grid" n="9 3 3" min="0 0 0" max="8 1 1"/>
      ${topology}
    </Node>
    <Node name="Simulated">
      ${solver}
      <MechanicalObject name="dofs" position="@../Beam/grid.position" template="CudaVec3f"/>
      ${container}
      <DiagonalMass totalMass="5"/>
      <BoxROI name="roi" box="-0.1 -0.1 -0.1 0.1 1.1 1.1"/>
      <FixedProjectiveConstraint indices="@roi.indices"/>
      ${ff}
    </Node>
  </Node>`;
}

/** The mean vertical displacement of the free end (x = 8) after `steps` steps, and the scene's warnings. */
async function tip(xml: string, steps: number): Promise<{ dy: number; warnings: string[] }> {
  const scene = await loadSceneFromString(xml);
  const x0 = Float64Array.from(scene.get<BaseMechanicalState>('/Simulated/dofs')!.x);
  scene.step(steps);
  const x = scene.get<BaseMechanicalState>('/Simulated/dofs')!.x;
  let dy = 0,
    n = 0;
  for (let i = 0; i < x.length; i += 3)
    if (x0[i] === 8) {
      dy += x[i + 1] - x0[i + 1];
      n++;
    }
  return { dy: dy / n, warnings: scene.warnings.map((w) => w.message) };
}

describe("SofaCUDA's TLED force fields in a SofaCUDA scene", function () {
  this.timeout(120000);
  const tled = '<CudaTetrahedronTLEDForceField name="FEM" youngModulus="20000" poissonRatio="0.3"/>';
  const fem = '<TetrahedronFEMForceField name="FEM" method="large" youngModulus="20000" poissonRatio="0.3"/>';

  for (const [name, solver] of [
    ['CentralDifferenceSolver', explicit],
    ['EulerImplicitSolver', implicit],
  ] as const)
    it(`a cantilever under ${name} bends as with TetrahedronFEMForceField 'large' at small strain`, async () => {
      const a = await tip(beam(solver, tled), 150);
      const b = await tip(beam(solver, fem), 150);
      expect(b.dy).to.be.below(-1e-3); // it bends
      expect(Math.abs(a.dy - b.dy)).to.be.below(1e-3 * Math.abs(b.dy)); // measured: 3e-5 (explicit), 2e-5 (implicit)
      const notes = a.warnings.filter((w) => /SofaCUDA's GPU kernels are not used/.test(w));
      expect(notes).to.have.length(1);
      expect(a.warnings.filter((w) => /template 'CudaVec3f/.test(w))).to.deep.equal([]);
    });

  it('CudaHexahedronTLEDForceField on the grid hexahedra bends the cantilever, and says once that it runs on the CPU', async () => {
    const h = await tip(beam(explicit, '<CudaHexahedronTLEDForceField name="FEM" youngModulus="20000" poissonRatio="0.3"/>', 'hexa'), 150);
    expect(h.dy).to.be.below(-1e-3);
    expect(h.warnings.filter((w) => /SofaCUDA's GPU kernels are not used/.test(w))).to.have.length(1);
  });
});
