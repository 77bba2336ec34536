import { expect } from 'chai';
import { CONTACT_SLIDING, CONTACT_STICKY, type BaseObject, type Node, type PersistentContactConstraint } from '@sofa-ts/core';
import { loadSceneFromString, mapping, type SofaScene } from 'sofa-ts';

/**
 * PersistentContact's PersistentFrictionContact on a rigid block (four corner points, unit mass)
 * resting on a fixed plane under a gravity tilted by θ (tan θ = 1/2): Coulomb's law says the block
 * sticks when μ ≥ tan θ and slides with acceleration g·(sin θ − μ·cos θ) otherwise, the friction
 * force of each sliding contact then on the cone, |λ_t| = μ·λ_n. The block's contact points are
 * held by a PersistentContactRigidMapping: while the contacts stick they stay the same material
 * points of the block (the same local coordinates in its frame). The scene names the plugin
 * (RequiredPlugin PersistentContact), which is built in.
 */
const g = 9.81;
const theta = Math.atan(0.5);
const dt = 0.01;

/** The root of the scenes: gravity along the plane's slope θ, the contact pipeline with `response`, the fixed plane z = 0. */
function tiltedPlane(response: string, planeGroup: string): string {
  const gravity = `${g * Math.sin(theta)} 0 ${-g * Math.cos(theta)}`;
  return `<Node name="root" dt="${dt}" gravity="${gravity}">
    <RequiredPlugin name="PersistentContact"/>
    <FreeMotionAnimationLoop/>
    <BlockGaussSeidelConstraintSolver tolerance="1e-12" maxIterations="2000"/>
    <CollisionPipeline/>
    <BruteForceBroadPhase/>
    <BVHNarrowPhase/>
    <MinProximityIntersection alarmDistance="0.1" contactDistance="0.01"/>
    ${response}
    <Node name="plane">
      <MechanicalObject position="-10 -10 0  10 -10 0  10 10 0  -10 10 0"/>
      <MeshTopology triangles="0 1 2  0 2 3"/>
      <TriangleCollisionModel moving="0" simulated="0"${planeGroup}/>
    </Node>`;
}

function blockScene(mu: number): string {
  return `${tiltedPlane(`<CollisionResponse response="PersistentFrictionContact" responseParams="mu=${mu}"/>`, '')}
    <Node name="block">
      <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
      <CGLinearSolver iterations="100" tolerance="1e-16" threshold="1e-30"/>
      <MechanicalObject name="dofs" template="Rigid3d" position="0 2 0.51 0 0 0 1"/>
      <UniformMass totalMass="1"/>
      <UncoupledConstraintCorrection/>
      <Node name="collision">
        <MechanicalObject name="cm" position="-0.5 -0.5 -0.5  0.5 -0.5 -0.5  0.5 0.5 -0.5  -0.5 0.5 -0.5"/>
        <PointCollisionModel/>
        <RigidMapping name="colmap"/>
      </Node>
      <Node name="contacts">
        <MechanicalObject name="cp"/>
        <PersistentContactRigidMapping name="pmap" nameOfInputMap="colmap" input="@../dofs" output="@cp"/>
      </Node>
    </Node>
  </Node>`;
}

function objects(root: Node): BaseObject[] {
  const out: BaseObject[] = [];
  root.visit((n) => {
    out.push(...n.objects);
    return true;
  });
  return out;
}

function contactConstraint(scene: SofaScene): PersistentContactConstraint & { contactCount: number } {
  const c = objects(scene.root).find((o) => typeof (o as { setInitForce?: unknown }).setInitForce === 'function');
  expect(c, 'the persistent contact constraint').to.not.equal(undefined);
  return c as unknown as PersistentContactConstraint & { contactCount: number };
}

async function run(mu: number, steps: number) {
  const scene = await loadSceneFromString(blockScene(mu));
  const dofs = objects(scene.root).find((o) => o.getName() === 'dofs') as unknown as { x: Float64Array };
  const pmap = objects(scene.root).find((o) => o instanceof mapping.PersistentContactRigidMapping) as InstanceType<
    typeof mapping.PersistentContactRigidMapping
  >;
  const x0 = Array.from(dofs.x.subarray(0, 3));
  // count the points the response adds (new material points) and keeps (those of the last step)
  const calls = { add: [] as number[], keep: [] as number[] };
  const add = pmap.addContactPointFromInputMapping.bind(pmap),
    keep = pmap.keepContactPointFromInputMapping.bind(pmap);
  pmap.addContactPointFromInputMapping = (px, py, pz) => (calls.add[calls.add.length - 1]++, add(px, py, pz));
  pmap.keepContactPointFromInputMapping = (i) => (calls.keep[calls.keep.length - 1]++, keep(i));
  const locals: Float64Array[] = [];
  const states: number[][] = [];
  const ratios: number[] = [];
  for (let s = 0; s < steps; s++) {
    calls.add.push(0);
    calls.keep.push(0);
    scene.step();
    locals.push(Float64Array.from(pmap.contactPoints.local));
    const c = contactConstraint(scene);
    const f = new Float64Array(3);
    const st: number[] = [];
    for (let k = 0; k < c.contactCount; k++) {
      st.push(c.contactState(k));
      c.contactForce(k, f, 0);
      if (f[0] > 0) ratios.push(Math.hypot(f[1], f[2]) / f[0]);
    }
    states.push(st);
  }
  const x = Array.from(dofs.x.subarray(0, 3));
  return { scene, x0, x, locals, states, ratios, calls };
}

/** Backward Euler from rest under a constant acceleration a: v_n = n·a·dt, x_n = a·dt²·n(n+1)/2. */
const eulerDistance = (a: number, n: number): number => (a * dt * dt * n * (n + 1)) / 2;

describe('PersistentFrictionContact (PersistentContact plugin): a block on a plane', function () {
  this.timeout(60000);
  const steps = 30;

  it('μ = 0.9 > tan θ: the block sticks, its four contacts keep the same material points step after step', async () => {
    const r = await run(0.9, steps);
    expect(Math.abs(r.x[0] - r.x0[0]), 'no slide along the slope').to.be.below(1e-8);
    expect(Math.abs(r.x[2] - r.x0[2]), 'resting on the plane').to.be.below(1e-6);
    for (const st of r.states.slice(1)) {
      expect(st.length).to.equal(4);
      for (const s of st) expect(s).to.equal(CONTACT_STICKY);
    }
    // the first step creates the four points, every later one keeps them
    expect(r.calls.add[0]).to.equal(4);
    expect(r.calls.add.slice(1).every((n) => n === 0)).to.equal(true);
    expect(r.calls.keep.slice(1).every((n) => n === 4)).to.equal(true);
    // the local coordinates of the contact points in the block's frame do not change
    const first = r.locals[1];
    expect(first.length).to.equal(12);
    for (const l of r.locals.slice(2)) expect(Array.from(l)).to.deep.equal(Array.from(first));
    // they are the block's corners (the models' own contact distance, proximity, is 0: no offset)
    const corners = [-0.5, -0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, -0.5, -0.5, 0.5, -0.5];
    const sorted = (a: ArrayLike<number>) =>
      [0, 1, 2, 3].map((i) => Array.from(a).slice(3 * i, 3 * i + 3)).sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    const got = sorted(first),
      want = sorted(corners);
    got.forEach((p, i) => p.forEach((v, a) => expect(v).to.be.closeTo(want[i][a], 1e-6)));
  });

  it('μ = 0, the reference: the block slides freely, x_n = g·sin θ·dt²·n(n+1)/2 (backward Euler)', async () => {
    const r = await run(0, steps);
    const expected = eulerDistance(g * Math.sin(theta), steps);
    expect(r.x[0] - r.x0[0]).to.be.closeTo(expected, 1e-6 * expected + 1e-9);
  });

  it("μ = 0.2 < tan θ: the block slides with a = g·(sin θ − μ·cos θ), each contact's friction on Coulomb's cone (|λ_t| = μ·λ_n)", async () => {
    const mu = 0.2;
    const r = await run(mu, steps);
    const expected = eulerDistance(g * (Math.sin(theta) - mu * Math.cos(theta)), steps);
    expect(r.x[0] - r.x0[0]).to.be.closeTo(expected, 1e-3 * expected);
    for (const st of r.states.slice(1)) for (const s of st) expect(s).to.equal(CONTACT_SLIDING);
    // sliding contacts take new material points at every step
    expect(r.calls.add.every((n) => n === 4)).to.equal(true);
    expect(r.calls.keep.every((n) => n === 0)).to.equal(true);
    expect(r.ratios.length).to.be.above(0);
    for (const q of r.ratios) expect(q).to.be.closeTo(mu, 1e-9);
  });
});

/**
 * The same on a deformable block (a unit cube of five tetrahedra, FEM): its contact points are held
 * by a PersistentContactBarycentricMapping on the tetrahedra, found through the collision model's
 * BarycentricMapping (nameOfInputMap), as in SOFA's grasping.scn.
 */
function deformableScene(mu: number): string {
  const cube = '0 2 0.01  1 2 0.01  0 3 0.01  1 3 0.01  0 2 1.01  1 2 1.01  0 3 1.01  1 3 1.01';
  return `${tiltedPlane(`<RuleBasedContactManager response="FrictionContactConstraint" rules="1 2 PersistentFrictionContact?mu=${mu}"/>`, ' group="1"')}
    <Node name="block">
      <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
      <SparseLDLSolver name="ldl"/>
      <TetrahedronSetTopologyContainer name="topo" position="${cube}" tetrahedra="0 1 2 4  1 3 2 7  1 2 4 7  1 4 5 7  2 4 6 7"/>
      <MechanicalObject name="dofs" position="${cube}"/>
      <UniformMass totalMass="1"/>
      <TetrahedronFEMForceField youngModulus="1e5" poissonRatio="0.3"/>
      <LinearSolverConstraintCorrection linearSolver="@ldl"/>
      <Node name="collision">
        <MechanicalObject name="cm" position="0.1 2.1 0.01  0.9 2.1 0.01  0.9 2.9 0.01  0.1 2.9 0.01"/>
        <PointCollisionModel group="2"/>
        <BarycentricMapping name="colmap"/>
      </Node>
      <Node name="contacts">
        <MechanicalObject name="cp"/>
        <PersistentContactBarycentricMapping name="pmap" nameOfInputMap="colmap" input="@../dofs" output="@cp"/>
      </Node>
    </Node>
  </Node>`;
}

describe('PersistentFrictionContact (PersistentContact plugin): a deformable block on a plane', function () {
  this.timeout(60000);
  const steps = 30;

  async function runDeformable(mu: number) {
    const scene = await loadSceneFromString(deformableScene(mu));
    const all = objects(scene.root);
    const dofs = all.find((o) => o.getName() === 'dofs') as unknown as { x: Float64Array; size: number };
    const pmap = all.find((o) => o instanceof mapping.PersistentContactBarycentricMapping) as InstanceType<
      typeof mapping.PersistentContactBarycentricMapping
    >;
    const calls = { add: [] as number[], keep: [] as number[] };
    const add = pmap.addContactPointFromInputMapping.bind(pmap),
      keep = pmap.keepContactPointFromInputMapping.bind(pmap);
    pmap.addContactPointFromInputMapping = (px, py, pz) => (calls.add[calls.add.length - 1]++, add(px, py, pz));
    pmap.keepContactPointFromInputMapping = (i) => (calls.keep[calls.keep.length - 1]++, keep(i));
    const mean = () => {
      let m = 0;
      for (let i = 0; i < dofs.size; i++) m += dofs.x[3 * i] / dofs.size;
      return m;
    };
    const x0 = mean();
    const points: string[] = [];
    const states: number[][] = [];
    const cone: number[] = [];
    const f = new Float64Array(3);
    for (let s = 0; s < steps; s++) {
      calls.add.push(0);
      calls.keep.push(0);
      scene.step();
      const cp = pmap.contactPoints;
      points.push(JSON.stringify([Array.from(cp.element), Array.from(cp.coordinates)]));
      const c = contactConstraint(scene);
      const st: number[] = [];
      for (let k = 0; k < c.contactCount; k++) {
        st.push(c.contactState(k));
        c.contactForce(k, f, 0);
        if (c.contactState(k) === CONTACT_SLIDING) cone.push(Math.hypot(f[1], f[2]) / (mu * f[0]));
      }
      states.push(st);
    }
    return { slide: mean() - x0, calls, points, states, cone };
  }

  it('μ = 0.9 > tan θ: it sticks; a contact that stuck keeps its tetrahedron and barycentric coordinates, one that slid takes a new point', async () => {
    const r = await runDeformable(0.9);
    expect(Math.abs(r.slide), 'no slide along the slope (only the elastic shear)').to.be.below(1e-3);
    // the rule, step by step: kept points = the contacts that stuck at the last step
    expect(r.calls.add[0]).to.equal(4);
    for (let s = 1; s < steps; s++) {
      const stuck = r.states[s - 1].filter((x) => x === CONTACT_STICKY).length;
      expect(r.calls.keep[s], `step ${s}`).to.equal(stuck);
      expect(r.calls.add[s], `step ${s}`).to.equal(4 - stuck);
    }
    // the lightly loaded corner slips on the cone in the first steps, then all four stick and stay
    for (const q of r.cone) expect(q).to.be.closeTo(1, 1e-9);
    const settled = r.states.findIndex((st, s) => s > 0 && r.states.slice(s).every((x) => x.every((y) => y === CONTACT_STICKY)));
    expect(settled, 'all contacts stick from some step on').to.be.within(1, steps - 10);
    for (let s = settled + 1; s < steps; s++) expect(r.points[s], `points at step ${s}`).to.equal(r.points[settled]);
  });

  it('μ = 0.2 < tan θ: it slides, taking new material points at every step', async () => {
    const r = await runDeformable(0.2);
    const expected = eulerDistance(g * (Math.sin(theta) - 0.2 * Math.cos(theta)), steps);
    expect(r.slide).to.be.closeTo(expected, 0.05 * expected);
    expect(r.calls.add.every((n) => n === 4)).to.equal(true);
    expect(r.calls.keep.every((n) => n === 0)).to.equal(true);
    for (const q of r.cone) expect(q).to.be.closeTo(1, 1e-9);
  });
});
