import { sofaComponent } from '@sofa-ts/core';
import type { ConstraintStep } from './base-constraint-solver.js';
import type { ConstraintProblem } from './constraint-problem.js';
import type { SolveResult } from './gauss-seidel.js';
import { GenericConstraintSolverBase } from './generic-constraint-solver-base.js';
import { UnbuiltProblem, unbuiltGaussSeidel } from './unbuilt-gauss-seidel.js';

/**
 * SOFA's UnbuiltGaussSeidelConstraintSolver: the block Gauss-Seidel of BlockGaussSeidelConstraintSolver
 * without assembling W: only its diagonal blocks are built, and the coupling between groups goes
 * through the constraint corrections, which keep the displacement due to the current forces
 * (UncoupledConstraintCorrection in dof space, as SOFA does; other corrections from their block of W).
 */
@sofaComponent({
  name: 'UnbuiltGaussSeidelConstraintSolver',
  category: 'ConstraintSolver',
  module: 'Sofa.Component.Constraint.Lagrangian.Solver',
  description: 'A Constraint Solver using the Linear Complementarity Problem formulation to solve Constraint based components using an Unbuilt version of the Gauss-Seidel iterative method.',
})
export class UnbuiltGaussSeidelConstraintSolver extends GenericConstraintSolverBase {
  private readonly unbuilt = new UnbuiltProblem();

  protected override get built(): boolean {
    return false;
  }

  protected override prepareUnbuilt(step: ConstraintStep): void {
    this.unbuilt.prepare(this.problem, step.graph, this.corrections(step.graph), step, this.regularizationTerm.value);
  }

  protected doSolve(p: ConstraintProblem): SolveResult {
    return unbuiltGaussSeidel(p, this.unbuilt, this.options, this.work);
  }
}
