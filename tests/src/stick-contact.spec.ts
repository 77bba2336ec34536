import { expect } from 'chai';
import { loadSceneFromString, type BaseMechanicalState, type BaseObject, type SofaScene } from 'sofa-ts';

/**
 * StickContactConstraint through scenes (FreeMotionAnimationLoop, Gauss-Seidel): a contact glues
 * the two contact points at the relative position they have when the contact is detected, so a
 * body stops where it is first detected within the alarm distance of a fixed floor, whatever its
 * tangential velocity (closed form: the free-fall recurrence of backward Euler up to that step,
 * then constant), whereas FrictionContactConstraint with mu = 0 lets it slide at constant speed.
 */

const g = 10,
  h = 0.01;
const alarm = 0.2,
  contactDistance = 0.1;

function floor(): string {
  const L = 5;
  return `<Node name="floor">
      <MeshTopology position="${-L} ${-L} 0  ${L} ${-L} 0  ${L} ${L} 0  ${-L} ${L} 0" triangles="0 1 2  0 2 3"/>
      <MechanicalObject/>
      <TriangleCollisionModel name="floorModel" simulated="0" moving="0"/>
    </Node>`;
}

async function scene(response: string, body: string, loop = '<FreeMotionAnimationLoop/>'): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" dt="${h}" gravity="0 0 ${-g}">
    ${loop}
    <BlockGaussSeidelConstraintSolver maxIterations="500" tolerance="1e-14"/>
    <CollisionPipeline/>
    <BruteForceBroadPhase/>
    <BVHNarrowPhase/>
    <NewProximityIntersection alarmDistance="${alarm}" contactDistance="${contactDistance}"/>
    <CollisionResponse name="response" ${response}/>
    ${floor()}
    ${body}
  </Node>`);
}

/** Free particles of mass m (backward Euler, no damping) with an uncoupled correction. */
function body(collision: string, position: string, velocity: string, m = 1): string {
  return `<Node name="body">
      <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
      <CGLinearSolver iterations="100" tolerance="1e-20" threshold="1e-30"/>
      <MechanicalObject name="dofs" position="${position}" velocity="${velocity}"/>
      <UniformMass vertexMass="${m}"/>
      <UncoupledConstraintCorrection compliance="${1 / m}"/>
      ${collision}
    </Node>`;
}

/**
 * Positions of a particle (x, y, z) step by step: backward Euler free fall until the start of a step
 * finds it within `reach` of the floor (z < reach), then held where it was at the start of that step.
 */
function stuckTrajectory(x0: number[], v0: number[], reach: number, steps: number): { x: number[][]; stuckAt: number } {
  const x = [...x0],
    v = [...v0];
  const out: number[][] = [];
  let stuckAt = -1;
  for (let n = 0; n < steps; n++) {
    if (stuckAt < 0 && x[2] < reach) stuckAt = n;
    if (stuckAt < 0) {
      v[2] -= g * h;
      for (let a = 0; a < 3; a++) x[a] += h * v[a];
    }
    out.push([...x]);
  }
  return { x: out, stuckAt };
}

function objectsOf(s: SofaScene, className: string): BaseObject[] {
  const out: BaseObject[] = [];
  s.root.visit((n) => {
    for (const o of n.objects) if (o.className === className) out.push(o);
  });
  return out;
}

describe('StickContactConstraint in scenes', () => {
  const r = 0.25;
  const x0 = [1, -2, 0.8],
    v0 = [1.5, 0.5, 0];

  it('a sphere thrown along the floor stops where it is first detected: no sliding, no penetration', async () => {
    const s = await scene('response="StickContactConstraint"', body(`<SphereCollisionModel radius="${r}"/>`, x0.join(' '), v0.join(' ')));
    const x = s.get<BaseMechanicalState>('body/dofs')!;
    // detected once the centre is within alarmDistance + r of the plane
    const ref = stuckTrajectory(x0, v0, alarm + r, 80);
    expect(ref.stuckAt).to.be.greaterThan(5);
    for (let n = 0; n < 80; n++) {
      s.step();
      for (let a = 0; a < 3; a++) expect(x.x[a], `x[${a}] at step ${n + 1}`).to.be.closeTo(ref.x[n][a], 1e-10);
      if (n > ref.stuckAt) for (let a = 0; a < 3; a++) expect(Math.abs(x.v[a])).to.be.below(1e-10);
    }
    const c = objectsOf(s, 'BilateralLagrangianConstraint');
    expect(c.length).to.equal(1);
    expect(c[0].getName()).to.equal('floorModel-SphereCollisionModel1');
    expect(c[0].context.getName()).to.equal('body');
  });

  it('FrictionContactConstraint with mu = 0 lets the same sphere slide at its initial tangential speed', async () => {
    const s = await scene(
      'response="FrictionContactConstraint" responseParams="mu=0"',
      body(`<SphereCollisionModel radius="${r}"/>`, x0.join(' '), v0.join(' ')),
    );
    const x = s.get<BaseMechanicalState>('body/dofs')!;
    s.step(80);
    // resting on the floor at the contact distance, still moving tangentially at v0
    expect(x.x[2]).to.be.closeTo(contactDistance + r, 1e-9);
    expect(x.v[0]).to.be.closeTo(v0[0], 1e-10);
    expect(x.v[1]).to.be.closeTo(v0[1], 1e-10);
    expect(x.x[0]).to.be.closeTo(x0[0] + 80 * h * v0[0], 1e-9);
  });

  it('a cloud of points: each point is glued where it is first detected (one bilateral block per contact)', async () => {
    const starts = [
      [-2, 1, 0.5],
      [-1.5, 1.2, 0.62],
      [-1, 2, 0.81],
      [0, 3, 0.3],
    ];
    const vel = [1, 0.5, 0];
    const s = await scene(
      'response="StickContactConstraint"',
      body('<PointCollisionModel/>', starts.flat().join(' '), starts.map(() => vel.join(' ')).join(' ')),
    );
    const x = s.get<BaseMechanicalState>('body/dofs')!;
    const refs = starts.map((p) => stuckTrajectory(p, vel, alarm, 60));
    expect(new Set(refs.map((q) => q.stuckAt)).size).to.equal(4); // stopped at four different steps
    for (let n = 0; n < 60; n++) {
      s.step();
      refs.forEach((q, i) => {
        for (let a = 0; a < 3; a++) expect(x.x[3 * i + a], `point ${i}, x[${a}] at step ${n + 1}`).to.be.closeTo(q.x[n][a], 1e-10);
      });
    }
  });

  it("keepAlive is read from responseParams (SOFA's bool); other values are refused at the first contact", async () => {
    const ok = await scene(
      'response="StickContactConstraint" responseParams="keepAlive=0"',
      body(`<SphereCollisionModel radius="${r}"/>`, '0 0 0.3', '0 0 0'),
    );
    ok.step(3);
    expect(objectsOf(ok, 'BilateralLagrangianConstraint').length).to.equal(1);
    const bad = await scene(
      'response="StickContactConstraint" responseParams="keepAlive=maybe"',
      body(`<SphereCollisionModel radius="${r}"/>`, '0 0 0.3', '0 0 0'),
    );
    expect(() => bad.step(3)).to.throw(/keepAlive must be 0 or 1/);
  });

  it('a rigid sphere is refused (SOFA registers StickContactConstraint for Vec3 models only)', async () => {
    const s = await scene(
      'response="StickContactConstraint"',
      `<Node name="body">
        <EulerImplicitSolver/>
        <CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-20"/>
        <MechanicalObject template="Rigid3d" position="0 0 0.3  0 0 0 1"/>
        <UniformMass totalMass="1"/>
        <UncoupledConstraintCorrection/>
        <SphereCollisionModel radius="${r}"/>
      </Node>`,
    );
    expect(() => s.step(3)).to.throw(/does not handle rigidsphere elements/);
  });

  it('under DefaultAnimationLoop the first contact fails, located at the contact manager', async () => {
    const s = await scene(
      'response="StickContactConstraint"',
      body(`<SphereCollisionModel radius="${r}"/>`, '0 0 0.3', '0 0 0'),
      '<DefaultAnimationLoop/>',
    );
    expect(() => s.step(3)).to.throw(/StickContactConstraint.*DefaultAnimationLoop does not solve/);
  });
});
