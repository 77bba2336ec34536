import { expect } from 'chai';
import { el, oneBody, scene, type TestPoints } from './ode-test-support.js';

/**
 * Order of accuracy of the implicit integrators on the undamped oscillator m·x'' = −k·x,
 * x(0) = 1, v(0) = 0, whose exact solution is x = cos(ωt), v = −ω·sin(ωt), ω = √(k/m).
 * The error at a fixed time T is measured for steps h and h/2: the observed order is
 * log2(e(h)/e(h/2)). `ramp`: a multistep method of order p > 2 builds its history with lower
 * orders (a first backward Euler step has a local error O(h²)); the run then starts with steps
 * growing geometrically (×1.25) from h/1024 to h, so that the start costs O((h/1024)²) and the
 * variable-step formula stays close to uniform steps. T is wherever the last step lands.
 */
const m = 1;
const k = 4 * Math.PI * Math.PI; // ω = 2π
const omega = Math.sqrt(k / m);

function errorAt(solver: ReturnType<typeof el>[], h: number, steps: number, ramp = false): number {
  const s = scene(
    oneBody(h, 0, [
      ...solver,
      el('EigenSimplicialLDLT'),
      el('TestPoints', { name: 'dofs', position: '1' }),
      el('TestMass', { mass: m }),
      el('TestSpring', { stiffness: k }),
    ]),
  );
  const dofs = s.get<TestPoints>('body/dofs');
  let t = 0;
  for (let dt = h / 1024; ramp && dt < h; dt *= 1.25) {
    s.root.dt.value = dt;
    s.sim.step();
    t += dt;
  }
  s.root.dt.value = h;
  for (let i = 0; i < steps; i++) {
    s.sim.step();
    t += h;
  }
  return Math.abs(dofs.x[0] - Math.cos(omega * t)) + Math.abs(dofs.v[0] + omega * Math.sin(omega * t)) / omega;
}

function observedOrder(solver: () => ReturnType<typeof el>[], n: number, ramp = false): number {
  const e1 = errorAt(solver(), 1 / n, n, ramp);
  const e2 = errorAt(solver(), 1 / (2 * n), 2 * n, ramp);
  return Math.log2(e1 / e2);
}

const newton = () =>
  el('NewtonRaphsonSolver', {
    maxNbIterationsNewton: 3,
    absoluteResidualStoppingThreshold: 1e-14,
    relativeSuccessiveStoppingThreshold: 0,
    relativeInitialStoppingThreshold: 1e-13,
  });

describe('ODE solvers: order of accuracy on the undamped oscillator (halving h divides the error by 2^p)', () => {
  it('BDFOdeSolver order 1 (backward Euler): p = 1', () => {
    const p = observedOrder(() => [el('BDFOdeSolver', { order: 1 }), newton()], 400);
    expect(p).to.be.closeTo(1, 0.1);
  });

  it('BDFOdeSolver order 2: p = 2 (its first step is of order 1, a local error O(h²))', () => {
    const p = observedOrder(() => [el('BDFOdeSolver', { order: 2 }), newton()], 200);
    expect(p).to.be.closeTo(2, 0.15);
  });

  for (const order of [3, 4]) {
    it(`BDFOdeSolver order ${order}, variable steps (a geometric ramp of steps at the start): p = ${order}`, () => {
      const p = observedOrder(() => [el('BDFOdeSolver', { order }), newton()], 100, true);
      expect(p).to.be.closeTo(order, 0.2);
    });
  }

  it('NewmarkImplicitSolver (γ = ½, β = ¼): p = 2, and no numerical damping (energy kept over 100 periods)', () => {
    const p = observedOrder(() => [el('NewmarkImplicitSolver')], 200);
    expect(p).to.be.closeTo(2, 0.1);
    const s = scene(
      oneBody(0.05, 0, [
        el('NewmarkImplicitSolver'),
        el('EigenSimplicialLDLT'),
        el('TestPoints', { name: 'dofs', position: '1' }),
        el('TestMass', { mass: m }),
        el('TestSpring', { stiffness: k }),
      ]),
    );
    const dofs = s.get<TestPoints>('body/dofs');
    for (let i = 0; i < 2000; i++) s.sim.step();
    const E = 0.5 * m * dofs.v[0] ** 2 + 0.5 * k * dofs.x[0] ** 2;
    expect(E / (0.5 * k)).to.be.closeTo(1, 1e-10);
  });

  it('NewmarkImplicitSolver with γ = ½, β = 0 is the (explicit) central difference: p = 2 for h under its stability limit 2/ω', () => {
    const p = observedOrder(() => [el('NewmarkImplicitSolver', { beta: 0 })], 200);
    expect(p).to.be.closeTo(2, 0.1);
  });
});
