import { expect } from 'chai';
import { BaseObject, Node, resolvePath } from '@sofa-ts/core';
import { loadSceneFromString, type BaseMechanicalState, type SofaScene } from 'sofa-ts';

/**
 * SOFA's DAG scene graph (a node added to a second parent, as SoftRobots' Tripod tutorial does):
 * the node is visited once, after all its parents; it takes its context, its path and the `..` of
 * link paths from its first parent; the ODE solver whose subtree holds one of its parents drives
 * it. The oracle of the scenes is the same scene written as a tree (XML, which SOFA's references
 * check), with the node under one parent placed so that the visit order is the same: the states
 * must agree bit for bit.
 */

class Probe extends BaseObject {}

/** scene{A{M}, B{M}}: M added to A, then to B (node paths, not files). */
function diamond(): { root: Node; a: Node; b: Node; m: Node } {
  const root = new Node('scene');
  const a = root.createChild('A');
  const b = root.createChild('B');
  const m = a.createChild('M');
  b.addChild(m);
  return { root, a, b, m };
}

describe('DAG scene graph: a node with several parents', () => {
  it('keeps its parents in order, the first giving its path, its root and `..`', () => {
    const { root, a, b, m } = diamond();
    expect(m.parents).to.deep.equal([a, b]);
    expect(m.parent).to.equal(a);
    expect(m.path).to.equal('/scene/A/M');
    expect(m.root).to.equal(root);
    expect(b.children).to.deep.equal([m]);
    const probe = new Probe();
    probe.name.value = 'probe';
    a.addObject(probe);
    expect(resolvePath(m, '../probe')).to.deep.equal({ kind: 'object', object: probe });
    expect(resolvePath(m, '..')).to.deep.equal({ kind: 'node', node: a });
  });

  it('is visited once, after all its parents; pruned only when all its parents are', () => {
    const { root, a, b, m } = diamond();
    const tail = m.createChild('T');
    const order: string[] = [];
    root.visit((n) => {
      order.push(n.getName());
    });
    expect(order).to.deep.equal(['scene', 'A', 'B', 'M', 'T']);

    const prunedA: string[] = [];
    root.visit((n) => {
      prunedA.push(n.getName());
      return n !== a;
    });
    expect(prunedA).to.deep.equal(['scene', 'A', 'B', 'M', 'T']);

    const prunedBoth: string[] = [];
    root.visit((n) => {
      prunedBoth.push(n.getName());
      return n !== a && n !== b;
    });
    expect(prunedBoth).to.deep.equal(['scene', 'A', 'B']);

    // from a subgraph, a parent outside it does not hold the node back (SOFA's descendancy test)
    const fromB: string[] = [];
    b.visit((n) => {
      fromB.push(n.getName());
    });
    expect(fromB).to.deep.equal(['B', 'M', 'T']);
    expect(tail.parents).to.deep.equal([m]);
  });

  it('finds objects up through every parent, the first parent first', () => {
    const { a, b, m } = diamond();
    const inB = new Probe();
    inB.name.value = 'inB';
    b.addObject(inB);
    const isProbe = (o: BaseObject): o is Probe => o instanceof Probe;
    expect(m.getObject(isProbe, 'up')).to.equal(inB);
    const inA = new Probe();
    inA.name.value = 'inA';
    a.addObject(inA);
    expect(m.getObject(isProbe, 'up')).to.equal(inA);
    expect(m.getObjects(isProbe, 'up')).to.deep.equal([inA, inB]);
  });

  it('tells its ancestors of a change through every parent, and leaves a parent on removeChild', () => {
    const { a, b, m } = diamond();
    const ra = a.subtreeRevision,
      rb = b.subtreeRevision;
    m.addObject(new Probe());
    expect(a.subtreeRevision).to.be.greaterThan(ra);
    expect(b.subtreeRevision).to.be.greaterThan(rb);
    a.removeChild(m);
    expect(m.parents).to.deep.equal([b]);
    expect(m.path).to.equal('/scene/B/M');
  });

  it('refuses a second adoption by the same parent and cycles', () => {
    const { root, a, m } = diamond();
    expect(() => a.addChild(m)).to.throw(/already a child of Node 'A'/);
    expect(() => m.addChild(root)).to.throw(/cycle/);
    expect(() => m.addChild(m)).to.throw(/cycle/);
  });
});

const loop = `<DefaultAnimationLoop/>`;

/** Steps both scenes and compares positions and velocities of the states, bit for bit, after each step. */
function expectSameStates(a: SofaScene, b: SofaScene, paths: [string, string][], steps: number): void {
  const pairs = paths.map(([pa, pb]) => [a.get<BaseMechanicalState>(pa)!, b.get<BaseMechanicalState>(pb)!] as const);
  for (const [sa, sb] of pairs) expect(sa.size).to.equal(sb.size).and.be.greaterThan(0);
  const x0 = Float64Array.from(pairs[0][0].x);
  for (let k = 0; k < steps; k++) {
    a.step();
    b.step();
    for (const [sa, sb] of pairs) {
      expect(Array.from(sa.x)).to.deep.equal(Array.from(sb.x));
      expect(Array.from(sa.v)).to.deep.equal(Array.from(sb.v));
    }
  }
  // the scene moved: the comparison is not of two states at rest
  expect(Array.from(pairs[0][0].x)).to.not.deep.equal(Array.from(x0));
}

describe('DAG scene graph in simulated scenes', function () {
  this.timeout(60_000);

  const body = `<Node name="Body">
        <RegularGridTopology nx="4" ny="2" nz="2" min="0 0 0" max="3 1 1"/>
        <MechanicalObject name="dofs"/>
        <UniformMass totalMass="1"/>
        <HexahedronFEMForceField youngModulus="500" poissonRatio="0.3" method="large"/>
        <FixedProjectiveConstraint indices="0 4 8 12"/>
      </Node>`;

  it("a body modelled in one branch and simulated by another branch's solver (Tripod's Modelling/Simulation) moves as the tree with it under the solver", async () => {
    const solver = `<EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/><CGLinearSolver iterations="50" tolerance="1e-12" threshold="1e-20"/>`;
    const tree = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 -9.81 0">${loop}
      <Node name="Modelling"/>
      <Node name="Simulation">${solver}${body}</Node>
    </Node>`);
    const dag = await loadSceneFromString(
      `<Node name="root" dt="0.01" gravity="0 -9.81 0">${loop}
      <Node name="Modelling">${body}</Node>
      <Node name="Simulation">${solver}</Node>
    </Node>`,
      { init: false },
    );
    const modelling = dag.root.getChild('Modelling')!;
    dag.root.getChild('Simulation')!.addChild(modelling.getChild('Body')!);
    dag.init();
    expect(dag.get('/Modelling/Body/dofs')).to.equal(dag.get('/Simulation/Body/dofs'));
    expectSameStates(dag, tree, [['/Modelling/Body/dofs', '/Simulation/Body/dofs']], 10);
  });

  it('a node below two rigid frames, mapped from both by a SubsetMultiMapping (Tripod arms), moves as the tree with it under the last frame', async () => {
    const frames = (m: string, inA: boolean) => `<Node name="root" dt="0.01" gravity="0 -9.81 0">${loop}
      <Node name="Simulation">
        <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
        <SparseLDLSolver/>
        <Node name="A">
          <MechanicalObject name="dofs" template="Rigid3" position="0 0 0 0 0 0 1"/>
          <UniformMass totalMass="1"/>
          ${inA ? m : ''}
        </Node>
        <Node name="B">
          <MechanicalObject name="dofs" template="Rigid3" position="2 0 0 0 0 0 1"/>
          <UniformMass totalMass="2"/>
          <RestShapeSpringsForceField stiffness="50" angularStiffness="20"/>
          ${inA ? '' : m}
        </Node>
      </Node>
    </Node>`;
    const m = `<Node name="M">
        <MechanicalObject name="dofs" template="Rigid3"/>
        <SubsetMultiMapping template="Rigid3,Rigid3" input="@/Simulation/A/dofs @/Simulation/B/dofs" output="@/Simulation/${'$'}/M/dofs" indexPairs="0 0 1 0"/>
        <Node name="Points">
          <MechanicalObject name="dofs" template="Vec3" position="0.5 0 0 1.5 0.2 0"/>
          <RigidMapping input="@/Simulation/${'$'}/M/dofs" output="@dofs" rigidIndexPerPoint="0 1" globalToLocalCoords="true"/>
          <SpringForceField spring="0 1 100 1 1"/>
        </Node>
      </Node>`;
    const tree = await loadSceneFromString(frames(m.replaceAll('$', 'B'), false));
    const dag = await loadSceneFromString(frames(m.replaceAll('$', 'A'), true), { init: false });
    const sim = dag.root.getChild('Simulation')!;
    sim.getChild('B')!.addChild(sim.getChild('A')!.getChild('M')!);
    dag.init();
    expectSameStates(
      dag,
      tree,
      [
        ['/Simulation/A/dofs', '/Simulation/A/dofs'],
        ['/Simulation/B/dofs', '/Simulation/B/dofs'],
        ['/Simulation/A/M/dofs', '/Simulation/B/M/dofs'],
        ['/Simulation/A/M/Points/dofs', '/Simulation/B/M/Points/dofs'],
      ],
      10,
    );
  });

  it("a component that reads a node waiting for its last parent (Tripod's visual model) initialises that node first", async () => {
    const solver = `<EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/><CGLinearSolver iterations="50" tolerance="1e-12" threshold="1e-20"/>`;
    const mech = `<Node name="Mech">
        <RegularGridTopology nx="4" ny="2" nz="2" min="0 0 0" max="3 1 1"/>
        <MechanicalObject name="dofs"/>
        <UniformMass totalMass="1"/>
        <HexahedronFEMForceField youngModulus="500" poissonRatio="0.3" method="large"/>
        <FixedProjectiveConstraint indices="0 4 8 12"/>
      </Node>`;
    const visual = (path: string) => `<Node name="Visual">
        <MechanicalObject name="pts" position="2.5 0.5 0.5  1.2 0.3 0.9"/>
        <BarycentricMapping input="@${path}" output="@pts"/>
      </Node>`;
    // the tree: the state before the mapping that reads it
    const tree = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 -9.81 0">${loop}
      <Node name="Simulation">${solver}
        <Node name="Body">${mech}${visual('/Simulation/Body/Mech/dofs')}</Node>
        <Node name="Holder"/>
      </Node>
    </Node>`);
    // the DAG: Mech is also below Holder, after the visual model: it is visited last
    const dag = await loadSceneFromString(
      `<Node name="root" dt="0.01" gravity="0 -9.81 0">${loop}
      <Node name="Simulation">${solver}
        <Node name="Body">${mech}${visual('/Simulation/Body/Mech/dofs')}</Node>
        <Node name="Holder"/>
      </Node>
    </Node>`,
      { init: false },
    );
    const sim = dag.root.getChild('Simulation')!;
    sim.getChild('Holder')!.addChild(sim.getChild('Body')!.getChild('Mech')!);
    const order: string[] = [];
    dag.root.visit((n) => {
      order.push(n.getName());
    });
    expect(order).to.deep.equal(['root', 'Simulation', 'Body', 'Visual', 'Holder', 'Mech']);
    dag.init();
    expectSameStates(
      dag,
      tree,
      [
        ['/Simulation/Body/Mech/dofs', '/Simulation/Body/Mech/dofs'],
        ['/Simulation/Body/Visual/pts', '/Simulation/Body/Visual/pts'],
      ],
      10,
    );
  });

  it('refuses a node whose parents are in the subtrees of two ODE solvers', async () => {
    const dag = await loadSceneFromString(
      `<Node name="root" dt="0.01" gravity="0 -9.81 0">${loop}
      <Node name="S1"><EulerImplicitSolver/><CGLinearSolver/>${body}</Node>
      <Node name="S2"><EulerImplicitSolver/><CGLinearSolver/></Node>
    </Node>`,
      { init: false },
    );
    dag.root.getChild('S2')!.addChild(dag.root.getChild('S1')!.getChild('Body')!);
    expect(() => {
      dag.init();
      dag.step();
    }).to.throw(/parents in the subtrees of two ODE solvers/);
  });
});
