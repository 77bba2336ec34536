import { expect } from 'chai';
import { loadSceneFromString, type BaseMechanicalState, type SofaScene } from 'sofa-ts';

/**
 * MultiThreading's components that sofa-ts runs on one thread (ParallelSpringForceField,
 * ParallelMeshSpringForceField, BeamLinearMapping_mt): each steps a scene exactly as the component
 * it parallelises in SOFA, and says once that it runs on one thread.
 */

const grid = (ff: string): string => `<Node name="root" gravity="0 -9.81 0" dt="0.01">
  <DefaultAnimationLoop/>
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-12"/>
  <RegularGridTopology name="grid" n="4 3 3" min="0 0 0" max="3 1 1"/>
  <MechanicalObject name="dofs"/>
  <UniformMass totalMass="2"/>
  <BoxROI name="roi" box="-0.1 -0.1 -0.1 0.1 1.1 1.1"/>
  <FixedProjectiveConstraint indices="@roi.indices"/>
  ${ff}
</Node>`;

const beam = (mapping: string): string => `<Node name="root" gravity="0 -9.81 0" dt="0.01">
  <DefaultAnimationLoop/>
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-12"/>
  <MechanicalObject name="frames" template="Rigid3d" position="0 0 0 0 0 0 1  1 0 0 0 0 0 1  2 0 0 0 0 0 1"/>
  <EdgeSetTopologyContainer edges="0 1  1 2"/>
  <UniformMass totalMass="1"/>
  <FixedProjectiveConstraint indices="0"/>
  <BeamFEMForceField radius="0.1" youngModulus="1e5" poissonRatio="0.3"/>
  <Node name="points">
    <MechanicalObject name="dofs" position="0.5 0.05 0  1.5 0 0.05  2 0 0"/>
    ${mapping}
  </Node>
</Node>`;

async function run(xml: string, path: string): Promise<{ x: number[]; scene: SofaScene }> {
  const scene = await loadSceneFromString(xml);
  scene.step(10);
  return { x: Array.from(scene.get<BaseMechanicalState>(path)!.x), scene };
}

describe("MultiThreading's components on one thread: the same steps as the components they parallelise", function () {
  this.timeout(60000);
  const cases: [string, string, string, string][] = [
    [
      'ParallelSpringForceField',
      grid('<ParallelSpringForceField spring="0 1 100 0.1 1  1 2 100 0.1 1  2 14 50 0.1 1.5  3 15 80 0.1 1.2"/>'),
      grid('<SpringForceField spring="0 1 100 0.1 1  1 2 100 0.1 1  2 14 50 0.1 1.5  3 15 80 0.1 1.2"/>'),
      '/dofs',
    ],
    [
      'ParallelMeshSpringForceField',
      grid('<ParallelMeshSpringForceField stiffness="200" damping="0.5"/>'),
      grid('<MeshSpringForceField stiffness="200" damping="0.5"/>'),
      '/dofs',
    ],
    ['BeamLinearMapping_mt', beam('<BeamLinearMapping_mt granularity="2"/>'), beam('<BeamLinearMapping/>'), '/points/dofs'],
  ];
  for (const [name, twin, cpu, path] of cases)
    it(`${name}: bit for bit the one-thread component, with one note`, async () => {
      const a = await run(twin, path);
      const b = await run(cpu, path);
      expect(a.x).to.deep.equal(b.x);
      const moved = b.x.some((v, i) => Math.abs(v - b.scene.get<BaseMechanicalState>(path)!.x0[i]) > 1e-4);
      expect(moved, 'the scene moves').to.equal(true);
      const notes = a.scene.warnings.filter((w) => /runs on one thread in sofa-ts/.test(w.message));
      expect(notes, 'one note').to.have.length(1);
    });
});
