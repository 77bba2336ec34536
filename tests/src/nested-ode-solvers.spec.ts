import { expect } from 'chai';
import { loadSceneFromString, type BaseMechanicalState, type SofaScene } from 'sofa-ts';

/**
 * An ODE solver below another one (STLIB's ElasticMaterialObject adds its own solver, and
 * SoftRobots' scenes put it under a Simulation node that has one): SOFA's SolveVisitor runs the
 * solver of the first solver node it meets and does not descend, and that solver's mechanical
 * visitors traverse the whole subtree. So the outer solver integrates the inner node and the inner
 * solver is never run. The oracle: the same scene without the inner solver, bit for bit.
 */

const solver = (name: string): string =>
  `<EulerImplicitSolver name="${name}" rayleighStiffness="0.1"/><CGLinearSolver iterations="100" tolerance="1e-20" threshold="1e-20"/>`;
const scene = (inner: string): string => `<Node name="root" dt="0.01" gravity="0 -10 0">
  <DefaultAnimationLoop/>
  <Node name="Outer">${solver('outer')}
    <MechanicalObject name="a" position="0 0 0  1 0 0"/><UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0"/>
    <Node name="Inner">${inner}
      <MechanicalObject name="b" position="1 0 0  2 0 0"/><UniformMass totalMass="1"/>
      <SpringForceField object1="@../a" object2="@b" spring="1 0 50 0.5 1  1 1 50 0.5 1"/>
    </Node>
  </Node>
</Node>`;

function state(s: SofaScene, p: string): BaseMechanicalState {
  return s.get<BaseMechanicalState>(p)!;
}

describe('an ODE solver below another one', () => {
  it('is not run: the outer solver integrates its node, bit for bit the scene without it, and says so once', async () => {
    const nested = await loadSceneFromString(scene(solver('inner')));
    const flat = await loadSceneFromString(scene(''));
    for (let k = 0; k < 30; k++) {
      nested.step();
      flat.step();
      for (const p of ['Outer/a', 'Outer/Inner/b']) {
        expect(Array.from(state(nested, p).x)).to.deep.equal(Array.from(state(flat, p).x));
        expect(Array.from(state(nested, p).v)).to.deep.equal(Array.from(state(flat, p).v));
      }
    }
    // the inner body fell and was held by its springs
    expect(state(nested, 'Outer/Inner/b').x[1]).to.be.lessThan(-0.05);
    const said = nested.warnings.filter((w) => /EulerImplicitSolver 'inner'/.test(w.message) || /'inner'/.test(w.component ?? ''));
    expect(said).to.have.length(1);
    expect(said[0].message).to.match(/below the ODE solver at \/root\/Outer.*this solver is not run/);
  });
});
