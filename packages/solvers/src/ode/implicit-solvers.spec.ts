import { expect } from 'chai';
import type { NewtonRaphsonSolver } from './NewtonRaphsonSolver.js';
import type { StaticSolver } from './StaticSolver.js';
import { sceneWarnings } from '@sofa-ts/core';
import { el, oneBody, scene, type TestPoints } from './ode-test-support.js';
import type { VariationalSymplecticSolver } from './VariationalSymplecticSolver.js';

// Root of a monotone increasing function by bisection (the independent oracle for nonlinear cases).
function bisect(fn: (u: number) => number, lo: number, hi: number): number {
  for (let i = 0; i < 200; i++) {
    const mid = 0.5 * (lo + hi);
    if (fn(mid) > 0) hi = mid;
    else lo = mid;
  }
  return 0.5 * (lo + hi);
}

// Checks |r_{k+1}| <= C·|r_k|² over the iterations still far from round-off (quadratic convergence).
function expectQuadratic(squaredNorms: readonly number[], floor: number): void {
  const r = squaredNorms.map(Math.sqrt);
  let checked = 0;
  for (let i = 0; i + 1 < r.length; i++) {
    if (r[i] < 1 && r[i + 1] > floor) {
      expect(r[i + 1], `|r| = ${r.join(', ')}`).to.be.below(10 * r[i] ** 2);
      checked++;
    }
  }
  expect(checked, `|r| = ${r.join(', ')}`).to.be.at.least(1);
}

describe('StaticSolver (on a NewtonRaphsonSolver, SOFA v25.06)', () => {
  const m = 2;
  const g = -10;
  const k = 8;

  it('reaches the equilibrium k·x = m·g of a linear spring in one Newton iteration (Newton solver made with its defaults, said)', () => {
    const s = scene(
      oneBody(0.1, g, [
        el('StaticSolver', { name: 'solver' }),
        el('EigenSimplicialLDLT'),
        el('TestPoints', { name: 'dofs', position: '3 -1', velocity: '5 5' }),
        el('TestMass', { mass: m }),
        el('TestSpring', { stiffness: k }),
      ]),
    );
    expect(sceneWarnings(s.root).some((w) => /one with SOFA's defaults is made/.test(w.message))).to.equal(true);
    const dofs = s.get<TestPoints>('body/dofs');
    s.sim.step();
    expect(dofs.x[0]).to.be.closeTo((m * g) / k, 1e-12);
    expect(dofs.x[1]).to.be.closeTo((m * g) / k, 1e-12);
    expect(dofs.v[0], 'velocities untouched').to.equal(5);
    // At equilibrium the next step does nothing (residual under the absolute threshold).
    s.sim.step();
    expect(s.get<StaticSolver>('body/solver').iterationsDone).to.equal(0);
    expect(s.get<StaticSolver>('body/solver').newtonRaphson.status.value).to.equal('ConvergedEquilibrium');
    expect(dofs.x[0]).to.be.closeTo((m * g) / k, 1e-12);
  });

  it('a hardening spring k·u + c·u³ = m·g: the linked NewtonRaphsonSolver converges quadratically to the root, and steps once per time step', () => {
    const c = 3;
    const s = scene(
      oneBody(0.1, g, [
        el('NewtonRaphsonSolver', {
          name: 'newton',
          maxNbIterationsNewton: 30,
          relativeSuccessiveStoppingThreshold: 0,
          relativeInitialStoppingThreshold: 0,
          absoluteResidualStoppingThreshold: 1e-13,
        }),
        el('StaticSolver', { name: 'solver', newtonSolver: '@newton' }),
        el('EigenSimplicialLDLT'),
        el('TestPoints', { name: 'dofs', position: '4' }),
        el('TestMass', { mass: m }),
        el('TestSpring', { stiffness: k, cubic: c }),
      ]),
    );
    const newton = s.get<NewtonRaphsonSolver>('body/newton');
    s.sim.step();
    const root = bisect((u) => k * u + c * u ** 3 - m * g, -10, 10);
    expect(s.get<TestPoints>('body/dofs').x[0]).to.be.closeTo(root, 1e-12);
    expect(newton.status.value).to.equal('ConvergedAbsoluteResidual');
    expect(newton.iterationsDone).to.be.below(15);
    expectQuadratic(Array.from(newton.residualGraph.value), 1e-10);
    // A second step from equilibrium: nothing moves (the Newton solver is no ODE solver of its own).
    s.sim.step();
    expect(newton.status.value).to.equal('ConvergedEquilibrium');
    expect(s.get<TestPoints>('body/dofs').x[0]).to.be.closeTo(root, 1e-12);
  });

  it('the deprecated Newton Data of StaticSolver set the Newton solver made for it (warned, located); |R|/|R0| is measured against the initial residual', () => {
    const c = 3;
    const body = (extra: ReturnType<typeof el>[], attrs: Record<string, number | string>) => [
      ...extra,
      el('StaticSolver', { name: 'solver', ...attrs }),
      el('EigenSimplicialLDLT'),
      el('TestPoints', { name: 'dofs', position: '4' }),
      el('TestMass', { mass: m }),
      el('TestSpring', { stiffness: k, cubic: c }),
    ];
    const old = {
      newton_iterations: 50,
      absolute_correction_tolerance_threshold: 0,
      relative_correction_tolerance_threshold: 0,
      absolute_residual_tolerance_threshold: 0,
      relative_residual_tolerance_threshold: 1e-3,
    };
    const rel = scene(oneBody(0.1, g, body([], old)));
    const deprecations = sceneWarnings(rel.root).filter((w) => w.code === 'deprecated');
    expect(deprecations.length).to.equal(5);
    const solver = rel.get<StaticSolver>('body/solver');
    expect(solver.newtonRaphson.maxNbIterationsNewton.value).to.equal(50);
    expect(solver.newtonRaphson.relativeInitialStoppingThreshold.value).to.equal(1e-3);
    // relativeSuccessive keeps its default (1e-5) and is tested first; it must not be what stops here.
    solver.newtonRaphson.relativeSuccessiveStoppingThreshold.value = 0;
    rel.sim.step();
    const R = Array.from(solver.newtonRaphson.residualGraph.value);
    expect(solver.newtonRaphson.status.value).to.equal('ConvergedResidualInitialRatio');
    // Stops at the first |R_k| < 1e-3·|R_0| (R_0 before any iteration), not before.
    expect(R[R.length - 1]).to.be.below(1e-6 * R[0]);
    for (let i = 0; i < R.length - 1; i++) expect(R[i]).to.be.at.least(1e-6 * R[0]);
    // With a NewtonRaphsonSolver in the node, the deprecated Data are ignored (and said so).
    const linked = scene(oneBody(0.1, g, body([el('NewtonRaphsonSolver', { name: 'newton' })], { newton_iterations: 50 })));
    expect(sceneWarnings(linked.root).some((w) => /ignored here: NewtonRaphsonSolver 'newton' is used/.test(w.message))).to.equal(true);
    expect(linked.get<StaticSolver>('body/solver').newtonRaphson).to.equal(linked.get<NewtonRaphsonSolver>('body/newton'));
  });
});

describe('BDFOdeSolver order 1 on a NewtonRaphsonSolver (backward Euler)', () => {
  const base = (attrs: Record<string, number | string>, extra: ReturnType<typeof el>[] = [], g = -1, dt = 0.1) =>
    scene(
      oneBody(dt, g, [
        el('BDFOdeSolver', { name: 'bdf', order: 1 }),
        el('NewtonRaphsonSolver', { name: 'solver', ...attrs }),
        el('EigenSimplicialLDLT'),
        el('TestPoints', { name: 'dofs', position: '1' }),
        ...extra,
      ]),
    );
  const zero = {
    relativeSuccessiveStoppingThreshold: 0,
    relativeInitialStoppingThreshold: 0,
    absoluteResidualStoppingThreshold: 0,
    relativeEstimateDifferenceThreshold: 0,
    absoluteEstimateDifferenceThreshold: 0,
    maxNbIterationsLineSearch: 1,
  };

  it('no force: the initial guess is already the solution (ConvergedEquilibrium)', () => {
    const s = base({});
    expect(s.get<NewtonRaphsonSolver>('body/solver').status.value).to.equal('Undefined');
    s.sim.step();
    expect(s.get<NewtonRaphsonSolver>('body/solver').status.value).to.equal('ConvergedEquilibrium');
  });

  for (const [crit, status] of [
    [{}, 'DivergedMaxIterations'],
    [{ relativeSuccessiveStoppingThreshold: 1e-15 }, 'ConvergedResidualSuccessiveRatio'],
    [{ relativeInitialStoppingThreshold: 1e-15 }, 'ConvergedResidualInitialRatio'],
    [{ absoluteResidualStoppingThreshold: 1e-15 }, 'ConvergedAbsoluteResidual'],
    [{ relativeEstimateDifferenceThreshold: 1e-15 }, 'DivergedMaxIterations'],
    [{ absoluteEstimateDifferenceThreshold: 1e-15 }, 'DivergedMaxIterations'],
  ] as const) {
    it(`gravity, one iteration, criteria ${JSON.stringify(crit)}: ${status}, and backward Euler v = v_n + h·g, x = x_n + h·v`, () => {
      const s = base({ ...zero, ...crit }, [el('TestMass', { mass: 1 })]);
      const dofs = s.get<TestPoints>('body/dofs');
      const solver = s.get<NewtonRaphsonSolver>('body/solver');
      for (let i = 1; i <= 10; i++) {
        const xPrev = dofs.x[0];
        const vPrev = dofs.v[0];
        s.sim.step();
        expect(solver.status.value).to.equal(status);
        expect(dofs.v[0]).to.be.closeTo(vPrev - 0.1, 1e-14);
        expect(dofs.x[0]).to.be.closeTo(xPrev + 0.1 * dofs.v[0], 1e-14);
      }
    });
  }

  it('a stiff hardening spring with a large step: quadratic convergence to the backward Euler solution', () => {
    const m = 1;
    const k = 50;
    const c = 400;
    const h = 0.2;
    const s = base(
      {
        maxNbIterationsNewton: 40,
        relativeSuccessiveStoppingThreshold: 0,
        relativeInitialStoppingThreshold: 0,
        absoluteResidualStoppingThreshold: 1e-13,
      },
      [el('TestMass', { mass: m }), el('TestSpring', { stiffness: k, cubic: c })],
      0,
      h,
    );
    const solver = s.get<NewtonRaphsonSolver>('body/solver');
    s.sim.step();
    // Backward Euler: m·(v − 0) + h·(k·u + c·u³) = 0 with u = 1 + h·v (monotone in v).
    const v = bisect((vv) => m * vv + h * (k * (1 + h * vv) + c * (1 + h * vv) ** 3), -100, 100);
    expect(solver.status.value).to.equal('ConvergedAbsoluteResidual');
    const dofs = s.get<TestPoints>('body/dofs');
    expect(dofs.v[0]).to.be.closeTo(v, 1e-10);
    expect(dofs.x[0]).to.be.closeTo(1 + h * v, 1e-12);
    expect(solver.iterationsDone).to.be.at.least(3);
    expectQuadratic(Array.from(solver.residualGraph.value), 1e-11);
  });

  it('updateStateWhenDiverged = false keeps the previous state when the iterations do not converge', () => {
    const s = base(
      { ...zero, maxNbIterationsNewton: 1, updateStateWhenDiverged: 0 },
      [el('TestMass', { mass: 1 }), el('TestSpring', { stiffness: 50, cubic: 400 })],
      0,
      0.2,
    );
    s.sim.step();
    expect(s.get<NewtonRaphsonSolver>('body/solver').status.value).to.equal('DivergedMaxIterations');
    expect(s.get<TestPoints>('body/dofs').x[0]).to.equal(1);
  });

  it('a NewtonRaphsonSolver alone is no ODE solver: nothing moves, and a warning says why', () => {
    const s = scene(
      oneBody(0.1, -1, [
        el('NewtonRaphsonSolver', { name: 'solver' }),
        el('EigenSimplicialLDLT'),
        el('TestPoints', { name: 'dofs', position: '1' }),
        el('TestMass', { mass: 1 }),
      ]),
    );
    expect(sceneWarnings(s.root).some((w) => /no ODE solver uses this NewtonRaphsonSolver/.test(w.message))).to.equal(true);
    s.sim.step();
    expect(s.get<TestPoints>('body/dofs').x[0]).to.equal(1);
  });
});

describe('VariationalSymplecticSolver', () => {
  const m = 2;
  const k = 8;

  it('implicit (midpoint) scheme on a linear oscillator: ½p²/m + ½k·x² is conserved, the step is the closed-form midpoint map', () => {
    const h = 0.05;
    const s = scene(
      oneBody(h, 0, [
        el('VariationalSymplecticSolver', { name: 'solver', useIncrementalPotentialEnergy: 0 }),
        el('EigenSimplicialLDLT'),
        el('TestPoints', { name: 'dofs', position: '1', velocity: '0.3' }),
        el('TestMass', { mass: m }),
        el('TestSpring', { stiffness: k }),
      ]),
    );
    const solver = s.get<VariationalSymplecticSolver>('body/solver');
    const dofs = s.get<TestPoints>('body/dofs');
    // First step by hand: p = m·v0; res = (2p/h − k·q)/(4m/h² + k); v1 = 2·res/h; q1 = q + h·v1.
    const q = 1;
    const p = m * 0.3;
    const res = ((2 * p) / h - k * q) / ((4 * m) / (h * h) + k);
    s.sim.step();
    expect(dofs.v[0]).to.be.closeTo((2 * res) / h, 1e-13);
    expect(dofs.x[0]).to.be.closeTo(q + 2 * res, 1e-13);
    const H0 = solver.hamiltonianEnergy.value;
    expect(H0).to.be.closeTo(0.5 * m * 0.09 + 0.5 * k, 1e-12);
    for (let i = 0; i < 2000; i++) {
      s.sim.step();
      expect(Math.abs(solver.hamiltonianEnergy.value - H0) / H0).to.be.below(1e-11);
    }
  });

  it('the incremental potential −2·f(q_mid)·res of a linear spring is exact (½k·x²) once the Newton iterations reach the midpoint', () => {
    const h = 0.05;
    const s = scene(
      oneBody(h, 0, [
        el('VariationalSymplecticSolver', { name: 'solver', newtonError: 1e-13 }),
        el('EigenSimplicialLDLT'),
        el('TestPoints', { name: 'dofs', position: '1', velocity: '0.3' }),
        el('TestMass', { mass: m }),
        el('TestSpring', { stiffness: k }),
      ]),
    );
    const solver = s.get<VariationalSymplecticSolver>('body/solver');
    for (let i = 0; i < 200; i++) s.sim.step();
    expect(solver.newtonIterations).to.equal(2);
    expect(solver.hamiltonianEnergy.value).to.be.closeTo(0.5 * m * 0.09 + 0.5 * k, 1e-9);
  });

  it('explicit scheme = symplectic Euler (same trajectory as EulerExplicitSolver)', () => {
    const h = 0.02;
    const a = scene(
      oneBody(h, -3, [
        el('VariationalSymplecticSolver', { explicitIntegration: 1, computeHamiltonian: 0 }),
        el('TestPoints', { name: 'dofs', position: '1', velocity: '0.3' }),
        el('TestMass', { mass: m }),
        el('TestSpring', { stiffness: k }),
      ]),
    );
    const b = scene(
      oneBody(h, -3, [
        el('EulerExplicitSolver'),
        el('TestPoints', { name: 'dofs', position: '1', velocity: '0.3' }),
        el('TestMass', { mass: m }),
        el('TestSpring', { stiffness: k }),
      ]),
    );
    for (let i = 0; i < 300; i++) {
      a.sim.step();
      b.sim.step();
    }
    expect(a.get<TestPoints>('body/dofs').x[0]).to.be.closeTo(b.get<TestPoints>('body/dofs').x[0], 1e-12);
    expect(a.get<TestPoints>('body/dofs').v[0]).to.be.closeTo(b.get<TestPoints>('body/dofs').v[0], 1e-12);
  });
});

describe('EulerImplicitSolver with the new linear solvers', () => {
  it('PCG (Jacobi, SSOR) and every direct solver give the same damped trajectory as EigenSimplicialLDLT', () => {
    const body = (solvers: ReturnType<typeof el>[]) => [
      el('EulerImplicitSolver', { rayleighStiffness: 0.1, rayleighMass: 0.2 }),
      ...solvers,
      el('TestPoints', { template: 'Vec3d', name: 'dofs', position: '1 0 2  0 1 -1  3 3 3', velocity: '0 1 0  1 0 0  0 0 1' }),
      el('TestMass', { mass: 2, consistent: true }),
      el('TestSpring', { stiffness: 30, cubic: 5, damping: 0.5 }),
      el('TestFixed', { indices: '1' }),
    ];
    const run = (solvers: ReturnType<typeof el>[]) => {
      const s = scene(oneBody(0.05, -9.81, body(solvers)));
      for (let i = 0; i < 40; i++) s.sim.step();
      return Array.from(s.get<TestPoints>('body/dofs').x);
    };
    const ref = run([el('EigenSimplicialLDLT')]);
    const variants = [
      [el('PCGLinearSolver', { iterations: 200, tolerance: 1e-28, preconditioner: '@prec' }), el('JacobiPreconditioner', { name: 'prec' })],
      [
        el('PCGLinearSolver', { iterations: 200, tolerance: 1e-28, preconditioner: '@prec' }),
        el('SSORPreconditioner', { name: 'prec', omega: 1.2 }),
      ],
      [
        el('ShewchukPCGLinearSolver', { iterations: 200, tolerance: 1e-28, preconditioner: '@prec', update_step: 3 }),
        el('BlockJacobiPreconditioner', { name: 'prec' }),
      ],
      [el('PCGLinearSolver', { iterations: 200, tolerance: 1e-28, use_precond: 0 })],
      [el('SparseLDLSolver'), el('MetisOrderingMethod')],
      [el('SparseLDLSolver', { template: 'CompressedRowSparseMatrixd' }), el('NaturalOrderingMethod')],
      [el('EigenSimplicialLLT')],
      [el('EigenSparseLU')],
      [el('EigenSparseQR')],
      [el('SparseLUSolver')],
      [el('SparseCholeskySolver')],
    ];
    for (const v of variants) {
      const x = run(v);
      for (let i = 0; i < x.length; i++) expect(x[i], v.map((e) => e.tag).join('+')).to.be.closeTo(ref[i], 1e-9);
    }
  });
});
