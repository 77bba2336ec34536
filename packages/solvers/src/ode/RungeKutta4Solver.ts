import { sofaComponent } from '@sofa-ts/core';
import type { MechanicalSystem } from '@sofa-ts/assembly';
import { integrate } from './ode-support.js';
import { RungeKuttaSolver } from './runge-kutta.js';

/**
 * SOFA's RungeKutta4Solver: the classical fourth order Runge-Kutta method on
 * (x, v)' = (v, M⁻¹f(x, v)):
 *   k1 = (v, a(x, v))
 *   k2 = (v + (h/2)·k1a, a(x + (h/2)·k1v, v + (h/2)·k1a))
 *   k3 = (v + (h/2)·k2a, a(x + (h/2)·k2v, v + (h/2)·k2a))
 *   k4 = (v + h·k3a,     a(x + h·k3v,     v + h·k3a))
 *   x ← x + h/6·k1v + h/3·k2v + h/3·k3v + h/6·k4v   (accumulated in this order, as SOFA)
 *   v ← v + h/6·k1a + h/3·k2a + h/3·k3a + h/6·k4a
 * Global error O(h⁴).
 */
@sofaComponent({
  name: 'RungeKutta4Solver',
  aliases: ['RungeKutta4'],
  category: 'OdeSolver',
  module: 'Sofa.Component.ODESolver.Forward',
  description: 'Classical fourth order explicit Runge-Kutta method.',
})
export class RungeKutta4Solver extends RungeKuttaSolver {
  /** (coordSize) intermediate positions; (size) k2v..k4v and k1a..k4a. */
  private xk: Float64Array = new Float64Array(0);
  private kv: Float64Array[] = [];
  private ka: Float64Array[] = [];

  protected override allocate(sys: MechanicalSystem): void {
    super.allocate(sys);
    this.xk = new Float64Array(sys.coordSize);
    this.kv = [this.v0, sys.newVector(), sys.newVector(), sys.newVector()];
    this.ka = [sys.newVector(), sys.newVector(), sys.newVector(), sys.newVector()];
  }

  solve(dt: number): void {
    const t0 = performance.now();
    const sys = this.getSystem();
    const { x0, v0, xk, kv, ka } = this;
    x0.set(sys.x);
    v0.set(sys.v);
    this.computeAcc(sys, ka[0], x0, v0);
    // stages 2 to 4: x_k = x0 + c·k(v)_{k−1}, v_k = v0 + c·k(a)_{k−1}
    const c = [0, dt / 2, dt / 2, dt];
    for (let s = 1; s < 4; s++) {
      integrate(sys, xk, x0, kv[s - 1], c[s]);
      const vk = kv[s];
      const aPrev = ka[s - 1];
      for (let i = 0; i < vk.length; i++) vk[i] = v0[i] + c[s] * aPrev[i];
      this.computeAcc(sys, ka[s], xk, vk);
    }
    // x = x0 + h/6 k1v + h/3 k2v + h/3 k3v + h/6 k4v (one term after the other)
    const w = [dt / 6, dt / 3, dt / 3, dt / 6];
    integrate(sys, xk, x0, kv[0], w[0]);
    for (let s = 1; s < 4; s++) integrate(sys, xk, xk, kv[s], w[s]);
    const v = sys.v;
    for (let i = 0; i < v.length; i++) {
      let vi = v0[i] + w[0] * ka[0][i];
      vi += w[1] * ka[1][i];
      vi += w[2] * ka[2][i];
      v[i] = vi + w[3] * ka[3][i];
    }
    sys.x.set(xk);
    sys.propagatePositionsAndVelocities();
    sys.touchStates();
    this.record(t0, this.linearStats);
  }
}
