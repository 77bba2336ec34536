import { expect } from 'chai';
import { loadSceneFromString, verifyCheckpoint, type SofaScene } from 'sofa-ts';

/**
 * Hidden state of the loads, projective constraints and Lagrangian constraints, and of the
 * engines, through the XML path: a run resumed from a checkpoint goes on
 * bit for bit as the uninterrupted one. Each scene is one where the state matters: without it
 * (a checkpoint stripped of the component's record, the second half of each test) the resumed run
 * differs, so the first half cannot pass by accident.
 */

const springs = '<StiffSpringForceField spring="0 1 500 1 1  1 2 500 1 1"/>';
const implicit = '<EulerImplicitSolver/><CGLinearSolver iterations="40" tolerance="1e-14" threshold="1e-20"/>';

function root(body: string, loop = '<DefaultAnimationLoop/>'): string {
  return `<Node name="root" dt="0.01" gravity="0 -9.81 0">${loop}${body}</Node>`;
}

/** The resumed run differs when the component's record is left out of the checkpoint (its hidden state is what makes it exact). */
async function differsWithout(xml: string, key: string, n: number, k: number): Promise<void> {
  const load = (): Promise<SofaScene> => loadSceneFromString(xml);
  const a = await load();
  a.step(n);
  const b = await load();
  b.step(k);
  const { checkpoint } = b.checkpoint();
  const entry = checkpoint.components.find((c) => c.key === key);
  expect(entry?.state, `a record for ${key}`).to.not.equal(undefined);
  // The record of the fresh scene instead (what a component without a record would resume with).
  const fresh = await load();
  (entry as { state: unknown }).state = fresh.checkpoint().checkpoint.components.find((c) => c.key === key)!.state;
  const c = await load();
  c.restore(checkpoint);
  c.step(n - k);
  const xa = [...a.root.subtreeObjects()].flatMap((o) => ('isMechanicalState' in o ? [...(o as unknown as { x: Float64Array }).x] : []));
  const xc = [...c.root.subtreeObjects()].flatMap((o) => ('isMechanicalState' in o ? [...(o as unknown as { x: Float64Array }).x] : []));
  expect(xc).to.not.deep.equal(xa);
}

const scenes: Array<{ what: string; xml: string; key: string; n: number; k: number }> = [
  {
    what: 'LinearVelocityProjectiveConstraint (key times found, positions of the last projection), checkpoint before the last key time',
    xml: root(`${implicit}<MechanicalObject name="dofs" position="0 0 0  1 0 0  2 0 0"/><UniformMass totalMass="3"/>
      <LinearVelocityProjectiveConstraint name="lv" indices="0" keyTimes="0 0.05 0.3" velocities="0 0 0  1 0 0  0 1 0"/>${springs}`),
    key: '/lv',
    n: 20,
    k: 9,
  },
  {
    what: 'LinearVelocityProjectiveConstraint after its last key time (continueAfterEnd)',
    xml: root(`${implicit}<MechanicalObject name="dofs" position="0 0 0  1 0 0  2 0 0"/><UniformMass totalMass="3"/>
      <LinearVelocityProjectiveConstraint name="lv" indices="0" keyTimes="0 0.05 0.1" velocities="0 0 0  1 0 0  0 1 0" continueAfterEnd="true"/>${springs}`),
    key: '/lv',
    n: 24,
    k: 15,
  },
  {
    what: 'AffineMovementProjectiveConstraint (start and final positions taken at the first projection)',
    xml: root(`${implicit}<MechanicalObject name="dofs" position="0 0 0  1 0 0  2 0 0"/><UniformMass totalMass="3"/>
      <AffineMovementProjectiveConstraint name="am" indices="0" translation="0.5 0.2 0" beginConstraintTime="0" endConstraintTime="0.3"/>${springs}`),
    key: '/am',
    n: 20,
    k: 7,
  },
  {
    what: 'FixedLagrangianConstraint (the warm start of its blocks)',
    xml: root(
      `<BlockGaussSeidelConstraintSolver tolerance="1e-12" maxIterations="2"/>
      <Node name="p"><EulerImplicitSolver/><SparseLDLSolver/><MechanicalObject name="dofs" position="0 0 0  1 0 0  2 0 0"/><UniformMass totalMass="3"/>
        <GenericConstraintCorrection/><FixedLagrangianConstraint name="fix" indices="0 2"/>${springs}</Node>`,
      '<FreeMotionAnimationLoop/>',
    ),
    key: '/p/fix',
    n: 16,
    k: 6,
  },
  {
    what: 'SurfacePressureForceField in pulse mode (the pressure reached and its direction)',
    xml: root(`${implicit}<RegularGridTopology name="grid" n="2 2 2" min="0 0 0" max="1 1 1"/>
      <MechanicalObject name="dofs"/><UniformMass totalMass="1"/><FixedProjectiveConstraint indices="0 1 2 3"/>
      <HexahedronFEMForceField youngModulus="2000" poissonRatio="0.3"/>
      <SurfacePressureForceField name="sp" pressure="60" pulseMode="true" pressureSpeed="900"/>`),
    key: '/sp',
    n: 20,
    k: 8,
  },
];

describe('checkpoint and resume: hidden state of the loads, projective and Lagrangian constraints, engines', function () {
  this.timeout(60000);

  for (const s of scenes) {
    it(`${s.what}: ${s.n} = ${s.k} + checkpoint + ${s.n - s.k} bit for bit; without its record the resumed run differs`, async () => {
      const v = await verifyCheckpoint(() => loadSceneFromString(s.xml), s.n, s.k);
      expect(v.mismatch).to.equal(undefined);
      expect(v.warnings).to.deep.equal([]);
      await differsWithout(s.xml, s.key, s.n, s.k);
    });
  }

  it("MultiThreading: ParallelTetrahedronFEMForceField and ParallelCGLinearSolver on 2 threads resume bit for bit (their one-thread versions' records)", async () => {
    // 8×8×12 grid points in tetrahedra: over the size at which the CG's products go to the threads
    const xml = `<Node name="root" dt="0.01" gravity="0 -9 0"><RequiredPlugin name="MultiThreading"/><TaskSchedulerSettings nbThreads="2"/>
      <Node name="beam"><EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
        <ParallelCGLinearSolver name="cg" iterations="25" tolerance="1e-9" threshold="1e-9" warmStart="true"/>
        <RegularGridTopology name="grid" min="-5 -5 0" max="5 5 40" n="8 8 12"/>
        <MechanicalObject name="dofs"/><TetrahedronSetTopologyContainer name="tetra"/><TetrahedronSetTopologyModifier/>
        <Hexa2TetraTopologicalMapping input="@grid" output="@tetra" swapping="true"/>
        <DiagonalMass massDensity="0.2"/>
        <ParallelTetrahedronFEMForceField name="fem" youngModulus="1000" poissonRatio="0.4" method="large"/>
        <BoxROI name="box" box="-6 -6 -1 50 6 0.1"/><FixedProjectiveConstraint indices="@box.indices"/>
      </Node></Node>`;
    const v = await verifyCheckpoint(() => loadSceneFromString(xml), 6, 3);
    expect(v.mismatch).to.equal(undefined);
    expect(v.warnings).to.deep.equal([]);
    const probe = await loadSceneFromString(xml);
    probe.step(1);
    expect((probe.get('/beam/cg') as unknown as { threadCount: number }).threadCount).to.equal(2);
    expect((probe.get('/beam/fem') as unknown as { threadCount: number }).threadCount).to.equal(2);
  });

  it('two ODE solvers in one node: the checkpoint says a resumed run may differ (the first solver keeps values no checkpoint holds)', async () => {
    const scene = await loadSceneFromString(
      root(`<Node name="n">${implicit}<EulerImplicitSolver name="second"/>
      <MechanicalObject name="dofs" position="0 0 0  1 0 0  2 0 0"/><UniformMass totalMass="3"/>${springs}</Node>`),
    );
    scene.step(3);
    const { warnings } = scene.checkpoint();
    expect(warnings.map((w) => w.message)).to.have.length(1);
    expect(warnings[0].message).to.contain(
      "/n has 2 ODE solvers (EulerImplicitSolver 'EulerImplicitSolver1', EulerImplicitSolver 'second')",
    );
    expect(warnings[0].message).to.contain('a resumed run may differ');
  });

  it('RandomPointDistributionInSurface following a moving surface: the draws go on from where they were', async () => {
    // The engine's surface is the moving state's; each read of inPoints after a step redraws, continuing the generator.
    const xml = root(`${implicit}<MeshTopology name="cube" position="0 0 0  1 0 0  0 1 0  1 1 0  0 0 1  1 0 1  0 1 1  1 1 1"
        triangles="0 2 3  0 3 1  4 5 7  4 7 6  0 1 5  0 5 4  2 6 7  2 7 3  0 4 6  0 6 2  1 3 7  1 7 5"/>
      <MechanicalObject name="dofs" velocity="0 0 0  0.1 0 0  0 0.1 0  0.1 0.1 0  0 0 0.1  0.1 0 0.1  0 0.1 0.1  0.1 0.1 0.1"/>
      <UniformMass totalMass="1"/>
      <RandomPointDistributionInSurface name="rp" vertices="@dofs.position" triangles="@cube.triangles" randomSeed="7" numberOfInPoints="4" minDistanceBetweenPoints="0.05"/>`);
    const run = async (from: SofaScene | undefined, n: number, strip = false): Promise<{ scene: SofaScene; draws: number[][] }> => {
      const scene = await loadSceneFromString(xml);
      if (from) {
        const { checkpoint } = from.checkpoint();
        if (strip) {
          const own = scene.checkpoint().checkpoint.components.find((c) => c.key === '/rp')!;
          (checkpoint.components.find((c) => c.key === '/rp') as { state: unknown }).state = own.state;
        }
        scene.restore(checkpoint);
      }
      const rp = scene.get('/rp') as unknown as { inPoints: { value: Float64Array } };
      const draws: number[][] = [];
      for (let i = 0; i < n; i++) {
        scene.step();
        draws.push([...rp.inPoints.value]);
      }
      return { scene, draws };
    };
    const full = await run(undefined, 10);
    const first = await run(undefined, 4);
    const resumed = await run(first.scene, 6);
    expect(first.draws.concat(resumed.draws)).to.deep.equal(full.draws);
    expect(full.draws[9]).to.not.deep.equal(full.draws[3]);
    const restarted = await run(first.scene, 6, true);
    expect(first.draws.concat(restarted.draws)).to.not.deep.equal(full.draws);
  });
});
