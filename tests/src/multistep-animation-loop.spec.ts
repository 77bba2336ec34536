import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadScene, loadSceneFromString, collision, type BaseMechanicalState, type SofaScene } from 'sofa-ts';
import { corpusRoot } from './corpus-test-support.js';

/**
 * MultiStepAnimationLoop through the XML path. The oracle is DefaultAnimationLoop: one step of dt
 * with collisionSteps·integrationSteps sub-steps integrates exactly as DefaultAnimationLoop stepping
 * with dt/(collisionSteps·integrationSteps) (the same solvers, the same order of operations), so
 * the states must be equal bit for bit; detection runs once per collision step.
 */

/** A cantilever of tetrahedra (implicit Euler, large-displacement FEM) under gravity. */
function fem(loop: string, dt: number): string {
  return `<Node name="root" dt="${dt}" gravity="0 -9.81 0">
  ${loop}
  <Node name="beam">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <SparseLDLSolver/>
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
</Node>`;
}

/** A string of three particles on springs hanging from a fixed one (implicit Euler, CG). */
function springs(loop: string, dt: number): string {
  return `<Node name="root" dt="${dt}" gravity="0 -9.81 0">
  ${loop}
  <Node name="chain">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="100" tolerance="1e-20" threshold="1e-30"/>
    <MechanicalObject name="dofs" position="0 0 0  1 0 0  2 0 0  3 0 0"/>
    <UniformMass totalMass="4"/>
    <FixedProjectiveConstraint indices="0"/>
    <StiffSpringForceField spring="0 1 100 0.5 1  1 2 100 0.5 1  2 3 100 0.5 1"/>
  </Node>
</Node>`;
}

/** A sphere falling on a fixed plane of two triangles (penalty contacts). The alarm distance is the
 *  contact distance: a contact acts from the detection that finds it, so when detection runs matters. */
function sphereOnPlane(loop: string, dt: number): string {
  return `<Node name="root" dt="${dt}" gravity="0 0 -10">
  ${loop}
  <CollisionPipeline/>
  <BruteForceBroadPhase/>
  <BVHNarrowPhase/>
  <NewProximityIntersection alarmDistance="0.1" contactDistance="0.1"/>
  <CollisionResponse name="response" response="PenalityContactForceField"/>
  <Node name="floor">
    <MeshTopology position="-5 -5 0  5 -5 0  5 5 0  -5 5 0" triangles="0 1 2  0 2 3"/>
    <MechanicalObject/>
    <TriangleCollisionModel simulated="0" moving="0" contactStiffness="100"/>
  </Node>
  <Node name="ball">
    <EulerImplicitSolver rayleighMass="0.5"/>
    <SparseLDLSolver/>
    <MechanicalObject name="dofs" position="0.3 0.2 0.8"/>
    <UniformMass totalMass="2"/>
    <SphereCollisionModel radius="0.25" contactStiffness="100"/>
  </Node>
</Node>`;
}

type Build = (loop: string, dt: number) => string;

async function states(
  build: Build,
  loop: string,
  dt: number,
  steps: number,
  dofs: string,
): Promise<{ x: Float64Array; v: Float64Array; t: number; scene: SofaScene }> {
  const scene = await loadSceneFromString(build(loop, dt));
  scene.step(steps);
  const s = scene.get<BaseMechanicalState>(dofs)!;
  return { x: Float64Array.from(s.x), v: Float64Array.from(s.v), t: scene.root.getTime(), scene };
}

function maxDiff(a: Float64Array, b: Float64Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

function pipelineOf(scene: SofaScene): collision.CollisionPipeline {
  const p = scene.root.objects.find((o) => o instanceof collision.CollisionPipeline);
  expect(p, 'CollisionPipeline').to.not.equal(undefined);
  return p as collision.CollisionPipeline;
}

describe('MultiStepAnimationLoop (scene)', () => {
  const dt = 0.04;

  for (const [name, build, dofs] of [
    ['FEM cantilever', fem, 'beam/dofs'],
    ['spring chain', springs, 'chain/dofs'],
  ] as const) {
    for (const n of [1, 4]) {
      it(`${name}: collisionSteps=1, integrationSteps=${n} equals DefaultAnimationLoop with dt/${n}, bit for bit`, async () => {
        const steps = 10;
        const multi = await states(build, `<MultiStepAnimationLoop collisionSteps="1" integrationSteps="${n}"/>`, dt, steps, dofs);
        const ref = await states(build, '<DefaultAnimationLoop/>', dt / n, n * steps, dofs);
        expect(Array.from(multi.x)).to.deep.equal(Array.from(ref.x));
        expect(Array.from(multi.v)).to.deep.equal(Array.from(ref.v));
        expect(multi.t).to.be.closeTo(steps * dt, 1e-12);
        // the comparison is not vacuous: the body moved, and one step of dt integrates differently
        const rest = await states(build, '<DefaultAnimationLoop/>', dt, 0, dofs);
        expect(maxDiff(multi.x, rest.x)).to.be.above(1e-2);
        if (n > 1) {
          const coarse = await states(build, '<DefaultAnimationLoop/>', dt, steps, dofs);
          expect(maxDiff(multi.x, coarse.x)).to.be.above(1e-6);
        }
      });
    }
  }

  it('collisionSteps=3, integrationSteps=2: collision detection runs 3 times per animation step, one pair of animate events', async () => {
    const s = await loadSceneFromString(sphereOnPlane('<MultiStepAnimationLoop collisionSteps="3" integrationSteps="2"/>', 0.03));
    const pipeline = pipelineOf(s);
    let detections = 0;
    const detect = pipeline.computeCollisionDetection.bind(pipeline);
    pipeline.computeCollisionDetection = () => {
      detections++;
      detect();
    };
    const events: string[] = [];
    const propagate = s.root.propagateEvent.bind(s.root);
    s.root.propagateEvent = (e) => {
      if (e.type === 'AnimateBeginEvent' || e.type === 'AnimateEndEvent') events.push(e.type);
      return propagate(e);
    };
    for (let k = 1; k <= 5; k++) {
      s.step();
      expect(detections).to.equal(3 * k);
    }
    expect(events).to.deep.equal(Array.from({ length: 5 }, () => ['AnimateBeginEvent', 'AnimateEndEvent']).flat());
    expect(s.root.getTime()).to.be.closeTo(5 * 0.03, 1e-12);
  });

  it('collisionSteps=m, integrationSteps=1 of a sphere landing on a plane equals DefaultAnimationLoop with dt/m (contacts detected at every sub-step)', async () => {
    const m = 3,
      steps = 40,
      h = 0.03;
    const multi = await states(
      sphereOnPlane,
      `<MultiStepAnimationLoop collisionSteps="${m}" integrationSteps="1"/>`,
      h,
      steps,
      'ball/dofs',
    );
    const ref = await states(sphereOnPlane, '<DefaultAnimationLoop/>', h / m, m * steps, 'ball/dofs');
    expect(Array.from(multi.x)).to.deep.equal(Array.from(ref.x));
    expect(Array.from(multi.v)).to.deep.equal(Array.from(ref.v));
    // the sphere fell on the plane and stays above it (penalty contact), not below z = 0
    expect(multi.x[2]).to.be.within(0.2, 0.36);
  });

  it('one detection per step instead of one per sub-step gives another landing: the sub-step detections are what the loop adds', async () => {
    const m = 3,
      h = 0.03;
    const a = await loadSceneFromString(sphereOnPlane(`<MultiStepAnimationLoop collisionSteps="${m}" integrationSteps="1"/>`, h));
    const b = await loadSceneFromString(sphereOnPlane(`<MultiStepAnimationLoop collisionSteps="1" integrationSteps="${m}"/>`, h));
    const za = a.get<BaseMechanicalState>('ball/dofs')!,
      zb = b.get<BaseMechanicalState>('ball/dofs')!;
    let largest = 0;
    for (let k = 0; k < 40; k++) {
      a.step();
      b.step();
      largest = Math.max(largest, Math.abs(za.x[2] - zb.x[2]));
    }
    expect(largest).to.be.above(1e-6);
  });

  it('collisionSteps > 1 is said to advance the time by dt (SOFA: dt/collisionSteps); zero steps are refused, located', async () => {
    const s = await loadSceneFromString(springs('<MultiStepAnimationLoop collisionSteps="2" integrationSteps="3"/>', dt));
    expect(s.warnings.map((w) => w.message).join('\n')).to.match(/collisionSteps[\s\S]*dt\/collisionSteps/);
    let error: unknown;
    try {
      await loadSceneFromString(springs('<MultiStepAnimationLoop integrationSteps="0"/>', dt));
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.match(/integrationSteps/);
    expect(String(error)).to.match(/> 0/);
  });

  const example = path.join(corpusRoot, 'sofa', 'examples', 'Component', 'AnimationLoop', 'MultiStepAnimationLoop.scn');
  (fs.existsSync(example) ? it : it.skip)(
    "SOFA's example scene (20 collision × 4 integration steps, rigid tori) runs 20 steps with finite states",
    async function () {
      this.timeout(60000);
      const share = path.join(corpusRoot, 'sofa', 'share');
      const s = await loadScene(example, { dataPaths: [share] });
      s.step(20);
      expect(s.root.getTime()).to.be.closeTo(20, 1e-9);
      let checked = 0;
      s.root.visit((n) => {
        for (const o of n.objects) {
          const st = o as Partial<BaseMechanicalState>;
          if (st.isMechanicalState !== true) continue;
          for (const a of [st.x!, st.v!]) for (const c of a) expect(Number.isFinite(c)).to.equal(true);
          checked++;
        }
        return true;
      });
      expect(checked).to.equal(9);
      // the rigid tori fall under gravity (or rest on the fixed one), they do not stay in place
      const torus = s.root
        .getChild('ChainRigid')!
        .getChild('TorusRigid-4')!
        .objects.find((o) => (o as Partial<BaseMechanicalState>).isMechanicalState === true) as BaseMechanicalState;
      expect(Math.abs(torus.x[1])).to.be.above(1e-3);
    },
  );
});
