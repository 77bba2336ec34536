import { Int, Real, sofaComponent } from '@sofa-ts/core';
import { BaseInverseProblemSolver, type InverseSolution } from './base-inverse-problem-solver.js';
import { InverseGaussSeidel } from './inverse-gauss-seidel.js';
import { EQUALITY, type InverseRows } from './inverse-rows.js';

/**
 * The Gauss-Seidel variant of the real-time inverse method (sofa-ts; eqs. 6–10 of the method
 * notes, see inverse-gauss-seidel.ts): the inverse step of BaseInverseProblemSolver with the
 * actuators updated one by one to reduce the effector shifts. It handles actuators (force and
 * displacement bounds) and effectors; use QPInverseProblemSolver for equalities and the
 * deformation-energy term.
 */
@sofaComponent({
  name: 'GaussSeidelInverseProblemSolver',
  category: 'ConstraintSolver',
  module: 'SoftRobots.Inverse',
  description:
    'Finds the actuation that brings the effectors to their goals by Gauss-Seidel sweeps over the actuators (real-time inverse method of soft robots).',
})
export class GaussSeidelInverseProblemSolver extends BaseInverseProblemSolver {
  readonly maxIterations = this.initData({
    name: 'maxIterations',
    type: Int,
    default: 1000,
    help: 'maximal number of sweeps over the actuators',
  });
  readonly tolerance = this.initData({
    name: 'tolerance',
    type: Real,
    default: 1e-12,
    help: 'stop when a sweep decreases the objective by less than this fraction of it',
  });

  private readonly gs = new InverseGaussSeidel();

  override init(): void {
    if (!(this.maxIterations.value >= 1)) throw this.error(`maxIterations must be >= 1 (got ${this.maxIterations.value})`);
    if (!(this.tolerance.value >= 0)) throw this.error(`tolerance must be >= 0 (got ${this.tolerance.value})`);
  }

  protected solveInverse(W: Float64Array, dfree: Float64Array, n: number, rows: InverseRows): InverseSolution {
    for (let i = 0; i < n; i++) {
      if (rows.role[i] === EQUALITY)
        throw this.error('the Gauss-Seidel inverse method does not handle equalities', 'use a QPInverseProblemSolver');
    }
    const gs = this.gs;
    gs.maxIterations = this.maxIterations.value;
    gs.tolerance = this.tolerance.value;
    gs.solve(W, dfree, n, rows);
    return gs;
  }
}
