import { Real, sofaComponent } from '@sofa-ts/core';
import { integrate } from './ode-support.js';
import { ForwardOdeSolver } from './forward-ode-solver.js';

/**
 * SOFA's CentralDifferenceSolver (Verlet, leap-frog): explicit, from M·ü + C·u̇ + K·u = P with the
 * velocities at half steps. With a = M⁻¹·(P − K·uₙ) (projected) and Rayleigh mass damping C = r·M,
 *   v_{n+½} = (1/h − r/2)/(1/h + r/2)·v_{n−½} + a/(1/h + r/2),   u_{n+1} = uₙ + h·v_{n+½};
 * for r = 0, v ← v + h·a then u ← u + h·v (the symplectic Euler of EulerExplicitSolver). The sums are
 * SOFA's single-operation ones: v + v·(c − 1) + a·d with c = (1/h − r/2)/(1/h + r/2), d = 1/(1/h + r/2).
 * With a mass that is not diagonal, M·a = f is solved by the node's linear solver, as
 * EulerExplicitSolver does.
 */
@sofaComponent({
  name: 'CentralDifferenceSolver',
  aliases: ['CentralDifference'],
  category: 'OdeSolver',
  module: 'Sofa.Component.ODESolver.Forward',
  description: 'Explicit time integrator using central difference (also known as Verlet of Leap-frog).',
})
export class CentralDifferenceSolver extends ForwardOdeSolver {
  readonly rayleighMass = this.initData({
    name: 'rayleighMass',
    type: Real,
    default: 0,
    help: 'Rayleigh damping coefficient related to mass',
  });

  solve(dt: number): void {
    const t0 = performance.now();
    const sys = this.getSystem();
    const h = dt;
    const { x, v } = sys;
    const acc = this.acc;
    const stats = this.acceleration(sys);
    const r = this.rayleighMass.value;
    if (r === 0) {
      for (let i = 0; i < v.length; i++) v[i] = v[i] + acc[i] * h;
    } else {
      const c = (1 / h - r / 2) / (1 / h + r / 2),
        d = 1 / (1 / h + r / 2);
      for (let i = 0; i < v.length; i++) v[i] = v[i] + v[i] * (-1 + c) + acc[i] * d;
    }
    integrate(sys, x, x, v, h);
    sys.propagatePositionsAndVelocities();
    sys.touchStates();
    this.record(t0, stats);
  }
}
