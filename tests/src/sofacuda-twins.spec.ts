import { expect } from 'chai';
import { loadSceneFromString, type BaseMechanicalState } from 'sofa-ts';

/**
 * SofaCUDA's element force fields run on the CPU: a SofaCUDA scene (CudaVec3f states,
 * CudaCorotationalFEMForceField / CudaLinearSmallStrainFEMForceField) steps exactly as the same
 * scene written with the CPU components on Vec3d, and says once that no GPU kernel is used.
 */

function beam(ff: string, template: string): string {
  return `<Node name="root" gravity="0 -9.81 0" dt="0.01">
    <RequiredPlugin name="SofaCUDA"/>
    <DefaultAnimationLoop/>
    <Node name="Beam">
      <RegularGridTopology name="grid" n="6 3 3" min="0 0 0" max="5 1 1"/>
      <TetrahedronSetTopologyContainer name="topo"/>
      <TetrahedronSetTopologyModifier/>
      <Hexa2TetraTopologicalMapping input="@grid" output="@topo"/>
    </Node>
    <Node name="Simulated">
      <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
      <CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-12"/>
      <MechanicalObject name="dofs" position="@../Beam/grid.position" template="${template}"/>
      <TetrahedronSetTopologyContainer src="@../Beam/topo"/>
      <DiagonalMass totalMass="5"/>
      <BoxROI name="roi" box="-0.1 -0.1 -0.1 0.1 1.1 1.1"/>
      <FixedProjectiveConstraint indices="@roi.indices"/>
      <${ff} name="FEM" template="${template},Tetrahedron" youngModulus="2000" poissonRatio="0.3"/>
    </Node>
  </Node>`;
}

describe("SofaCUDA's element force fields on the CPU (CudaVec3f read as Vec3d)", function () {
  this.timeout(60000);
  for (const cpu of ['CorotationalFEMForceField', 'LinearSmallStrainFEMForceField'])
    it(`Cuda${cpu} on CudaVec3f steps bit for bit as ${cpu} on Vec3d, and warns that it runs on the CPU`, async () => {
      const gpu = await loadSceneFromString(beam(`Cuda${cpu}`, 'CudaVec3f'));
      const ref = await loadSceneFromString(beam(cpu, 'Vec3d'));
      gpu.step(10);
      ref.step(10);
      const x = gpu.get<BaseMechanicalState>('/Simulated/dofs')!.x,
        y = ref.get<BaseMechanicalState>('/Simulated/dofs')!.x;
      expect(Math.min(...y.filter((_, i) => i % 3 === 1))).to.be.below(-1e-3); // the beam bends under gravity
      expect(Array.from(x)).to.deep.equal(Array.from(y));
      const notes = gpu.warnings.filter((w) => /SofaCUDA's GPU kernels are not used/.test(w.message));
      expect(notes.map((w) => w.message)).to.have.length(1);
      expect(notes[0].message).to.contain(`sofa-ts's ${cpu} on the CPU`);
      expect(gpu.warnings.filter((w) => /template 'CudaVec3f/.test(w.message))).to.deep.equal([]);
    });
});

/** A ball of one sphere falling on a fixed sphere, and a second falling ball, with SofaCUDA's or the CPU components. */
function spheres(sphere: string, intersection: string): string {
  const ball = (name: string, x: number) => `<Node name="${name}">
      <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
      <CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-12"/>
      <MechanicalObject name="dofs" template="CudaVec3f" position="${x} 3 0"/>
      <UniformMass totalMass="1"/>
      <${sphere} radius="1" contactStiffness="100"/>
    </Node>`;
  return `<Node name="root" gravity="0 -9.81 0" dt="0.01">
    <RequiredPlugin name="SofaCUDA"/>
    <DefaultAnimationLoop/>
    <CollisionPipeline/>
    <BruteForceBroadPhase/>
    <BVHNarrowPhase/>
    <CollisionResponse/>
    <${intersection} alarmDistance="0.2" contactDistance="0.05"/>
    <Node name="Floor">
      <MechanicalObject template="CudaVec3f" position="0 0 0  6 0 0"/>
      <${sphere} radius="1" simulated="0" moving="0"/>
    </Node>
    ${ball('Ball', 0)}
    ${ball('Ball2', 6)}
  </Node>`;
}

describe("SofaCUDA's collision components on the CPU (CudaSphereModel, CudaProximityIntersection)", function () {
  this.timeout(60000);
  it('a ball on a fixed sphere steps bit for bit as SphereCollisionModel with NewProximityIntersection, and rests on it; one note per kind', async () => {
    const gpu = await loadSceneFromString(spheres('CudaSphereModel', 'CudaProximityIntersection'));
    const ref = await loadSceneFromString(spheres('SphereCollisionModel', 'NewProximityIntersection'));
    gpu.step(150);
    ref.step(150);
    for (const b of ['/Ball/dofs', '/Ball2/dofs']) {
      const x = gpu.get<BaseMechanicalState>(b)!.x,
        y = ref.get<BaseMechanicalState>(b)!.x;
      expect(Array.from(x)).to.deep.equal(Array.from(y));
      // free fall would have brought it to 3 − g·t²/2 ≈ −8; the contact holds it near r1 + r2 = 2 above the floor's sphere
      expect(x[1]).to.be.within(1.5, 2.3);
    }
    const notes = gpu.warnings.filter((w) => /SofaCUDA's GPU kernels are not used/.test(w.message)).map((w) => w.message);
    expect(notes).to.have.length(2);
    expect(notes.filter((m) => m.includes("sofa-ts's SphereCollisionModel on the CPU"))).to.have.length(1);
    expect(notes.filter((m) => m.includes("sofa-ts's NewProximityIntersection on the CPU"))).to.have.length(1);
    expect(ref.warnings.filter((w) => /SofaCUDA/.test(w.message))).to.deep.equal([]);
  });
});
