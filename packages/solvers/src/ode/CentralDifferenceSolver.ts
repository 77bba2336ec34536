import { Bool, Real, sofaComponent } from '@sofa-ts/core';
import { isAssemblyLinearSolver, type LinearSolver, type MechanicalSystem } from '@sofa-ts/assembly';
import { accelerationOf, integrate, AccelerationOdeSolver } from './ode-support.js';

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
export class CentralDifferenceSolver extends AccelerationOdeSolver {
  readonly rayleighMass = this.initData({
    name: 'rayleighMass',
    type: Real,
    default: 0,
    help: 'Rayleigh damping coefficient related to mass',
  });
  readonly threadSafeVisitor = this.initData({ name: 'threadSafeVisitor', type: Bool, default: false, help: 'accepted for compatibility' });

  readonly linearSolver = this.initLink<LinearSolver>({
    name: 'linearSolver',
    help: 'solves M·a = f when a mass is not diagonal (default: the first linear solver in this node or above)',
    accepts: isAssemblyLinearSolver,
    expected: 'a linear solver',
    search: 'up',
  });

  /** (n) acceleration a. */
  private acc: Float64Array = new Float64Array(0);

  protected allocate(sys: MechanicalSystem): void {
    this.acc = sys.newVector();
  }

  solve(dt: number): void {
    const t0 = performance.now();
    const sys = this.getSystem();
    const h = dt;
    const { x, v, f } = sys;
    const acc = this.acc;
    sys.computeForce(f);
    const stats = accelerationOf(sys, acc, f, this.linearSolver.get(), this);
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
