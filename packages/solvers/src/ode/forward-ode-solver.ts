import { Bool, type SolverStats } from '@sofa-ts/core';
import { isAssemblyLinearSolver, type LinearSolver, type MechanicalSystem } from '@sofa-ts/assembly';
import { accelerationOf, AccelerationOdeSolver } from './ode-support.js';

/**
 * The common part of SOFA's explicit solvers that integrate a = M⁻¹·f once per step
 * (EulerExplicitSolver, CentralDifferenceSolver): the acceleration buffer, the linear solver that
 * solves M·a = f when a mass is not diagonal, and `threadSafeVisitor`, accepted for compatibility.
 */
export abstract class ForwardOdeSolver extends AccelerationOdeSolver {
  readonly threadSafeVisitor = this.initData({ name: 'threadSafeVisitor', type: Bool, default: false, help: 'accepted for compatibility' });

  readonly linearSolver = this.initLink<LinearSolver>({
    name: 'linearSolver',
    help: 'solves M·a = f when a mass is not diagonal (default: the first linear solver in this node or above)',
    accepts: isAssemblyLinearSolver,
    expected: 'a linear solver',
    search: 'up',
  });

  /** (n) acceleration a of the last step. */
  protected acc: Float64Array = new Float64Array(0);

  protected allocate(sys: MechanicalSystem): void {
    this.acc = sys.newVector();
  }

  /** f = the system's force, then acc = M⁻¹·f projected (accelerationOf). */
  protected acceleration(sys: MechanicalSystem): SolverStats | undefined {
    sys.computeForce(sys.f);
    return accelerationOf(sys, this.acc, sys.f, this.linearSolver.get(), this);
  }
}
