import { expect } from 'chai';
import { loadSceneFromString, constraint, type BaseMechanicalState, type SofaScene } from 'sofa-ts';

/**
 * The constraint resolution through the XML path (FreeMotionAnimationLoop, constraint solvers,
 * corrections, Lagrangian constraints), checked against closed forms:
 *   - without constraints the loop gives the ODE solver's motion (x = x_free);
 *   - a bilateral constraint holds two points together; two particles tied with a rest vector keep
 *     it while their centre of mass falls freely;
 *   - a particle sliding on the ground with Coulomb friction loses μ·g·dt of speed per step
 *     (impulse formulation: λ_n = m·g·dt, friction impulse μ·λ_n) and stops, with every solver;
 *   - stopper and sliding constraints keep their bounds.
 */

const h = 0.01;
const g = 10;

async function scene(
  body: string,
  solver = '<BlockGaussSeidelConstraintSolver tolerance="1e-12" maxIterations="5000"/>',
  gravity = `0 ${-g} 0`,
  loop = '<FreeMotionAnimationLoop/>',
): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" dt="${h}" gravity="${gravity}">
    ${loop}
    ${solver}
    ${body}
  </Node>`);
}

function state(s: SofaScene, path: string): BaseMechanicalState {
  const o = s.get<BaseMechanicalState>(path);
  if (!o) throw new Error(`no state at ${path}`);
  return o;
}

/** A particle of mass m integrated by backward Euler (no damping), compliance 1/m. */
function particle(name: string, position: string, m = 2, velocity = '0 0 0', correction = true, correctionAttributes = ''): string {
  return `<Node name="${name}">
      <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
      <CGLinearSolver iterations="50" tolerance="1e-16" threshold="1e-30"/>
      <MechanicalObject name="dofs" position="${position}" velocity="${velocity}"/>
      <UniformMass totalMass="${m}"/>
      ${correction ? `<UncoupledConstraintCorrection compliance="${1 / m}" ${correctionAttributes}/>` : ''}
    </Node>`;
}

describe('constraint: FreeMotionAnimationLoop scenes (closed forms)', () => {
  it("without constraints, the motion is the ODE solver's (free fall by the backward Euler recurrence)", async () => {
    const s = await scene(particle('p', '0 1 0', 2, '1 0 0'));
    const x = state(s, 'p/dofs');
    let y = 1,
      vy = 0;
    for (let n = 0; n < 30; n++) {
      s.step();
      vy -= h * g;
      y += h * vy;
    }
    expect(x.x[1]).to.be.closeTo(y, 1e-12);
    expect(x.x[0]).to.be.closeTo(30 * h, 1e-12);
    expect(x.v[1]).to.be.closeTo(vy, 1e-12);
  });

  it('a state without constraint correction keeps its position and velocity (SOFA: only corrections write them)', async () => {
    const s = await scene(particle('p', '0 1 0', 2, '0 0 0', false));
    s.step(5);
    expect(Array.from(state(s, 'p/dofs').x)).to.deep.equal([0, 1, 0]);
  });

  it('adds a BlockGaussSeidelConstraintSolver when the scene has no constraint solver', async () => {
    const s = await scene(particle('p', '0 1 0'), '');
    const loop = s.root.objects.find((o) => o.className === 'FreeMotionAnimationLoop') as constraint.FreeMotionAnimationLoop;
    expect(loop.constraintSolver.get()?.className).to.equal('BlockGaussSeidelConstraintSolver');
  });

  it('Rigid3 bilateral: a spinning, falling rigid body stays on a fixed frame (centre and orientation)', async () => {
    const q = [0, 0, Math.sin(0.3), Math.cos(0.3)];
    const frame = `0.5 -1 2 ${q.join(' ')}`;
    const s = await scene(`<Node name="anchor"><MechanicalObject name="dofs" template="Rigid3" position="${frame}"/></Node>
      <Node name="body">
        <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
        <SparseLDLSolver template="CompressedRowSparseMatrixd"/>
        <MechanicalObject name="dofs" template="Rigid3" position="${frame}" velocity="0.3 0 0 1 2 3"/>
        <UniformMass vertexMass="2 1 0.1 0 0 0 0.2 0 0 0 0.3"/>
        <LinearSolverConstraintCorrection/>
      </Node>
      <BilateralLagrangianConstraint template="Rigid3" object1="@anchor/dofs" object2="@body/dofs" first_point="0" second_point="0"/>`);
    const x = state(s, 'body/dofs');
    s.step(20);
    const f = frame.split(' ').map(Number);
    for (let k = 0; k < 7; k++) expect(x.x[k]).to.be.closeTo(f[k], 1e-8);
  });

  it('a bilateral constraint holds a falling particle on a fixed point (to the solver tolerance)', async () => {
    const s = await scene(`<Node name="anchor"><MechanicalObject name="dofs" position="0 0 0"/></Node>
      ${particle('p', '0 0 0', 2, '0.5 0 0')}
      <BilateralLagrangianConstraint object1="@anchor/dofs" object2="@p/dofs" first_point="0" second_point="0"/>`);
    const x = state(s, 'p/dofs');
    for (let n = 0; n < 50; n++) {
      s.step();
      expect(Math.hypot(x.x[0], x.x[1], x.x[2])).to.be.lessThan(1e-9);
    }
    // the impulse balances gravity: λ = m·g·dt upwards (an impulse), velocity back to 0
    expect(Math.hypot(x.v[0], x.v[1], x.v[2])).to.be.lessThan(1e-9);
  });

  it('two free particles tied with a rest vector keep it; their centre of mass falls freely', async () => {
    const s = await scene(`${particle('a', '0 0 0', 1, '0 0 1')}
      ${particle('b', '1 0 0', 3)}
      <BilateralLagrangianConstraint object1="@a/dofs" object2="@b/dofs" first_point="0" second_point="0" rest_vector="1 0 0"/>`);
    const a = state(s, 'a/dofs'),
      b = state(s, 'b/dofs');
    let yc = 0,
      vyc = 0;
    for (let n = 0; n < 40; n++) {
      s.step();
      vyc -= h * g;
      yc += h * vyc;
      expect(b.x[0] - a.x[0]).to.be.closeTo(1, 1e-9);
      expect(b.x[1] - a.x[1]).to.be.closeTo(0, 1e-9);
      expect(b.x[2] - a.x[2]).to.be.closeTo(0, 1e-9);
    }
    // momentum: (1·a + 3·b)/4
    expect((a.x[1] + 3 * b.x[1]) / 4).to.be.closeTo(yc, 1e-9);
    expect((a.x[2] + 3 * b.x[2]) / 4).to.be.closeTo((40 * h * 1) / 4, 1e-9);
  });

  const mu = 0.3,
    v0 = 0.5;
  // SOFA's unbuilt resolutions leave the solver's integration factor out of the uncoupled
  // compliance: they solve the built problem only with useOdeSolverIntegrationFactors="0" (as SOFA's
  // unbuilt scenes set), or with sofa-ts's consistentWithBuilt.
  const factorsOff = 'useOdeSolverIntegrationFactors="0"';
  const solvers: Record<string, string> = {
    BlockGaussSeidelConstraintSolver: '<BlockGaussSeidelConstraintSolver tolerance="1e-12" maxIterations="5000"/>',
    UnbuiltGaussSeidelConstraintSolver: '<UnbuiltGaussSeidelConstraintSolver tolerance="1e-12" maxIterations="5000"/>',
    'UnbuiltGaussSeidelConstraintSolver (consistentWithBuilt)':
      '<UnbuiltGaussSeidelConstraintSolver tolerance="1e-12" maxIterations="5000" consistentWithBuilt="1"/>',
    NNCGConstraintSolver: '<NNCGConstraintSolver tolerance="1e-12" maxIterations="5000"/>',
    ImprovedJacobiConstraintSolver: '<ImprovedJacobiConstraintSolver tolerance="1e-12" maxIterations="5000"/>',
    GenericConstraintSolver: '<GenericConstraintSolver tolerance="1e-12" maxIterations="5000"/>',
    LCPConstraintSolver: `<LCPConstraintSolver tolerance="1e-12" maxIt="5000" mu="${mu}"/>`,
    'LCPConstraintSolver (unbuilt)': `<LCPConstraintSolver tolerance="1e-12" maxIt="5000" mu="${mu}" build_lcp="0"/>`,
    'LCPConstraintSolver (unbuilt, consistentWithBuilt)': `<LCPConstraintSolver tolerance="1e-12" maxIt="5000" mu="${mu}" build_lcp="0" consistentWithBuilt="1"/>`,
    'BipotentialUzawaConstraintSolver (local)':
      '<BipotentialUzawaConstraintSolver method="local" tolerance="1e-12" localTolerance="1e-14"/>',
    'BipotentialUzawaConstraintSolver (global)':
      '<BipotentialUzawaConstraintSolver method="global" tolerance="1e-12" maxIterations="20000"/>',
  };
  for (const [name, xml] of Object.entries(solvers)) {
    const sofaUnbuilt = /unbuilt|Unbuilt/.test(name) && !/consistentWithBuilt/.test(name);
    it(`${name}${sofaUnbuilt ? ' (integration factors off)' : ''}: a particle sliding on the ground loses μ·g·dt of speed per step, then sticks; it never sinks`, async () => {
      const s = await scene(
        `<Node name="ground"><MechanicalObject name="dofs" position="0 0 0"/></Node>
        ${particle('p', '0 0 0', 2, `${v0} 0 0`, true, sofaUnbuilt ? factorsOff : '')}
        <UnilateralLagrangianConstraint object1="@ground/dofs" object2="@p/dofs" first_point="0" second_point="0" normals="0 1 0" mu="${mu}"/>`,
        xml,
      );
      const x = state(s, 'p/dofs');
      let v = v0,
        px = 0;
      for (let n = 0; n < 30; n++) {
        s.step();
        v = Math.max(0, v - mu * g * h);
        px += h * v;
        expect(x.v[0], `v_x at step ${n + 1}`).to.be.closeTo(v, 1e-8);
        expect(x.x[1], `height at step ${n + 1}`).to.be.closeTo(0, 1e-9);
      }
      expect(x.x[0]).to.be.closeTo(px, 1e-8);
      expect(v).to.equal(0);
    });
  }

  it('solveVelocityConstraintFirst (constraints on velocities, then x = x + dt·v) gives the same sliding law', async () => {
    const s = await scene(
      `<Node name="ground"><MechanicalObject name="dofs" position="0 0 0"/></Node>
      ${particle('p', '0 0 0', 2, `${v0} 0 0`)}
      <UnilateralLagrangianConstraint object1="@ground/dofs" object2="@p/dofs" first_point="0" second_point="0" normals="0 1 0" mu="${mu}"/>`,
      undefined,
      undefined,
      '<FreeMotionAnimationLoop solveVelocityConstraintFirst="1"/>',
    );
    const x = state(s, 'p/dofs');
    let v = v0,
      px = 0;
    for (let n = 0; n < 30; n++) {
      s.step();
      v = Math.max(0, v - mu * g * h);
      px += h * v;
      expect(x.v[0], `v_x at step ${n + 1}`).to.be.closeTo(v, 1e-8);
      expect(x.x[1], `height at step ${n + 1}`).to.be.closeTo(0, 1e-9);
    }
    expect(x.x[0]).to.be.closeTo(px, 1e-8);
  });

  it('a particle thrown upwards leaves the ground (λ_n = 0 when separating)', async () => {
    const s = await scene(`<Node name="ground"><MechanicalObject name="dofs" position="0 0 0"/></Node>
      ${particle('p', '0 0 0', 2, '0 1 0')}
      <UnilateralLagrangianConstraint object1="@ground/dofs" object2="@p/dofs" first_point="0" second_point="0" normals="0 1 0" mu="0.5"/>`);
    const x = state(s, 'p/dofs');
    let y = 0,
      vy = 1;
    for (let n = 0; n < 5; n++) {
      s.step();
      vy -= h * g;
      y += h * vy;
    }
    expect(x.x[1]).to.be.closeTo(y, 1e-12);
  });

  it('StopperLagrangianConstraint keeps a 1D dof below its max under a constant push', async () => {
    const s = await scene(
      `<Node name="p">
        <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
        <CGLinearSolver iterations="50" tolerance="1e-16" threshold="1e-30"/>
        <MechanicalObject name="dofs" template="Vec1" position="0.9"/>
        <UniformMass totalMass="1"/>
        <UncoupledConstraintCorrection compliance="1"/>
        <StopperLagrangianConstraint index="0" min="-1" max="1"/>
      </Node>`,
      undefined,
      `${g} 0 0`,
    );
    const x = state(s, 'p/dofs');
    for (let n = 0; n < 30; n++) {
      s.step();
      expect(x.x[0]).to.be.at.most(1 + 1e-12);
    }
    expect(x.x[0]).to.be.closeTo(1, 1e-12);
  });

  it('SlidingLagrangianConstraint: a point falling onto a horizontal segment slides along it and stops at its end', async () => {
    const s = await scene(`<Node name="rail"><MechanicalObject name="dofs" position="0 0 0  1 0 0"/></Node>
      ${particle('p', '0.5 0 0', 1, '2 0 0')}
      <SlidingLagrangianConstraint object1="@p/dofs" object2="@rail/dofs" sliding_point="0" axis_1="0" axis_2="1"/>`);
    const x = state(s, 'p/dofs');
    for (let n = 0; n < 60; n++) {
      s.step();
      expect(Math.abs(x.x[1])).to.be.lessThan(1e-9);
      expect(x.x[0]).to.be.at.most(1 + 1e-9);
    }
    expect(x.x[0]).to.be.closeTo(1, 1e-9);
  });
});

describe('constraint: UnbuiltGaussSeidelConstraintSolver', () => {
  it('with consistentWithBuilt, gives the built Gauss-Seidel solution when the bilateral rows warm-start (two rigid bodies tied to a fixed point and to each other, 60 steps)', async () => {
    // Rigid cubes with UncoupledConstraintCorrection, tied by bilateral constraints on mapped points:
    // the unbuilt solver's corrections must start from the warm-started λ (it blew up otherwise).
    const body = `
      <Node name="fixed"><MechanicalObject name="p" position="0 0 0"/></Node>
      <Node name="A">
        <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/><CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-12"/>
        <MechanicalObject name="r" template="Rigid3" position="1 0 0 0 0 0 1"/><UniformMass totalMass="0.1"/><UncoupledConstraintCorrection/>
        <Node name="pts"><MechanicalObject name="p" position="-1 0 0  1 0.5 0"/><RigidMapping/></Node>
      </Node>
      <Node name="B">
        <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/><CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-12"/>
        <MechanicalObject name="r" template="Rigid3" position="3 0.5 0 0 0 0 1"/><UniformMass totalMass="0.1"/><UncoupledConstraintCorrection/>
        <Node name="pts"><MechanicalObject name="p" position="-1 0 0"/><RigidMapping/></Node>
      </Node>
      <BilateralLagrangianConstraint template="Vec3" object1="@fixed/p" object2="@A/pts/p" first_point="0" second_point="0"/>
      <BilateralLagrangianConstraint template="Vec3" object1="@A/pts/p" object2="@B/pts/p" first_point="1" second_point="0"/>`;
    const built = await scene(body, '<BlockGaussSeidelConstraintSolver tolerance="1e-3" maxIterations="1000"/>');
    const unbuilt = await scene(
      body,
      '<UnbuiltGaussSeidelConstraintSolver tolerance="1e-3" maxIterations="1000" consistentWithBuilt="1"/>',
    );
    let maxDiff = 0;
    let moved = 0;
    for (let k = 0; k < 60; k++) {
      built.step();
      unbuilt.step();
      for (const p of ['/A/r', '/B/r']) {
        const a = state(built, p).x,
          b = state(unbuilt, p).x;
        for (let i = 0; i < a.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a[i] - b[i]));
      }
      moved = Math.max(moved, Math.abs(state(built, '/B/r').x[1] - 0.5));
    }
    expect(moved).to.be.greaterThan(1e-3); // the bodies swing: the constraints work
    expect(maxDiff).to.be.below(1e-10);
  });
});

/**
 * SOFA's unbuilt Gauss-Seidel pinned by hand on the smallest coupled case: a fixed point F and two
 * particles a (m = 2, compliance c_a = 1/2) and b (m = 4, c_b = 1/4) at the origin, a moving at +1,
 * b at −2 along x, no gravity, backward Euler (integration factors: position h, velocity 1).
 * C1 ties F to a (δ1 = x_a − x_F, J = +1 on a), C2 ties a to b (δ2 = x_b − x_a, J = −1 on a, +1 on b).
 * Along x, with the compliance scaled by s:
 *   W = s·[[c_a, −c_a], [−c_a, c_a + c_b]],  d1 = x_a,free,  d2 = x_b,free − x_a,free,
 *   one sweep:  λ1 ← λ1 − (d1 + W11·λ1 + W12·λ2)/W11,  then  λ2 ← λ2 − (d2 + W21·λ1 + W22·λ2)/W22
 *   (the second group sees the first's new λ), and the motion x = x_free + h·Δ, v = v_free + Δ with
 *   Δ_a = c_a·(λ1 − λ2), Δ_b = c_b·λ2.
 * SOFA: s = 1 (its unbuilt uncoupled compliance has no integration factor) and λ starts at 0 at
 * every step (the bilateral warm start is erased). First step, one sweep, by hand:
 *   x_free = (0.01, −0.02), d = (0.01, −0.03); λ1 = −0.01/0.5 = −0.02;
 *   d2 + W21·λ1 = −0.03 − 0.5·(−0.02) = −0.02, λ2 = 0.02/0.75 = 0.02666…;
 *   Δ_a = 0.5·(−0.02 − 0.02666…) = −0.02333…, Δ_b = 0.25·0.02666… = 0.00666…;
 *   x_a = 0.01 − 0.000233… = 0.0097666…, v_a = 0.97666…, x_b = −0.0199333…, v_b = −1.99333….
 * consistentWithBuilt: s = h (the built W) and λ starts from the previous step's λ (the warm start).
 */
describe('constraint: UnbuiltGaussSeidelConstraintSolver follows SOFA (hand-computed sweeps)', () => {
  const ca = 0.5,
    cb = 0.25;
  const body = `<Node name="F"><MechanicalObject name="p" position="0 0 0"/></Node>
    ${particle('a', '0 0 0', 2, '1 0 0')}
    ${particle('b', '0 0 0', 4, '-2 0 0')}
    <BilateralLagrangianConstraint object1="@F/p" object2="@a/dofs" first_point="0" second_point="0"/>
    <BilateralLagrangianConstraint object1="@a/dofs" object2="@b/dofs" first_point="0" second_point="0"/>`;

  /** Steps of the 2×2 problem along x by the recurrence above; returns (x_a, v_a, x_b, v_b) per step. */
  function oracle(steps: number, sweeps: number, consistent: boolean): number[][] {
    const s = consistent ? h : 1;
    let xa = 0,
      va = 1,
      xb = 0,
      vb = -2;
    let l1 = 0,
      l2 = 0; // the λ stored by the constraints (their warm start)
    const out: number[][] = [];
    for (let n = 0; n < steps; n++) {
      const xaf = xa + h * va,
        xbf = xb + h * vb;
      const d1 = xaf,
        d2 = xbf - xaf;
      const W11 = s * ca,
        W12 = -s * ca,
        W22 = s * (ca + cb);
      if (!consistent) l1 = l2 = 0;
      for (let k = 0; k < sweeps; k++) {
        l1 -= (d1 + W11 * l1 + W12 * l2) / W11;
        l2 -= (d2 + W12 * l1 + W22 * l2) / W22;
      }
      const da = ca * (l1 - l2),
        db = cb * l2;
      xa = xaf + h * da;
      va += da;
      xb = xbf + h * db;
      vb += db;
      out.push([xa, va, xb, vb]);
    }
    return out;
  }

  async function run(steps: number, sweeps: number, consistent: boolean): Promise<number[][]> {
    const s = await scene(
      body,
      `<UnbuiltGaussSeidelConstraintSolver tolerance="0" maxIterations="${sweeps}"${consistent ? ' consistentWithBuilt="1"' : ''}/>`,
      '0 0 0',
    );
    const a = state(s, 'a/dofs'),
      b = state(s, 'b/dofs');
    const out: number[][] = [];
    for (let n = 0; n < steps; n++) {
      s.step();
      out.push([a.x[0], a.v[0], b.x[0], b.v[0]]);
      expect([a.x[1], a.x[2], b.x[1], b.x[2]]).to.deep.equal([0, 0, 0, 0]);
    }
    return out;
  }

  it('first step, one sweep: the hand-computed values', async () => {
    const [first] = await run(1, 1, false);
    const expected = [0.01 - 0.01 * (0.07 / 3), 1 - 0.07 / 3, -0.02 + 0.01 * (0.02 / 3), -2 + 0.02 / 3];
    for (let i = 0; i < 4; i++) expect(first![i]).to.be.closeTo(expected[i], 1e-14);
    expect(oracle(1, 1, false)[0].map((v, i) => Math.abs(v - expected[i]))).to.satisfy((e: number[]) => e.every((x) => x < 1e-15));
  });

  for (const sweeps of [1, 2]) {
    it(`SOFA's default: ${sweeps} sweep(s) per step from λ = 0 at every step (the stored λ of the previous step ignored), unscaled compliance, over 3 steps`, async () => {
      const got = await run(3, sweeps, false);
      const want = oracle(3, sweeps, false);
      for (let n = 0; n < 3; n++)
        for (let i = 0; i < 4; i++) expect(got[n][i], `step ${n + 1}, value ${i}`).to.be.closeTo(want[n][i], 1e-12);
      // the warm start would have changed the steps after the first: SOFA's is not the consistent solution
      const warm = oracle(3, sweeps, true);
      expect(Math.abs(got[2][1] - warm[2][1])).to.be.greaterThan(1e-3);
    });

    it(`consistentWithBuilt: ${sweeps} sweep(s) per step from the previous λ, compliance scaled like the built W, over 3 steps`, async () => {
      const got = await run(3, sweeps, true);
      const want = oracle(3, sweeps, true);
      for (let n = 0; n < 3; n++)
        for (let i = 0; i < 4; i++) expect(got[n][i], `step ${n + 1}, value ${i}`).to.be.closeTo(want[n][i], 1e-12);
    });
  }
});
