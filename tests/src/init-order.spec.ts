import { expect } from 'chai';
import { loadSceneFromString, type BaseMechanicalState } from 'sofa-ts';

/**
 * SOFA's init order: init runs top-down (a node's objects, then its children), and a MechanicalObject
 * takes its size at its own init. An interaction spring of a parent node is therefore initialised
 * before the states of its child nodes have their points; its indices are checked once the states
 * are initialised (bwdInit, or first use), and a truly out-of-range index is still a located error.
 */

function pendulum(springIndices: string, position2 = '0 -1 0'): string {
  return `<Node name="root" dt="0.01" gravity="0 -10 0">
    <DefaultAnimationLoop/>
    <EulerImplicitSolver rayleighMass="1"/>
    <CGLinearSolver iterations="100" tolerance="1e-20" threshold="1e-30"/>
    <SpringForceField name="link" object1="@anchor/dofs" object2="@bob/dofs" spring="${springIndices}"/>
    <Node name="anchor">
      <MechanicalObject name="dofs" position="5 5 5  0 0 0"/>
      <FixedProjectiveConstraint indices="0 1"/>
    </Node>
    <Node name="bob">
      <MechanicalObject name="dofs" position="3 3 3  ${position2}"/>
      <UniformMass vertexMass="2"/>
      <FixedProjectiveConstraint indices="0"/>
    </Node>
  </Node>`;
}

describe("init order: an interaction spring declared in a parent node before its children's states", () => {
  it("acts on the children's points: the bob hangs at the rest length plus m·g/k", async () => {
    // spring from anchor point 1 (origin) to bob point 1, k = 100, rest length 1, m = 2, g = 10
    const s = await loadSceneFromString(pendulum('1 1 100 0 1'));
    const bob = s.get<BaseMechanicalState>('bob/dofs')!;
    s.step(3000);
    expect(bob.x[4]).to.be.closeTo(-(1 + (2 * 10) / 100), 1e-9);
    expect(bob.x[3]).to.equal(0);
  });

  it('a spring index past the points of its state is a located error naming the spring and the state', async () => {
    let error: unknown;
    try {
      await loadSceneFromString(pendulum('1 2 100 0 1'));
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.match(
      /<string>:5:5: SpringForceField 'link': spring 0: index 2 is out of range \(MechanicalObject 'dofs' has 2 points\)/,
    );
  });
});

describe('init order: a component linking to a node that the top-down order reaches later', () => {
  // a deformable body expressed in a rigid frame (1 2 3, turned by a quarter turn about z) whose
  // state is declared in a later sibling node: SOFA reads that state's Data through the link, so
  // the mapping sees its frame; sofa-ts initialises the linked node first
  const scene = (frameFirst: boolean): string => {
    const frame = `<Node name="frame"><MechanicalObject name="rigid" template="Rigid3d" position="1 2 3 0 0 0.7071067811865476 0.7071067811865476"/></Node>`;
    return `<Node name="root" dt="0.01" gravity="0 0 0">
    <DefaultAnimationLoop/>
    ${frameFirst ? frame : ''}
    <Node name="body">
      <MechanicalObject name="local" position="0 0 0  1 0 0  0 1 0"/>
      <Node name="world">
        <MechanicalObject name="w"/>
        <DeformableOnRigidFrameMapping input1="@../local" input2="@/frame/rigid" output="@w"/>
      </Node>
    </Node>
    ${frameFirst ? '' : frame}
  </Node>`;
  };

  it('maps with the frame it links to: world points R·x + t, as with the frame declared first', async () => {
    const later = await loadSceneFromString(scene(false));
    const first = await loadSceneFromString(scene(true));
    const w = later.get<BaseMechanicalState>('body/world/w')!;
    // R = quarter turn about z: (x, y) → (−y, x)
    const expected = [1, 2, 3, 1, 3, 3, 0, 2, 3];
    for (let i = 0; i < 9; i++) expect(w.x[i]).to.be.closeTo(expected[i], 1e-15);
    expect(Array.from(w.x)).to.deep.equal(Array.from(first.get<BaseMechanicalState>('body/world/w')!.x));
  });
});
