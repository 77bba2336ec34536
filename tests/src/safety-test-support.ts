import { allStates, type SofaScene } from 'sofa-ts';

/** Two particles on very stiff springs integrated by explicit Euler with a large dt: it blows up
 *  (to NaN after a few tens of steps). Two states: `dofs` and its mapped copy. */
export const explodingScene = `<?xml version="1.0"?>
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <Node name="body">
    <EulerExplicitSolver symplectic="true"/>
    <MechanicalObject name="dofs" template="Vec3" position="0 0 0  1 0 0  2 0 0"/>
    <UniformMass totalMass="0.003"/>
    <FixedProjectiveConstraint indices="0"/>
    <StiffSpringForceField spring="0 1 1e7 0 1  1 2 1e7 0 1"/>
    <Node name="mapped">
      <MechanicalObject name="copy" template="Vec3"/>
      <IdentityMapping/>
    </Node>
  </Node>
</Node>
`;

/** The same bodies on soft springs with implicit Euler: stable for ever (for runs to interrupt). */
export const stableScene = explodingScene
  .replace(
    '<EulerExplicitSolver symplectic="true"/>',
    '<EulerImplicitSolver/><CGLinearSolver iterations="20" tolerance="1e-9" threshold="1e-12"/>',
  )
  .replace(/1e7/g, '100');

/** The first step after which some position or velocity of the scene is not finite, by a plain
 *  scan (independent of the divergence guard); -1 if none within maxSteps. */
export function firstNonFiniteStep(scene: SofaScene, maxSteps: number): number {
  for (let k = 1; k <= maxSteps; k++) {
    scene.step();
    for (const { state } of allStates(scene.root)) {
      if ([...state.x, ...state.v].some((a) => !Number.isFinite(a))) return k;
    }
  }
  return -1;
}
