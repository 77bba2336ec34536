import { expect } from 'chai';
import { loadSceneFromString } from 'sofa-ts';

/**
 * A singular system names the dof whose pivot vanished: a static spring pulls particle 1 along x
 * only, so its y and z have no stiffness (no mass either under a StaticSolver) and the LDLᵀ
 * factorisation meets a zero pivot there.
 */
describe('a zero pivot of a direct solver', () => {
  it('is located at its state, dof and component', async () => {
    const scene = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 0 0">
      <DefaultAnimationLoop/>
      <Node name="S">
        <StaticSolver/><SparseLDLSolver/>
        <MechanicalObject name="p" position="0 0 0  1 0 0"/>
        <ConstantForceField indices="1" forces="1 0 0"/>
        <FixedProjectiveConstraint indices="0"/>
        <SpringForceField object1="@p" object2="@p" spring="0 1 100 0 1"/>
      </Node>
    </Node>`);
    expect(() => scene.step()).to.throw(/zero pivot.*row [45] is dof 1 of MechanicalObject 'p' in \/root\/S \(component [12] of 3\)/);
  });
});
