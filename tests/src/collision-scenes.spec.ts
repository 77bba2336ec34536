import { expect } from 'chai';
import { loadSceneFromString, collision, isForceField, type SofaScene, type BaseMechanicalState } from 'sofa-ts';

/**
 * Collision through the XML path: a sphere resting on a plane of triangles (closed-form rest
 * height), contacts appearing and disappearing across steps with CG and SparseLDLSolver, contacts
 * between objects that have their own solvers (isolated interaction forces), mapped collision
 * states, responses that are not implemented, groups and rules.
 */

const g = 10;

function floor(name: string, z: number, half: number, extra = ''): string {
  return `<Node name="${name}">
      <MeshTopology position="${-half} ${-half} ${z}  ${half} ${-half} ${z}  ${half} ${half} ${z}  ${-half} ${half} ${z}" triangles="0 1 2  0 2 3"/>
      <MechanicalObject/>
      <TriangleCollisionModel name="${name}Model" simulated="0" moving="0" contactStiffness="100" ${extra}/>
    </Node>`;
}

function solver(linear: 'CG' | 'LDL', extra = ''): string {
  return (
    `<EulerImplicitSolver ${extra}/>` +
    (linear === 'CG' ? '<CGLinearSolver iterations="200" tolerance="1e-16" threshold="1e-30"/>' : '<SparseLDLSolver/>')
  );
}

function pipeline(response = 'PenalityContactForceField', manager = 'CollisionResponse', managerAttributes = ''): string {
  return `<CollisionPipeline/>
    <BruteForceBroadPhase/>
    <BVHNarrowPhase/>
    <NewProximityIntersection alarmDistance="0.2" contactDistance="0.1"/>
    <${manager} name="response" response="${response}" ${managerAttributes}/>`;
}

async function scene(body: string, gravity = `0 0 ${-g}`, dt = 0.01): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" dt="${dt}" gravity="${gravity}">
    <DefaultAnimationLoop/>
    ${body}
  </Node>`);
}

function contactFields(s: SofaScene): collision.PenalityContactForceField[] {
  const out: collision.PenalityContactForceField[] = [];
  s.root.visit((n) => {
    for (const o of n.objects) if (o instanceof collision.PenalityContactForceField) out.push(o);
  });
  return out;
}

describe('collision in scenes (penalty contacts)', () => {
  // Rest on the plane: k·pen = m·g with k = k1·k2/d, d = contactDistance + r  ⇒  z = d − m·g·d/(k1·k2)
  const m = 2,
    r = 0.25,
    d = 0.1 + r,
    k1k2 = 100 * 100;
  const zRest = d - (m * g * d) / k1k2;

  for (const linear of ['CG', 'LDL'] as const) {
    it(`a sphere dropped on a plane of triangles comes to rest at the contact distance (${linear})`, async () => {
      const s = await scene(`${pipeline()}
        ${floor('floor', 0, 5)}
        <Node name="ball">
          ${solver(linear, 'rayleighMass="0.5"')}
          <MechanicalObject name="dofs" position="0.3 0.2 0.8"/>
          <UniformMass totalMass="${m}"/>
          <SphereCollisionModel radius="${r}" contactStiffness="100"/>
        </Node>`);
      const x = s.get<BaseMechanicalState>('ball/dofs')!;
      s.step(400);
      expect(x.x[2]).to.be.closeTo(zRest, 1e-9);
      expect(Math.abs(x.v[2])).to.be.below(1e-9);
      expect(x.x[0]).to.be.closeTo(0.3, 1e-12);
      const ffs = contactFields(s);
      expect(ffs.length).to.equal(1);
      expect(ffs[0].context.getName()).to.equal('ball');
      expect(ffs[0].getName()).to.equal('floorModel-SphereCollisionModel1');
    });
  }

  it('a floor in a deactivated node takes no part in detection: the sphere falls through it freely', async () => {
    const s = await scene(`${pipeline()}
      <Node name="off" activated="0">${floor('floor', 0, 5)}</Node>
      <Node name="ball">
        ${solver('LDL')}
        <MechanicalObject name="dofs" position="0.3 0.2 0.3"/>
        <UniformMass totalMass="${m}"/>
        <SphereCollisionModel radius="${r}" contactStiffness="100"/>
      </Node>`);
    s.step(40);
    expect(contactFields(s).length).to.equal(0);
    // backward Euler free fall: z_n = z_0 − g·dt²·n(n+1)/2
    expect(s.get<BaseMechanicalState>('ball/dofs')!.x[2]).to.be.closeTo(0.3 - (g * 1e-4 * (40 * 41)) / 2, 1e-9);
  });

  it('a sphere whose collision state is mapped (IdentityMapping) rests at the same height', async () => {
    const s = await scene(`${pipeline()}
      ${floor('floor', 0, 5)}
      <Node name="ball">
        ${solver('LDL', 'rayleighMass="0.5"')}
        <MechanicalObject name="dofs" position="0.3 0.2 0.8"/>
        <UniformMass totalMass="${m}"/>
        <Node name="surface">
          <MechanicalObject/>
          <SphereCollisionModel radius="${r}" contactStiffness="100"/>
          <IdentityMapping/>
        </Node>
      </Node>`);
    const x = s.get<BaseMechanicalState>('ball/dofs')!;
    s.step(400);
    expect(x.x[2]).to.be.closeTo(zRest, 1e-9);
  });

  it('a CompositeCollisionPipeline with one SubCollisionPipeline gives the same trajectory', async () => {
    const body = (pipe: string): string => `${pipe}
      ${floor('floor', 0, 5)}
      <Node name="ball">
        ${solver('CG')}
        <MechanicalObject name="dofs" position="0.3 0.2 0.8"/>
        <UniformMass totalMass="${m}"/>
        <SphereCollisionModel name="ballModel" radius="${r}" contactStiffness="100"/>
      </Node>`;
    const a = await scene(body(pipeline()));
    const b = await scene(
      body(`<BruteForceBroadPhase name="broad"/><BVHNarrowPhase name="narrow"/>
      <NewProximityIntersection name="proximity" alarmDistance="0.2" contactDistance="0.1"/>
      <CollisionResponse name="response"/>
      <SubCollisionPipeline name="sub" collisionModels="@floor/floorModel @ball/ballModel" intersectionMethod="@proximity" contactManager="@response" broadPhaseDetection="@broad" narrowPhaseDetection="@narrow"/>
      <CompositeCollisionPipeline subCollisionPipelines="@sub"/>`),
    );
    for (let k = 0; k < 80; k++) {
      a.step();
      b.step();
      expect(b.get<BaseMechanicalState>('ball/dofs')!.x[2]).to.equal(a.get<BaseMechanicalState>('ball/dofs')!.x[2]);
    }
  });

  it('contacts appear and disappear across steps (CG and SparseLDLSolver agree): off a small floor onto a lower one', async () => {
    const run = async (linear: 'CG' | 'LDL'): Promise<{ z: number[]; counts: number[] }> => {
      const s = await scene(`${pipeline()}
        ${floor('upper', 0, 0.5)}
        ${floor('lower', -1.5, 5)}
        <Node name="ball">
          ${solver(linear)}
          <MechanicalObject name="dofs" position="0 0 ${zRest}" velocity="2 0 0"/>
          <UniformMass totalMass="${m}"/>
          <SphereCollisionModel radius="${r}" contactStiffness="100"/>
        </Node>`);
      const x = s.get<BaseMechanicalState>('ball/dofs')!;
      const z: number[] = [],
        counts: number[] = [];
      for (let k = 0; k < 150; k++) {
        s.step();
        z.push(x.x[2]);
        counts.push(contactFields(s).length);
      }
      return { z, counts };
    };
    const cg = await run('CG');
    const ldl = await run('LDL');
    for (let k = 0; k < cg.z.length; k++) expect(cg.z[k]).to.be.closeTo(ldl.z[k], 1e-8);
    expect(cg.counts).to.deep.equal(ldl.counts);
    // on the upper floor, then in the air (no contact force field left), then on the lower floor
    const firstFree = cg.counts.indexOf(0);
    expect(firstFree).to.be.greaterThan(5);
    const landed = cg.counts.indexOf(1, firstFree);
    expect(landed).to.be.greaterThan(firstFree + 5);
    expect(cg.counts.slice(0, firstFree).every((c) => c === 1)).to.equal(true);
    // in free flight, backward Euler's falling steps: z_{n+1} − 2·z_n + z_{n−1} = −g·h²
    for (let k = firstFree + 2; k < landed - 1; k++) expect(cg.z[k] - 2 * cg.z[k - 1] + cg.z[k - 2]).to.be.closeTo(-g * 1e-4, 1e-9);
    expect(cg.z.at(-1)).to.be.closeTo(-1.5 + zRest, 2e-3);
  });

  it('two bodies with their own solvers: contact forces computed outside the solvers, momentum conserved', async () => {
    const ball = (name: string, x: number, vx: number): string => `<Node name="${name}">
        ${solver('CG')}
        <MechanicalObject name="${name}Dofs" position="${x} 0 0" velocity="${vx} 0 0"/>
        <UniformMass totalMass="${name === 'a' ? 1 : 3}"/>
        <SphereCollisionModel radius="0.3" contactStiffness="100"/>
      </Node>`;
    const s = await scene(`${pipeline()}${ball('a', -1, 2)}${ball('b', 1, -1)}`, '0 0 0');
    const a = s.get<BaseMechanicalState>('a/aDofs')!,
      b = s.get<BaseMechanicalState>('b/bDofs')!;
    const p0 = 1 * 2 + 3 * -1;
    let sawContact = false;
    for (let k = 0; k < 200; k++) {
      s.step();
      const ffs = contactFields(s);
      if (ffs.length > 0) {
        sawContact = true;
        expect(ffs[0].context).to.equal(s.root); // both simulated: in the pipeline's node
      }
      expect(1 * a.v[0] + 3 * b.v[0]).to.be.closeTo(p0, 1e-10);
    }
    expect(sawContact).to.equal(true);
    expect(a.v[0]).to.be.below(0); // bounced back
    expect(b.x[0] - a.x[0]).to.be.greaterThan(0.6);
  });

  it('responses that need Lagrangian constraints fail at the first contact under DefaultAnimationLoop, located at the contact manager', async () => {
    for (const [response, why] of [
      ['FrictionContactConstraint', /DefaultAnimationLoop does not solve/],
      ['StickContactConstraint', /DefaultAnimationLoop does not solve/],
      ['StickContactForceField', /not implemented/],
    ] as const) {
      const s = await scene(`${pipeline(response)}
        ${floor('floor', 0, 5)}
        <Node name="ball">
          ${solver('CG')}
          <MechanicalObject position="0.5 -1 0.4"/>
          <UniformMass totalMass="1"/>
          <SphereCollisionModel radius="0.25"/>
        </Node>`);
      let error: unknown;
      try {
        s.step(20);
      } catch (e) {
        error = e;
      }
      expect(String(error)).to.match(new RegExp(response));
      expect(String(error)).to.match(why);
      expect(String(error)).to.match(/<string>:7:5:/); // the contact manager's line and column in the scene
    }
  });

  it('FrictionContactConstraint under FreeMotionAnimationLoop: a Lagrangian contact holds the sphere at the contact distance', async () => {
    const s = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 0 ${-g}">
      <FreeMotionAnimationLoop/>
      <BlockGaussSeidelConstraintSolver maxIterations="200" tolerance="1e-12"/>
      ${pipeline('FrictionContactConstraint').replace('response="FrictionContactConstraint"', 'response="FrictionContactConstraint" responseParams="mu=0.3"')}
      ${floor('floor', 0, 5)}
      <Node name="ball">
        ${solver('CG')}
        <MechanicalObject name="dofs" position="1 -2 0.5"/>
        <UniformMass totalMass="1"/>
        <UncoupledConstraintCorrection/>
        <SphereCollisionModel radius="${r}"/>
      </Node>
    </Node>`);
    s.step(100);
    const x = s.get<BaseMechanicalState>('ball/dofs')!;
    expect(x.x[2]).to.be.closeTo(d, 1e-9);
    const c = s.getNode('ball')!.objects.find((o) => o.className === 'UnilateralLagrangianConstraint');
    expect(c?.getName()).to.equal('floorModel-SphereCollisionModel1');
  });

  it('groups and rules: models sharing a group, or a rule answering nullptr, get no contact', async () => {
    const ballIn = (extra: string, manager = 'CollisionResponse', floorExtra = ''): Promise<SofaScene> =>
      scene(`${pipeline('PenalityContactForceField', manager, manager === 'RuleBasedContactManager' ? 'rules="floorModel ballModel nullptr"' : '')}
        ${floor('floor', 0, 5, floorExtra)}
        <Node name="ball">
          ${solver('CG')}
          <MechanicalObject name="dofs" position="0 0 0.3"/>
          <UniformMass totalMass="1"/>
          <SphereCollisionModel name="ballModel" radius="0.25" ${extra}/>
        </Node>`);
    const grouped = await ballIn('group="3 4"', 'CollisionResponse', 'group="1 4"');
    grouped.step(30);
    expect(contactFields(grouped).length).to.equal(0);
    expect(grouped.get<BaseMechanicalState>('ball/dofs')!.x[2]).to.be.below(0);
    const ruled = await ballIn('', 'RuleBasedContactManager');
    ruled.step(30);
    expect(contactFields(ruled).length).to.equal(0);
    const plain = await ballIn('');
    plain.step(30);
    expect(contactFields(plain).length).to.equal(1);
    expect(isForceField(contactFields(plain)[0])).to.equal(true);
  });

  it('a model that nothing may pair with keeps the tree of its first detection (no refit, no pair sought); with self collision it is refitted each step', async () => {
    const lone = (self: number) =>
      scene(`${pipeline()}
      <Node name="ball">${solver('CG')}
        <MechanicalObject name="dofs" position="0 0 1  0.5 0 1  1 0 1"/>
        <UniformMass totalMass="1"/>
        <SphereCollisionModel name="spheres" radius="0.1" selfCollision="${self}"/>
      </Node>`);
    const boxes = async (self: number) => {
      const s = await lone(self);
      const model = s.get('/ball/spheres') as unknown as collision.CollisionModel;
      s.step();
      const first = Float64Array.from(model.rootBox());
      s.step(20);
      const x = (s.get('/ball/dofs') as unknown as BaseMechanicalState).x;
      return { first, last: Float64Array.from(model.rootBox()), zNow: x[2] };
    };
    const alone = await boxes(0);
    expect(alone.zNow).to.be.lessThan(0.9); // it fell
    expect(Array.from(alone.last)).to.deep.equal(Array.from(alone.first));
    // min z = 1 − r at the first detection (the model's own contactDistance is 0)
    expect(alone.first[2]).to.be.closeTo(1 - 0.1, 1e-12);
    const self = await boxes(1);
    expect(Array.from(self.first)).to.deep.equal(Array.from(alone.first));
    expect(self.last[2]).to.be.lessThan(alone.first[2] - 0.05);
  });
});
