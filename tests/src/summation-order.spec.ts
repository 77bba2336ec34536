import { expect } from 'chai';
import { loadSceneFromString, solvers } from 'sofa-ts';

/**
 * SOFA sums its matrix-free vectors node by node (each node's components first, a rigid frame's
 * translation and rotation parts separately), then the nodes, then the states. Truncated CG solves
 * (a denominator threshold stopping them early) turn a last-bit difference into a visible one after
 * many steps (SquareDistanceMapping.scn), so MechanicalSystem.dot reproduces that order exactly.
 * The vectors below are chosen so that the orders round differently: with u = 2⁻⁵³,
 * flat ((1 + u) + u) = 1 (ties to even, twice) while 1 + (u + u) = 1 + 2⁻⁵² exactly.
 */
const u = 2 ** -53;

async function systemOf(template: string, size: number) {
  const s = await loadSceneFromString(`<Node name="root" dt="0.01">
  <EulerImplicitSolver name="ode"/>
  <CGLinearSolver iterations="10" tolerance="1e-9" threshold="1e-20"/>
  <MechanicalObject name="dofs" template="${template}" size="${size}"/>
</Node>`);
  return s.get<solvers.EulerImplicitSolver>('/ode')!.getSystem();
}

describe('MechanicalSystem.dot: SOFA’s summation order', () => {
  it('Vec3: per node first (1 + (u + u)), not index order ((1 + u) + u)', async () => {
    const sys = await systemOf('Vec3', 2);
    const a = Float64Array.of(1, 0, 0, u, u, 0);
    const ones = new Float64Array(6).fill(1);
    let flat = 0;
    for (let i = 0; i < 6; i++) flat += a[i] * ones[i];
    expect(flat).to.equal(1);
    expect(sys.dot(a, ones)).to.equal(1 + 2 ** -52);
  });

  it('Rigid3: translation and rotation parts summed apart, then added', async () => {
    const sys = await systemOf('Rigid3', 1);
    // translation part 1 + u → 1 (ties to even); rotation part u + u = 2u; 1 + 2u exact
    const a = Float64Array.of(1, u, 0, u, u, 0);
    const ones = new Float64Array(6).fill(1);
    expect(sys.dot(a, ones)).to.equal(1 + 2 ** -52);
    // index order would give ((((1 + u) + 0) + u) + u) = 1
    let flat = 0;
    for (let i = 0; i < 6; i++) flat += a[i] * ones[i];
    expect(flat).to.equal(1);
  });
});
