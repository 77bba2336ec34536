import { sofaComponent } from '@sofa-ts/core';
import type { ConstraintProblem } from './constraint-problem.js';
import type { SolveResult } from './gauss-seidel.js';
import { GenericConstraintSolverBase } from './generic-constraint-solver-base.js';
import { NncgWork, nncg } from './nncg.js';

/**
 * SOFA's NNCGConstraintSolver: the non-smooth non-linear conjugate gradient on the built problem,
 * block Gauss-Seidel sweeps accelerated along a conjugate direction of the force steps (see nncg.ts).
 */
@sofaComponent({
  name: 'NNCGConstraintSolver',
  category: 'ConstraintSolver',
  module: 'Sofa.Component.Constraint.Lagrangian.Solver',
  description:
    'A Constraint Solver using the Linear Complementarity Problem formulation to solve Constraint based components using the Non-smooth Non-linear Conjugate Gradient method.',
})
export class NNCGConstraintSolver extends GenericConstraintSolverBase {
  private readonly nncgWork = new NncgWork();

  protected doSolve(p: ConstraintProblem): SolveResult {
    return nncg(p, this.options, this.work, this.nncgWork);
  }
}
