import { expect } from 'chai';
import { lusolve } from 'mathjs';
import type { SolverStats } from '@sofa-ts/core';
import { el, oneBody, scene, type TestPoints } from './ode-test-support.js';

// Harmonic oscillator: m = 2, k = 8 (ω = 2), x0 = 1, v0 = 0.3, no gravity.
const m = 2;
const k = 8;
const w2 = k / m;
const w = Math.sqrt(w2);
const x0 = 1;
const v0 = 0.3;
const exactX = (t: number) => x0 * Math.cos(w * t) + (v0 / w) * Math.sin(w * t);

function oscillator(solver: ReturnType<typeof el>, dt: number, extra: ReturnType<typeof el>[] = []) {
  const s = scene(
    oneBody(dt, 0, [
      solver,
      ...extra,
      el('TestPoints', { name: 'dofs', position: x0, velocity: v0 }),
      el('TestMass', { mass: m }),
      el('TestSpring', { stiffness: k }),
    ]),
  );
  return { ...s, dofs: s.get<TestPoints>('body/dofs') };
}

describe('explicit ODE solvers against closed forms', () => {
  it('EulerExplicitSolver (symplectic): conserves the discrete invariant v² + ω²x² − hω²·x·v and keeps the energy bounded', () => {
    const h = 0.05;
    const { sim, dofs } = oscillator(el('EulerExplicitSolver'), h);
    const inv = () => dofs.v[0] ** 2 + w2 * dofs.x[0] ** 2 - h * w2 * dofs.x[0] * dofs.v[0];
    const energy = () => 0.5 * m * dofs.v[0] ** 2 + 0.5 * k * dofs.x[0] ** 2;
    const I0 = inv();
    const E0 = energy();
    let maxDev = 0;
    for (let n = 0; n < 4000; n++) {
      sim.step();
      maxDev = Math.max(maxDev, Math.abs(energy() - E0) / E0);
    }
    expect(Math.abs(inv() - I0) / I0).to.be.below(1e-12);
    // The modified energy differs from E by O(hω): the energy oscillates, never drifts.
    expect(maxDev).to.be.below(2 * h * w);
    expect(maxDev).to.be.above(1e-3);
  });

  it("CentralDifferenceSolver: leap-frog's discrete oscillation x_n = A·cos(nθ) + B·sin(nθ), cos θ = 1 − h²ω²/2", () => {
    const h = 0.05;
    const { sim, dofs } = oscillator(el('CentralDifferenceSolver'), h);
    const theta = Math.acos(1 - (h * h * w2) / 2);
    // the first step: v_½ = v0 − h·ω²·x0, x1 = x0 + h·v_½
    const x1 = x0 + h * (v0 - h * w2 * x0);
    const A = x0,
      B = (x1 - x0 * Math.cos(theta)) / Math.sin(theta);
    for (let n = 1; n <= 2000; n++) {
      sim.step();
      expect(dofs.x[0], `step ${n}`).to.be.closeTo(A * Math.cos(n * theta) + B * Math.sin(n * theta), 1e-9);
    }
  });

  it('CentralDifferenceSolver with rayleighMass r: x_{n+1} = (1 + c − h·d·ω²)·x_n − c·x_{n−1}, c = (1/h − r/2)/(1/h + r/2), d = 1/(1/h + r/2)', () => {
    const h = 0.02,
      r = 0.7;
    const { sim, dofs } = oscillator(el('CentralDifferenceSolver', { rayleighMass: r }), h);
    const c = (1 / h - r / 2) / (1 / h + r / 2),
      d = 1 / (1 / h + r / 2);
    // M·(v_{n+½} − v_{n−½})/h + r·M·(v_{n+½} + v_{n−½})/2 = −K·x_n with v_{−½} = v0
    let prev = x0,
      cur = x0 + h * (c * v0 - d * w2 * x0);
    sim.step();
    expect(dofs.x[0]).to.be.closeTo(cur, 1e-12);
    let peak0 = 0,
      peak1 = 0;
    for (let n = 2; n <= 1500; n++) {
      sim.step();
      const next = (1 + c - h * d * w2) * cur - c * prev;
      expect(dofs.x[0], `step ${n}`).to.be.closeTo(next, 1e-10);
      [prev, cur] = [cur, next];
      if (n <= 200) peak0 = Math.max(peak0, Math.abs(next));
      if (n > 1300) peak1 = Math.max(peak1, Math.abs(next));
    }
    // the amplitude decays as c^(n/2) = e^(−r·t/2) to first order
    expect(peak1 / peak0).to.be.below(Math.exp((-r * 1100 * h) / 2) * 1.5);
  });

  it('EulerExplicitSolver (symplectic = false): the energy grows by exactly (1 + h²ω²) per step', () => {
    const h = 0.01;
    const { sim, dofs } = oscillator(el('EulerExplicitSolver', { symplectic: false }), h);
    const energy = () => 0.5 * m * dofs.v[0] ** 2 + 0.5 * k * dofs.x[0] ** 2;
    const E0 = energy();
    const N = 500;
    sim.step();
    for (let n = 1; n < N; n++) sim.step();
    expect(energy() / E0 / Math.pow(1 + h * h * w2, N) - 1).to.be.closeTo(0, 1e-10);
  });

  it('EulerExplicitSolver with a non-diagonal mass solves M·a = P·f with the linear solver (one step vs mathjs)', () => {
    const h = 0.01;
    const g = -9.81;
    // Two Vec1 points sharing the consistent mass m·[2/3 1/3; 1/3 2/3], springs to 0.
    const xs = [0.4, -0.7];
    const vs = [0.1, 0.2];
    const body = (fixed: boolean) => [
      el('EulerExplicitSolver', { symplectic: false }),
      el('EigenSimplicialLDLT'),
      el('TestPoints', { name: 'dofs', position: xs.join(' '), velocity: vs.join(' ') }),
      el('TestMass', { mass: m, consistent: true }),
      el('TestSpring', { stiffness: k }),
      ...(fixed ? [el('TestFixed', { indices: '0' })] : []),
    ];
    const M = [
      [(2 / 3) * m, m / 3],
      [m / 3, (2 / 3) * m],
    ];
    const f = xs.map((x, i) => -k * x + (M[i][0] + M[i][1]) * g);
    const a = (lusolve(M, f) as number[][]).map((r) => r[0]);
    const s = scene(oneBody(h, g, body(false)));
    const dofs = s.get<TestPoints>('body/dofs');
    s.sim.step();
    for (let i = 0; i < 2; i++) {
      expect(dofs.x[i]).to.be.closeTo(xs[i] + h * vs[i], 1e-15);
      expect(dofs.v[i]).to.be.closeTo(vs[i] + h * a[i], 1e-13);
    }
    // Dof 0 fixed: a_0 = 0 and M_11·a_1 = f_1 (the projected system).
    const s2 = scene(oneBody(h, g, body(true)));
    const d2 = s2.get<TestPoints>('body/dofs');
    s2.sim.step();
    expect(d2.v[0]).to.equal(vs[0]);
    expect(d2.v[1]).to.be.closeTo(vs[1] + (h * f[1]) / M[1][1], 1e-13);
  });

  it('EulerExplicitSolver with a non-diagonal mass and no linear solver: an error naming the solver', () => {
    const s = scene(
      oneBody(0.01, 0, [el('EulerExplicitSolver'), el('TestPoints', { position: '0 1' }), el('TestMass', { consistent: true })]),
    );
    expect(() => s.sim.step()).to.throw(/EulerExplicitSolver.*not diagonal: a linear solver is needed/);
  });

  for (const [name, order, lo, hi] of [
    ['RungeKutta2Solver', 2, 3.5, 4.5],
    ['RungeKutta4Solver', 4, 14, 18],
  ] as const) {
    it(`${name}: error at t = 2 shrinks by 2^${order} when dt is halved (order ${order})`, () => {
      const errs: number[] = [];
      for (const h of [0.1, 0.05, 0.025]) {
        const { sim, dofs } = oscillator(el(name), h);
        const n = Math.round(2 / h);
        for (let i = 0; i < n; i++) sim.step();
        errs.push(Math.abs(dofs.x[0] - exactX(n * h)));
      }
      for (let i = 0; i + 1 < errs.length; i++) {
        const ratio = errs[i] / errs[i + 1];
        expect(ratio, `errors ${errs.join(', ')}`).to.be.within(lo, hi);
      }
    });

    it(`${name}: free fall is integrated exactly (x = x0 + v0·t + ½g·t²)`, () => {
      const h = 0.1;
      const s = scene(
        oneBody(h, -9.81, [el(name), el('TestPoints', { name: 'dofs', position: '1 2', velocity: '0.5 -1' }), el('TestMass', { mass: 3 })]),
      );
      const dofs = s.get<TestPoints>('body/dofs');
      for (let i = 0; i < 20; i++) s.sim.step();
      const t = 20 * h;
      expect(dofs.x[0]).to.be.closeTo(1 + 0.5 * t - 0.5 * 9.81 * t * t, 1e-11);
      expect(dofs.x[1]).to.be.closeTo(2 - t - 0.5 * 9.81 * t * t, 1e-11);
      expect(dofs.v[1]).to.be.closeTo(-1 - 9.81 * t, 1e-11);
    });
  }

  it('the solvers report their statistics to the animation loop', () => {
    const { sim, root } = oscillator(el('RungeKutta4Solver'), 0.01);
    sim.step();
    const solver = root.children[0].objects[0] as unknown as { lastStats: SolverStats };
    expect(solver.lastStats.timeMs).to.be.at.least(0);
  });
});
