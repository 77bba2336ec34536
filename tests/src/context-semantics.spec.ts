import { expect } from 'chai';
import { loadSceneFromString, type BaseMechanicalState, type SofaScene } from 'sofa-ts';

/**
 * SOFA's context lookups (Node::getMechanicalState, SingleStateAccessor::init, CollisionModel::init):
 * a component without a state in its own node acts on the state of the nearest ancestor that has
 * one. Each case runs a scene with the component next to the state and the same scene with the
 * component moved into a child node that has no state; with the component last in both, forces
 * and matrices are summed in the same order, so the trajectories are bitwise identical.
 */

async function scene(body: string, gravity = '0 -9.81 0', dt = 0.01): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" dt="${dt}" gravity="${gravity}">
    <DefaultAnimationLoop/>
    ${body}
  </Node>`);
}

/** Steps both scenes and checks positions and velocities of `path` are equal after every step. */
function expectSameTrajectory(a: SofaScene, b: SofaScene, path: string, pathB: string, steps: number): void {
  const xa = a.get<BaseMechanicalState>(path)!,
    xb = b.get<BaseMechanicalState>(pathB)!;
  expect(xa.size).to.be.greaterThan(0);
  for (let k = 0; k < steps; k++) {
    a.step();
    b.step();
    expect(Array.from(xb.x)).to.deep.equal(Array.from(xa.x));
    expect(Array.from(xb.v)).to.deep.equal(Array.from(xa.v));
  }
}

const beamSolver = '<EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/><SparseLDLSolver/>';
const beamGrid = '<RegularGridTopology name="grid" nx="5" ny="2" nz="2" min="0 0 0" max="4 1 1"/>';
const clamp = '<BoxROI name="clamp" box="-0.1 -0.1 -0.1 0.1 1.1 1.1"/><FixedProjectiveConstraint indices="@clamp.indices"/>';

describe('context semantics: a component uses the state of the nearest ancestor', () => {
  it("a FEM force field in a child node without state bends the parent's beam exactly as in the node itself", async () => {
    const fem = '<HexahedronFEMForceField youngModulus="2000" poissonRatio="0.3" method="large"/>';
    const a = await scene(
      `<Node name="beam">${beamSolver}${beamGrid}<MechanicalObject name="dofs"/><UniformMass totalMass="1"/>${clamp}${fem}</Node>`,
    );
    const b = await scene(`<Node name="beam">${beamSolver}${beamGrid}<MechanicalObject name="dofs"/><UniformMass totalMass="1"/>${clamp}
      <Node name="elasticity">${fem}</Node></Node>`);
    expectSameTrajectory(a, b, 'beam/dofs', 'beam/dofs', 30);
    // the beam did bend: its tip fell
    expect(a.get<BaseMechanicalState>('beam/dofs')!.x[3 * 4 + 1]).to.be.below(-1e-3);
  });

  it("a tetrahedral FEM with its own topology in a child node (the node holds only elements) acts on the parent's points", async () => {
    const tets = '<TetrahedronSetTopologyContainer name="tets" tetrahedra="0 1 2 4  1 3 2 7  1 4 7 5  2 4 6 7  1 2 4 7"/>';
    const points = '<MechanicalObject name="dofs" position="0 0 0  1 0 0  0 1 0  1 1 0  0 0 1  1 0 1  0 1 1  1 1 1"/>';
    const fem = '<TetrahedronFEMForceField youngModulus="500" poissonRatio="0.3" method="large"/>';
    const fixed = '<FixedProjectiveConstraint indices="0 2 4 6"/>';
    const a = await scene(`<Node name="cube">${beamSolver}${points}${tets}<UniformMass totalMass="1"/>${fixed}${fem}</Node>`);
    const b = await scene(`<Node name="cube">${beamSolver}${points}<UniformMass totalMass="1"/>${fixed}
      <Node name="volume">${tets}${fem}</Node></Node>`);
    expectSameTrajectory(a, b, 'cube/dofs', 'cube/dofs', 30);
  });

  it('a mass in a child node of its state counts once (same fall as the mass next to the state)', async () => {
    const fem = '<HexahedronFEMForceField youngModulus="2000" poissonRatio="0.3" method="large"/>';
    const a = await scene(
      `<Node name="beam">${beamSolver}${beamGrid}<MechanicalObject name="dofs"/>${clamp}${fem}<DiagonalMass massDensity="2"/></Node>`,
    );
    const b = await scene(`<Node name="beam">${beamSolver}${beamGrid}<MechanicalObject name="dofs"/>${clamp}${fem}
      <Node name="inertia"><DiagonalMass massDensity="2"/></Node></Node>`);
    expectSameTrajectory(a, b, 'beam/dofs', 'beam/dofs', 30);
  });

  it('a free particle whose UniformMass is in a grandchild node falls as g·t (gravity counted once)', async () => {
    const s = await scene(`<Node name="p"><EulerImplicitSolver/><CGLinearSolver iterations="10" tolerance="1e-20" threshold="1e-30"/>
      <MechanicalObject name="dofs" position="0 0 0"/><Node name="a"><Node name="b"><UniformMass totalMass="3"/></Node></Node></Node>`);
    s.step(10);
    expect(s.get<BaseMechanicalState>('p/dofs')!.v[1]).to.be.closeTo(-9.81 * 0.1, 1e-12);
  });

  it("collision models in a child node without state collide with the parent's state, as when next to it", async () => {
    const pipeline = `<CollisionPipeline/><BruteForceBroadPhase/><BVHNarrowPhase/>
      <NewProximityIntersection alarmDistance="0.2" contactDistance="0.1"/><CollisionResponse response="PenalityContactForceField"/>`;
    const floorState = '<MeshTopology position="-5 -5 0  5 -5 0  5 5 0  -5 5 0" triangles="0 1 2  0 2 3"/><MechanicalObject/>';
    const floorModels =
      '<TriangleCollisionModel simulated="0" moving="0" contactStiffness="100"/><LineCollisionModel simulated="0" moving="0" contactStiffness="100"/><PointCollisionModel simulated="0" moving="0" contactStiffness="100"/>';
    const ball =
      '<EulerImplicitSolver rayleighMass="0.5"/><SparseLDLSolver/><MechanicalObject name="dofs" position="0.3 0.2 0.6"/><UniformMass totalMass="2"/>';
    const sphere = '<SphereCollisionModel radius="0.25" contactStiffness="100"/>';
    const a = await scene(
      `${pipeline}<Node name="floor">${floorState}${floorModels}</Node><Node name="ball">${ball}${sphere}</Node>`,
      '0 0 -10',
    );
    const b = await scene(
      `${pipeline}<Node name="floor">${floorState}<Node name="surface">${floorModels}</Node></Node>
      <Node name="ball">${ball}<Node name="collision">${sphere}</Node></Node>`,
      '0 0 -10',
    );
    expectSameTrajectory(a, b, 'ball/dofs', 'ball/dofs', 120);
    // it landed: resting on the floor at about the contact distance plus the radius
    expect(a.get<BaseMechanicalState>('ball/dofs')!.x[2]).to.be.closeTo(0.35, 0.01);
  });

  it("a force field on an ancestor's state that its solver does not integrate is a located error at the first step", async () => {
    const s = await scene(`<Node name="n"><MechanicalObject name="dofs" position="0 0 0  1 0 0"/>
      <Node name="c"><EulerImplicitSolver/><SparseLDLSolver/><UniformMass totalMass="1"/></Node></Node>`);
    expect(() => s.step()).to.throw(
      /<string>:4:\d+: UniformMass 'UniformMass1'( in \S+)?: acts on MechanicalObject 'dofs', which is not a state of the solver at \/root\/n\/c/,
    );
  });

  it('a component with no state in its node nor above is refused, naming where it looked', async () => {
    let error: unknown;
    try {
      await scene('<Node name="n"><Node name="c"><UniformMass totalMass="1"/></Node></Node>');
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.match(/<string>:3:\d+: .*UniformMass.*'mstate' needs a MechanicalObject, none in this node or its ancestors/);
  });
});
