import type { SolverStats } from '@sofa-ts/core';
import { isAssemblyLinearSolver, type LinearSolver, type MechanicalSystem } from '@sofa-ts/assembly';
import { accelerationOf, AccelerationOdeSolver } from './ode-support.js';

/**
 * Common part of the explicit Runge-Kutta solvers: the state derivative (ẋ, v̇) = (v, M⁻¹·f(x, v))
 * evaluated at an intermediate state, as SOFA's MechanicalOperations::computeAcc does: set x and
 * v, propagate them to mapped states, compute the forces, a = M⁻¹·f, project a.
 * Diagonal masses are inverted point by point (SOFA's accFromF); a non-diagonal mass, which SOFA's
 * accFromF cannot invert, is solved with the node's linear solver when there is one.
 */
export abstract class RungeKuttaSolver extends AccelerationOdeSolver {
  readonly linearSolver = this.initLink<LinearSolver>({
    name: 'linearSolver',
    help: 'linear solver for non-diagonal masses (optional)',
    accepts: isAssemblyLinearSolver,
    expected: 'a linear solver',
    search: 'up',
  });

  /** (coordSize) x at the start of the step; (size) v at the start of the step. */
  protected x0: Float64Array = new Float64Array(0);
  protected v0: Float64Array = new Float64Array(0);
  protected linearStats: SolverStats | undefined;

  protected override allocate(sys: MechanicalSystem): void {
    this.x0 = new Float64Array(sys.coordSize);
    this.v0 = sys.newVector();
  }

  /** acc = M⁻¹·f(x, v): x (coordSize) and v (size) are copied into the system first (x may be sys.x). */
  protected computeAcc(sys: MechanicalSystem, acc: Float64Array, x: Float64Array, v: Float64Array): void {
    if (x !== sys.x) sys.x.set(x);
    if (v !== sys.v) sys.v.set(v);
    sys.propagatePositionsAndVelocities();
    sys.computeForce(sys.f);
    this.linearStats = accelerationOf(sys, acc, sys.f, this.linearSolver.get(), this) ?? this.linearStats;
  }
}
