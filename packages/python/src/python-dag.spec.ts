import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSceneFromString, type BaseMechanicalState } from 'sofa-ts';
import { loadPythonScene } from './load-python-scene.js';

/**
 * SOFA's DAG scene graph from Python (test-scenes/dag_two_parents.py, in the way of SoftRobots'
 * Tripod tutorial: a body modelled in one branch and added to the solver's branch, a node below two
 * rigid frames): the scene asserts what getParents/getFirstParent/parents/hasParent say, and its
 * states are bit for bit those of the equivalent tree written in XML, each node under one parent
 * (the last: the same visit order).
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const scenes = path.resolve(here, '..', 'test-scenes');
const hasPython = spawnSync('python3', ['-c', 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)']).status === 0;

const tree = `<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <Node name="Modelling"/>
  <Node name="Simulation">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <SparseLDLSolver/>
    <Node name="Body">
      <RegularGridTopology nx="4" ny="2" nz="2" min="0 0 0" max="3 1 1"/>
      <MechanicalObject name="dofs"/>
      <UniformMass totalMass="1"/>
      <HexahedronFEMForceField youngModulus="500" poissonRatio="0.3" method="large"/>
      <FixedProjectiveConstraint indices="0 4 8 12"/>
    </Node>
    <Node name="A">
      <MechanicalObject name="dofs" template="Rigid3" position="0 2 0 0 0 0 1"/>
      <UniformMass totalMass="1"/>
    </Node>
    <Node name="B">
      <MechanicalObject name="dofs" template="Rigid3" position="2 2 0 0 0 0 1"/>
      <UniformMass totalMass="2"/>
      <RestShapeSpringsForceField stiffness="50" angularStiffness="20"/>
      <Node name="Link">
        <MechanicalObject name="dofs" template="Rigid3"/>
        <SubsetMultiMapping template="Rigid3,Rigid3" input="@/Simulation/A/dofs @/Simulation/B/dofs" output="@./dofs" indexPairs="0 0 1 0"/>
        <Node name="Points">
          <MechanicalObject name="dofs" template="Vec3" position="0.5 2 0 1.5 2.2 0"/>
          <RigidMapping input="@/Simulation/B/Link/dofs" output="@dofs" rigidIndexPerPoint="0 1" globalToLocalCoords="true"/>
          <SpringForceField spring="0 1 100 1 1"/>
        </Node>
      </Node>
    </Node>
  </Node>
</Node>`;

(hasPython ? describe : describe.skip)('Python scenes with a node under two parents (SOFA DAG)', function () {
  this.timeout(120_000);

  it('give bit for bit the states of the same scene written as a tree', async () => {
    const py = await loadPythonScene(path.join(scenes, 'dag_two_parents.py'));
    try {
      const xml = await loadSceneFromString(tree);
      const pairs: [string, string][] = [
        ['/Modelling/Body/dofs', '/Simulation/Body/dofs'],
        ['/Simulation/A/dofs', '/Simulation/A/dofs'],
        ['/Simulation/B/dofs', '/Simulation/B/dofs'],
        ['/Simulation/A/Link/dofs', '/Simulation/B/Link/dofs'],
        ['/Simulation/A/Link/Points/dofs', '/Simulation/B/Link/Points/dofs'],
      ];
      const states = pairs.map(([p, x]) => [py.get<BaseMechanicalState>(p)!, xml.get<BaseMechanicalState>(x)!] as const);
      const start = Array.from(states[0][0].x);
      for (let k = 0; k < 10; k++) {
        py.step();
        xml.step();
        for (const [a, b] of states) {
          expect(Array.from(a.x)).to.deep.equal(Array.from(b.x));
          expect(Array.from(a.v)).to.deep.equal(Array.from(b.v));
        }
      }
      expect(Array.from(states[0][0].x)).to.not.deep.equal(start);
      expect(py.warnings.map((w) => w.message).join('\n')).to.match(
        /dag_two_parents\.py:\d+:1: Node 'Body' is already a child of Node 'Simulation': added once/,
      );
    } finally {
      py.dispose();
    }
  });
});
