import { expect } from 'chai';
import { loadSceneFromString, solvers, type BaseMechanicalState, type SofaScene } from 'sofa-ts';
import { denseSolve, rotation, turn } from './warp-test-support.js';

/**
 * WarpPreconditioner (SOFA's WarpPreconditioner with update_step): the linear solver's
 * factorisation A_f of a refresh step, turned between refreshes by the node rotations R since then:
 * A⁻¹ ≈ R·A_f⁻¹·Rᵀ. Checked against what we did not write: a dense mathjs solve with the matrix
 * assembled now, and SparseLDLSolver alone.
 * - update_step = 1 (a refresh at every step, R = I): the trajectory of a cable-driven inverse
 *   scene is SparseLDLSolver's to the bit, and a solve equals the dense solve;
 * - between refreshes, no motion since the refresh (R = I up to round-off): the dense solve of A_f to 1e-14;
 * - between refreshes, the whole body turned rigidly by Q (so A_now = Q·A_f·Qᵀ exactly for the
 *   corotational elements and a uniform mass): a solve equals the dense solve of A_now, and a step
 *   of the inverse scene (W = J·R·A_f⁻¹·Rᵀ·Jᵀ from the rotated rows, the correction R·A_f⁻¹·Rᵀ·Jᵀ·λ)
 *   gives SparseLDLSolver's step at the turned configuration.
 */

/** A cable-driven beam (5 x 2 x 2 corotational hexahedra, clamped at x = 0) reaching a goal with the QP inverse solver. */
function beamScene(linearSolvers: string): string {
  return `<Node name="root" dt="0.1" gravity="0 0 0">
    <FreeMotionAnimationLoop/>
    <QPInverseProblemSolver name="solver" epsilon="1e-3"/>
    <Node name="beam">
      <EulerImplicitSolver name="ode" rayleighStiffness="0.1" rayleighMass="0.1"/>
      ${linearSolvers}
      <RegularGridTopology name="grid" nx="6" ny="3" nz="3" min="0 0 0" max="50 10 10"/>
      <MechanicalObject name="dofs"/>
      <UniformMass totalMass="0.01"/>
      <HexahedronFEMForceField youngModulus="18000" poissonRatio="0.3" method="large"/>
      <BoxROI name="clamp" box="-1 -1 -1 1 11 11"/>
      <FixedProjectiveConstraint indices="@clamp.indices"/>
      <LinearSolverConstraintCorrection/>
      <CableActuator name="cable" indices="31 32 33 34 35" pullPoint="-10 10 5" minForce="0" maxDispVariation="0.5"/>
      <CableActuator name="cable2" indices="19 20 21 22 23" pullPoint="-10 0 5" minForce="0" maxDispVariation="0.5"/>
      <PositionEffector name="effector" indices="29" effectorGoal="45 12 8"/>
    </Node>
  </Node>`;
}

const exact = '<SparseLDLSolver name="ldl" template="CompressedRowSparseMatrixMat3x3d"/>';
const warped = (k: number) => `<WarpPreconditioner name="warp" linearSolver="@ldl" update_step="${k}"/>${exact}`;

function dofs(s: SofaScene): BaseMechanicalState & { position: { value: Float64Array } } {
  return s.get('beam/dofs') as unknown as BaseMechanicalState & { position: { value: Float64Array } };
}

function maxRelDiff(a: Float64Array, b: Float64Array): number {
  let d = 0,
    s = 0;
  for (let i = 0; i < a.length; i++) {
    d = Math.max(d, Math.abs(a[i] - b[i]));
    s = Math.max(s, Math.abs(b[i]));
  }
  return d / s;
}

/** The system, its factors and a projected right-hand side of the beam's ODE solver (after a step). */
function systemOf(s: SofaScene) {
  const ode = s.get<solvers.EulerImplicitSolver>('beam/ode')!;
  const sys = ode.getSystem();
  const factors = ode.systemMatrixFactors(0.1);
  const b = new Float64Array(sys.size);
  for (let i = 0; i < b.length; i++) b[i] = Math.sin(1.7 * i + 0.3);
  sys.projectResponse(b);
  return { sys, factors, b };
}

describe('WarpPreconditioner: R·A_f⁻¹·Rᵀ between refreshes (update_step), the linear solver itself at a refresh', () => {
  it('update_step=1: the inverse scene is SparseLDLSolver’s to the bit (50 steps), and a solve equals the dense mathjs solve', async () => {
    const a = await loadSceneFromString(beamScene(exact));
    const b = await loadSceneFromString(beamScene(warped(1)));
    for (let i = 0; i < 50; i++) {
      a.step();
      b.step();
    }
    const xa = dofs(a).position.value,
      xb = dofs(b).position.value;
    let moved = 0;
    for (let i = 0; i < xa.length; i++) {
      expect(xb[i], `x[${i}]`).to.equal(xa[i]);
      moved = Math.max(moved, Math.abs(xa[i] - (dofs(a) as unknown as { x0?: Float64Array }).x0![i]));
    }
    expect(moved, 'the beam moved').to.be.greaterThan(0.5);
    const warp = b.get<solvers.WarpPreconditioner>('beam/warp')!;
    const { sys, factors, b: rhs } = systemOf(b);
    const out = new Float64Array(rhs.length);
    warp.solveSystem(sys, factors, rhs, out);
    expect(maxRelDiff(out, denseSolve(sys.assembleMBK(factors), rhs))).to.be.lessThan(1e-12);
  });

  it('between refreshes, no motion since the refresh: R = I, the solve is SparseLDLSolver’s (1e-14) and the dense solve of A_f', async () => {
    const s = await loadSceneFromString(beamScene(warped(100)));
    s.step(3);
    const warp = s.get<solvers.WarpPreconditioner>('beam/warp')!;
    const { sys, factors, b } = systemOf(s);
    // refresh now (the count restarts), then a solve at the same configuration (no rotation since)
    warp.reset();
    const out = new Float64Array(b.length);
    warp.solveSystem(sys, factors, b, out);
    const refreshes = warp.refreshes;
    warp.solveSystem(sys, factors, b, out);
    expect(warp.refreshes, 'no refresh at the second solve').to.equal(refreshes);
    expect(warp.warpRotations(), 'the second solve is warped').to.not.equal(undefined);
    const ldl = s.get<solvers.SparseLDLSolver>('beam/ldl')!;
    const direct = new Float64Array(b.length);
    ldl.solveMatrix(direct, b);
    expect(maxRelDiff(out, direct)).to.be.lessThan(1e-14);
    expect(maxRelDiff(out, denseSolve(sys.assembleMBK(factors), b))).to.be.lessThan(1e-12);
  });

  it('between refreshes, the body turned rigidly by Q: the solve is the dense solve of A at the turned configuration', async () => {
    const s = await loadSceneFromString(beamScene(warped(100)));
    s.step(3);
    const warp = s.get<solvers.WarpPreconditioner>('beam/warp')!;
    const { sys, factors, b } = systemOf(s);
    // a refresh at this configuration (its element rotations first, as in a step), then the turn
    sys.computeForce(sys.f);
    warp.reset();
    warp.solveSystem(sys, factors, b, new Float64Array(b.length));
    const refreshes = warp.refreshes;
    turn(sys.x, rotation([0.48, 0.6, 0.64], 0.9));
    sys.propagatePositionsAndVelocities();
    sys.computeForce(sys.f); // the element (and node) rotations of the turned body
    const out = new Float64Array(b.length);
    warp.solveSystem(sys, factors, b, out);
    expect(warp.refreshes, 'warped, not refreshed').to.equal(refreshes);
    expect(maxRelDiff(out, denseSolve(sys.assembleMBK(factors), b))).to.be.lessThan(1e-11);
  });

  it('between refreshes, the body turned rigidly by Q: a step of the inverse scene (W, QP, correction) is SparseLDLSolver’s step', async () => {
    // the same five steps in both (update_step = 1 is SparseLDLSolver to the bit), then a refresh
    // at that configuration, the body turned by Q in both, and one step each
    const a = await loadSceneFromString(beamScene(exact));
    const b = await loadSceneFromString(beamScene(warped(1)));
    a.step(5);
    b.step(5);
    const warp = b.get<solvers.WarpPreconditioner>('beam/warp')!;
    warp.updateStep.value = 100;
    warp.reset();
    const { sys: sysB, factors, b: rhs } = systemOf(b);
    sysB.computeForce(sysB.f);
    warp.solveSystem(sysB, factors, rhs, new Float64Array(rhs.length));
    const refreshes = warp.refreshes;
    const Q = rotation([0, 0.6, 0.8], 0.7);
    for (const s of [a, b]) {
      const sys = s.get<solvers.EulerImplicitSolver>('beam/ode')!.getSystem();
      turn(sys.x, Q);
      turn(sys.v, Q);
      sys.propagatePositionsAndVelocities();
    }
    a.step();
    b.step();
    expect(warp.refreshes, 'the step is warped').to.equal(refreshes);
    const xa = dofs(a).position.value,
      xb = dofs(b).position.value;
    const turned = Float64Array.from((dofs(a) as unknown as { x0: Float64Array }).x0);
    turn(turned, Q);
    let moved = 0;
    for (let i = 0; i < xa.length; i++) moved = Math.max(moved, Math.abs(xa[i] - turned[i]));
    expect(moved, 'the beam is deformed').to.be.greaterThan(0.1);
    expect(maxRelDiff(xb, xa)).to.be.lessThan(1e-9);
  });
});
