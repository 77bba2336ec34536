import { Bool, sofaComponent } from '@sofa-ts/core';
import { integrate } from './ode-support.js';
import { ForwardOdeSolver } from './forward-ode-solver.js';

/**
 * SOFA's EulerExplicitSolver: forward Euler on the second order system M·a = f(x, v).
 *   a = M⁻¹·f  (projected)
 *   symplectic (default): v ← v + h·a,  x ← x + h·v_new   (semi-implicit Euler, stable for springs)
 *   otherwise:            x ← x + h·v,  v ← v + h·a       (plain forward Euler, gains energy)
 * With only diagonal masses a = M⁻¹·f point by point (then projected); otherwise, as in SOFA,
 * f is projected and M·a = f solved by the node's linear solver on the assembled P·M·P.
 */
@sofaComponent({
  name: 'EulerExplicitSolver',
  aliases: ['Euler', 'EulerSolver', 'ExplicitEuler', 'ExplicitEulerSolver', 'EulerExplicit'],
  category: 'OdeSolver',
  module: 'Sofa.Component.ODESolver.Forward',
  description: 'Forward (or semi-implicit, symplectic) Euler integration of M·a = f.',
})
export class EulerExplicitSolver extends ForwardOdeSolver {
  readonly symplectic = this.initData({
    name: 'symplectic',
    type: Bool,
    default: true,
    help: 'true: new velocity first, then positions moved with it (symplectic Euler, bounded energy); false: positions moved with the old velocity (forward Euler, energy grows)',
  });
  readonly optimizedForDiagonalMatrix = this.initData({
    name: 'optimizedForDiagonalMatrix',
    type: Bool,
    default: true,
    help: 'deprecated, accepted for compatibility: the solver detects non-diagonal masses itself',
  });

  solve(dt: number): void {
    const t0 = performance.now();
    const sys = this.getSystem();
    const h = dt;
    const { x, v } = sys;
    const acc = this.acc;
    const stats = this.acceleration(sys);
    // x and v from a, in the order given by `symplectic`.
    if (this.symplectic.value) {
      for (let i = 0; i < v.length; i++) v[i] = v[i] + h * acc[i];
      integrate(sys, x, x, v, h);
    } else {
      integrate(sys, x, x, v, h);
      for (let i = 0; i < v.length; i++) v[i] = v[i] + h * acc[i];
    }
    sys.propagatePositionsAndVelocities();
    sys.touchStates();
    this.record(t0, stats);
  }
}
