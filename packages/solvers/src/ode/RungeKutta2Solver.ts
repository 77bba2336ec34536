import { sofaComponent } from '@sofa-ts/core';
import type { MechanicalSystem } from '@sofa-ts/assembly';
import { integrate } from './ode-support.js';
import { RungeKuttaSolver } from './runge-kutta.js';

/**
 * SOFA's RungeKutta2Solver: the explicit midpoint method on (x, v)' = (v, M⁻¹f(x, v)):
 *   a = acc(x, v);  x½ = x + (h/2)·v;  v½ = v + (h/2)·a;  a½ = acc(x½, v½)
 *   x ← x + h·v½;  v ← v + h·a½
 * Second order accurate.
 */
@sofaComponent({
  name: 'RungeKutta2Solver',
  aliases: ['RungeKutta2'],
  category: 'OdeSolver',
  module: 'Sofa.Component.ODESolver.Forward',
  description: 'Explicit midpoint method (second order Runge-Kutta).',
})
export class RungeKutta2Solver extends RungeKuttaSolver {
  /** (coordSize) x½; (size) v½ and the accelerations. */
  private xh: Float64Array = new Float64Array(0);
  private vh: Float64Array = new Float64Array(0);
  private acc: Float64Array = new Float64Array(0);

  protected override allocate(sys: MechanicalSystem): void {
    super.allocate(sys);
    this.xh = new Float64Array(sys.coordSize);
    this.vh = sys.newVector();
    this.acc = sys.newVector();
  }

  solve(dt: number): void {
    const t0 = performance.now();
    const sys = this.getSystem();
    const { x0, v0, xh, vh, acc } = this;
    x0.set(sys.x);
    v0.set(sys.v);
    this.computeAcc(sys, acc, x0, v0);
    // half step: x½ = x + (h/2)·v, v½ = v + (h/2)·a
    integrate(sys, xh, x0, v0, dt / 2);
    for (let i = 0; i < vh.length; i++) vh[i] = v0[i] + (dt / 2) * acc[i];
    this.computeAcc(sys, acc, xh, vh);
    // full step with the midpoint derivative
    integrate(sys, sys.x, x0, vh, dt);
    const v = sys.v;
    for (let i = 0; i < v.length; i++) v[i] = v0[i] + dt * acc[i];
    sys.propagatePositionsAndVelocities();
    sys.touchStates();
    this.record(t0, this.linearStats);
  }
}
