import { Bool, Enum, Int, nonNegative, sofaComponent } from '@sofa-ts/core';
import type { ConstraintStep } from './base-constraint-solver.js';
import type { ConstraintProblem } from './constraint-problem.js';
import { blockGaussSeidel, type SolveResult } from './gauss-seidel.js';
import { GenericConstraintSolverBase } from './generic-constraint-solver-base.js';
import { NncgWork, nncg } from './nncg.js';
import { UnbuiltProblem, unbuiltGaussSeidel } from './unbuilt-gauss-seidel.js';
import { consistentWithBuiltSpec, UNBUILT_NOTE } from './unbuilt-options.js';

const methods = ['ProjectedGaussSeidel', 'UnbuiltGaussSeidel', 'NonsmoothNonlinearConjugateGradient'] as const;

/**
 * SOFA's GenericConstraintSolver, the name scenes used before the solver was split: the same Data
 * as its successors, the method chosen by resolutionMethod (ProjectedGaussSeidel =
 * BlockGaussSeidelConstraintSolver, UnbuiltGaussSeidel = UnbuiltGaussSeidelConstraintSolver,
 * NonsmoothNonlinearConjugateGradient = NNCGConstraintSolver); the old `unbuilt` flag selects the
 * unbuilt Gauss-Seidel.
 */
@sofaComponent({
  name: 'GenericConstraintSolver',
  category: 'ConstraintSolver',
  module: 'Sofa.Component.Constraint.Lagrangian.Solver',
  description: `A Generic Constraint Solver using the Linear Complementarity Problem formulation to solve Constraint based components (old name of the block Gauss-Seidel, unbuilt Gauss-Seidel and NNCG solvers). UnbuiltGaussSeidel — ${UNBUILT_NOTE}`,
})
export class GenericConstraintSolver extends GenericConstraintSolverBase {
  readonly resolutionMethod = this.initData<(typeof methods)[number]>({
    name: 'resolutionMethod',
    type: Enum(methods),
    default: 'ProjectedGaussSeidel',
    help: 'method used to solve the constraint problem, among: ProjectedGaussSeidel, UnbuiltGaussSeidel, NonsmoothNonlinearConjugateGradient',
  });
  readonly unbuiltFlag = this.initData({
    name: 'unbuilt',
    type: Bool,
    default: false,
    help: 'old flag: compliance is not fully built (same as resolutionMethod="UnbuiltGaussSeidel")',
  });
  readonly newtonIterations = this.initData({
    name: 'newtonIterations',
    type: Int,
    default: 100,
    range: nonNegative,
    help: 'maximum iteration number of Newton (for the NonsmoothNonlinearConjugateGradient solver only; accepted, maxIterations bounds it)',
  });

  readonly consistentWithBuilt = this.initData(consistentWithBuiltSpec(' (UnbuiltGaussSeidel only)'));

  private readonly unbuiltProblem = new UnbuiltProblem();
  private readonly nncgWork = new NncgWork();

  get method(): (typeof methods)[number] {
    return this.unbuiltFlag.value ? 'UnbuiltGaussSeidel' : this.resolutionMethod.value;
  }

  protected override get built(): boolean {
    return this.method !== 'UnbuiltGaussSeidel';
  }

  protected override prepareUnbuilt(step: ConstraintStep): void {
    this.unbuiltProblem.prepare(
      this.problem,
      step.graph,
      this.corrections(step.graph),
      step,
      this.regularizationTerm.value,
      this.consistentWithBuilt.value,
    );
  }

  protected doSolve(p: ConstraintProblem): SolveResult {
    switch (this.method) {
      case 'UnbuiltGaussSeidel':
        return unbuiltGaussSeidel(p, this.unbuiltProblem, this.options, this.work);
      case 'NonsmoothNonlinearConjugateGradient':
        return nncg(p, this.options, this.work, this.nncgWork);
      default:
        return blockGaussSeidel(p, this.options, this.work);
    }
  }
}
