import { sofaComponent } from '@sofa-ts/core';
import { consistentWithBuiltSpec, UNBUILT_NOTE } from './unbuilt-options.js';
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
 * By default it computes what SOFA computes (a cold start at every step, SOFA's unbuilt compliance:
 * see UnbuiltProblem); consistentWithBuilt (sofa-ts) gives the built solver's solution.
 */
@sofaComponent({
  name: 'UnbuiltGaussSeidelConstraintSolver',
  category: 'ConstraintSolver',
  module: 'Sofa.Component.Constraint.Lagrangian.Solver',
  description: `A Constraint Solver using the Linear Complementarity Problem formulation to solve Constraint based components using an Unbuilt version of the Gauss-Seidel iterative method. ${UNBUILT_NOTE}`,
})
export class UnbuiltGaussSeidelConstraintSolver extends GenericConstraintSolverBase {
  readonly consistentWithBuilt = this.initData(consistentWithBuiltSpec());

  private readonly unbuilt = new UnbuiltProblem();

  protected override get built(): boolean {
    return false;
  }

  protected override prepareUnbuilt(step: ConstraintStep): void {
    this.unbuilt.prepare(
      this.problem,
      step.graph,
      this.corrections(step.graph),
      step,
      this.regularizationTerm.value,
      this.consistentWithBuilt.value,
    );
  }

  protected doSolve(p: ConstraintProblem): SolveResult {
    return unbuiltGaussSeidel(p, this.unbuilt, this.options, this.work);
  }
}
