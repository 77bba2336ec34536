import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSceneFromString, type BaseMechanicalState, type BaseObject, type Data, type SofaScene } from 'sofa-ts';
import { repoRoot } from './corpus-test-support.js';

/**
 * Data that sofa-ts used to accept and ignore: SOFA's behaviour where it is small and clear
 * (keepAlive, updateStiffness, recompute_indices), else a located warning when the scene sets a
 * value that is not honoured; fallbacks taken during a step are said once.
 */

const details = (s: SofaScene): string[] => s.warnings.map((w) => w.detail);

describe('fallbacks: SOFA behaviour instead of accepted-and-ignored Data', () => {
  const h = 0.01;
  async function stickScene(params: string): Promise<SofaScene> {
    return loadSceneFromString(`<Node name="root" dt="${h}" gravity="0 0 -10">
  <FreeMotionAnimationLoop/><BlockGaussSeidelConstraintSolver maxIterations="500" tolerance="1e-14"/>
  <CollisionPipeline/><BruteForceBroadPhase/><BVHNarrowPhase/>
  <NewProximityIntersection alarmDistance="0.2" contactDistance="0.1"/>
  <CollisionResponse response="StickContactConstraint" ${params}/>
  <Node name="floor">
    <MeshTopology position="-5 -5 0  5 -5 0  5 5 0  -5 5 0" triangles="0 1 2  0 2 3"/>
    <MechanicalObject/><TriangleCollisionModel name="floorModel" simulated="0" moving="0"/>
  </Node>
  <Node name="body">
    <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/><CGLinearSolver iterations="100" tolerance="1e-20" threshold="1e-30"/>
    <MechanicalObject name="dofs" position="0 0 0.3"/><UniformMass vertexMass="1"/><UncoupledConstraintCorrection compliance="1"/>
    <SphereCollisionModel radius="0.05"/>
  </Node>
</Node>`);
  }
  const constraints = (s: SofaScene): number =>
    [...s.root.subtreeObjects()].filter((o) => o.className === 'BilateralLagrangianConstraint').length;

  it('StickContactConstraint keepAlive (default 1): the glue holds once the models stop producing outputs; keepAlive=0 lets go', async () => {
    for (const keep of [true, false]) {
      const s = await stickScene(keep ? '' : 'responseParams="keepAlive=0"');
      const x = s.get<BaseMechanicalState>('body/dofs')!;
      let k = 0;
      while (constraints(s) === 0 && k++ < 200) s.step();
      expect(constraints(s), 'glued').to.equal(1);
      s.step(2);
      const z = x.x[2];
      // the floor's model stops taking part: no more outputs for the pair
      s.get<BaseObject & { active: Data<boolean> }>('floor/floorModel')!.active.value = false;
      s.step(10);
      if (keep) {
        expect(constraints(s)).to.equal(1);
        expect(x.x[2]).to.be.closeTo(z, 1e-9);
      } else {
        expect(constraints(s)).to.equal(0);
        // free fall from rest-ish: backward Euler drops it by more than g·(10h)²/2 / 2
        expect(z - x.x[2]).to.be.above(0.004);
      }
    }
  });

  function tetraBeam(extra: string): string {
    return `<Node name="root" gravity="0 0 0" dt="0.01">
  <EulerImplicitSolver/><CGLinearSolver iterations="100" tolerance="1e-12" threshold="1e-20"/>
  <RegularGridTopology n="2 2 3" min="0 0 0" max="1 1 2"/>
  <MechanicalObject name="dofs"/><UniformMass totalMass="1"/>
  <TetrahedronFEMForceField name="ff" youngModulus="1000" poissonRatio="0.3" ${extra}/>
</Node>`;
  }
  /** f(x) of the force field at the rest shape moved by a fixed displacement. */
  function forceAt(s: SofaScene): Float64Array {
    const st = s.get<BaseMechanicalState>('dofs')!;
    const ff = s.get<BaseObject & { addForce(f: Float64Array[], x: Float64Array[], v: Float64Array[]): void }>('ff')!;
    const x = Float64Array.from(st.x0, (v, i) => v + 0.01 * Math.sin(i));
    const f = new Float64Array(x.length);
    ff.addForce([f], [x], [new Float64Array(x.length)]);
    return f;
  }

  it('TetrahedronFEMForceField updateStiffness=1 follows youngModulus set after init; without it the material stays', async () => {
    const reference = forceAt(await loadSceneFromString(tetraBeam('').replace('youngModulus="1000"', 'youngModulus="3000"')));
    for (const update of [true, false]) {
      const s = await loadSceneFromString(tetraBeam(update ? 'updateStiffness="1"' : ''));
      s.get<BaseObject & { youngModulus: Data<Float64Array> }>('ff')!.youngModulus.value = Float64Array.of(3000);
      const f = forceAt(s);
      const diff = Math.max(...f.map((v, i) => Math.abs(v - reference[i])));
      if (update) expect(diff).to.be.below(1e-12 * Math.max(...reference.map(Math.abs)));
      else expect(diff).to.be.above(1e-3);
    }
  });

  it('RestShapeSpringsForceField recompute_indices (default 1): springs follow points set after init; 0 keeps those of init', async () => {
    for (const recompute of [true, false]) {
      const s = await loadSceneFromString(`<Node name="root" gravity="0 0 0">
  <EulerImplicitSolver/><CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-20"/>
  <MechanicalObject name="dofs" position="0 0 0  1 0 0  2 0 0"/><UniformMass totalMass="1"/>
  <RestShapeSpringsForceField name="rs" points="0" stiffness="10" recompute_indices="${recompute ? 1 : 0}"/>
</Node>`);
      s.step(1);
      s.get<BaseObject & { points: Data<Uint32Array> }>('rs')!.points.value = Uint32Array.of(2);
      const ff = s.get<BaseObject & { addForce(f: Float64Array[], x: Float64Array[], v: Float64Array[]): void }>('rs')!;
      const x = Float64Array.of(0.1, 0, 0, 1, 0, 0, 2.1, 0, 0);
      const f = new Float64Array(9);
      ff.addForce([f], [x], [new Float64Array(9)]);
      // f_p = −k·(x_p − x0_p) on the spring's point only
      expect(Array.from(f)).to.deep.equal(recompute ? [0, 0, 0, 0, 0, 0, -10 * (2.1 - 2), 0, 0] : [-10 * 0.1, 0, 0, 0, 0, 0, 0, 0, 0]);
    }
  });
});

describe('fallbacks: located warnings for what is not honoured', () => {
  it("EulerImplicitSolver solveConstraint, LCPConstraintSolver group, a model's contactFriction and contactRestitution", async () => {
    const s = await loadSceneFromString(
      `<Node name="root">
  <FreeMotionAnimationLoop/><LCPConstraintSolver group="1 2"/>
  <Node name="b">
    <EulerImplicitSolver solveConstraint="1"/><CGLinearSolver iterations="25" tolerance="1e-9" threshold="1e-9"/>
    <MechanicalObject position="0 0 0"/><UniformMass totalMass="1"/><UncoupledConstraintCorrection/>
    <PointCollisionModel contactFriction="0.01" contactRestitution="0.5"/>
  </Node>
</Node>`,
      { fileName: 'w.scn' },
    );
    const w = path.resolve('w.scn');
    expect(s.warnings.map((x) => x.message)).to.deep.equal([
      `${w}:2:50: LCPConstraintSolver 'LCPConstraintSolver1': group=1 2 is not honoured: this solver handles every constraint of the scene, whatever its group`,
      `${w}:4:26: EulerImplicitSolver 'EulerImplicitSolver1': solveConstraint=1 is not honoured: sofa-ts solves no constraint inside the ODE solver; Lagrangian constraints are solved by a FreeMotionAnimationLoop`,
      `${w}:6:26: PointCollisionModel 'PointCollisionModel1': contactFriction=0.01 is not used: the contact responses of sofa-ts take no friction from the models (FrictionContactConstraint reads mu from the CollisionResponse's responseParams)`,
      `${w}:6:49: PointCollisionModel 'PointCollisionModel1': contactRestitution=0.5 is not used: the contact responses of sofa-ts have no restitution`,
    ]);
  });

  const unilateral = fs.readFileSync(path.join(repoRoot, 'scenes/compliant/unilateral-contact.scn'), 'utf8');

  it('MinresSolver restart, and LDLTSolver meeting a unilateral projector (solved as bilateral), are said', async () => {
    const minres = await loadSceneFromString(
      unilateral.replace(
        '<SequentialSolver name="kkt" iterations="100" precision="1e-10"/>',
        '<MinresSolver name="kkt" iterations="100" precision="1e-10" restart="3"/>',
      ),
    );
    expect(details(minres)).to.deep.equal(['restart=3 is not honoured: every solve starts from the previous solution (warm start)']);
    const ldlt = await loadSceneFromString(
      unilateral.replace('<SequentialSolver name="kkt" iterations="100" precision="1e-10"/>', '<LDLTSolver name="kkt"/>'),
    );
    ldlt.step(2);
    expect(details(ldlt)).to.deep.equal([
      "UnilateralConstraint 'UnilateralConstraint1' (on MechanicalObject 'heights') is not applied: LDLTSolver solves every constraint row as bilateral (an equality); use SequentialSolver for unilateral and friction constraints",
    ]);
  });

  it('the local Uzawa inner loop stopped by maxLocalIterations is said once, with the first time', async () => {
    const s = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 -10 0">
  <FreeMotionAnimationLoop/>
  <BipotentialUzawaConstraintSolver method="local" tolerance="1e-12" localTolerance="1e-30" maxLocalIterations="2"/>
  <Node name="ground"><MechanicalObject name="dofs" position="0 0 0"/></Node>
  <Node name="p">
    <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/><CGLinearSolver iterations="50" tolerance="1e-16" threshold="1e-30"/>
    <MechanicalObject name="dofs" position="0 0 0" velocity="0.5 0 0"/><UniformMass totalMass="2"/><UncoupledConstraintCorrection compliance="0.5"/>
  </Node>
  <UnilateralLagrangianConstraint object1="@ground/dofs" object2="@p/dofs" first_point="0" second_point="0" normals="0 1 0" mu="0.3"/>
</Node>`);
    s.step(5);
    expect(details(s)).to.deep.equal([
      'the local Uzawa inner loop reached maxLocalIterations=2 before localTolerance=1e-30, first in the step at time 0 (2 inner loops); its last iterate is used (said once)',
    ]);
  });

  it('an infeasible inverse problem (minForce > maxForce) says that no actuation is applied', async () => {
    const cable = Array.from({ length: 10 }, (_, i) => i + 1 + 11 * 5).join(' ');
    const s = await loadSceneFromString(`<Node name="root" dt="1" gravity="0 0 0">
  <RequiredPlugin name="SoftRobots"/><RequiredPlugin name="SoftRobots.Inverse"/>
  <FreeMotionAnimationLoop/><QPInverseProblemSolver name="solver" epsilon="0"/>
  <Node name="finger">
    <EulerImplicitSolver firstOrder="1"/><SparseLDLSolver/>
    <RegularGridTopology nx="11" ny="3" nz="3" min="0 0 0" max="100 10 10"/>
    <MechanicalObject name="dofs"/><UniformMass totalMass="0.01"/>
    <HexahedronFEMForceField youngModulus="18000" poissonRatio="0.3" method="large"/>
    <BoxROI name="clamp" box="-1 -1 -1 1 11 11"/><FixedProjectiveConstraint indices="@clamp.indices"/>
    <LinearSolverConstraintCorrection/>
    <CableActuator name="cable" indices="${cable}" pullPoint="-10 10 5" minForce="5" maxForce="1"/>
    <PositionEffector indices="54" effectorGoal="100 10 5" useDirections="0 1 0"/>
  </Node>
</Node>`);
    s.step(3);
    expect(s.get<BaseObject & { status: Data<number> }>('solver')!.status.value).to.equal(1);
    expect(details(s)).to.deep.equal([
      'the inverse problem was infeasible (status 1) at time 0: no actuation (λ = 0) is applied for that step; the bounds and equalities cannot all hold',
    ]);
  });

  it('a MechanicalObject over a topology with points but no positions keeps its own point (SOFA hasPos() false), with a warning', async () => {
    // SOFA's Hexa2TetraTopologicalMapping clears its output container (positions included) and sets only nbPoints
    const s = await loadSceneFromString(`<Node name="root">
  <Node name="volume">
    <RegularGridTopology name="grid" n="3 3 3" min="0 0 0" max="1 1 1"/>
    <TetrahedronSetTopologyContainer name="container" position="@grid.position"/>
    <TetrahedronSetTopologyModifier/>
    <Hexa2TetraTopologicalMapping input="@grid" output="@container"/>
  </Node>
  <Node name="body">
    <TetrahedronSetTopologyContainer name="container" src="@../volume/container"/>
    <MechanicalObject name="dofs"/>
  </Node>
</Node>`);
    expect(s.get<BaseMechanicalState>('body/dofs')!.size).to.equal(1);
    expect(details(s).some((d) => /has 27 points but no positions, so this state keeps its 1 point/.test(d))).to.equal(true);
  });
});
