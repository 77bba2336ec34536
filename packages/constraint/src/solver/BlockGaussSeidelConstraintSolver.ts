import { sofaComponent } from '@sofa-ts/core';
import type { ConstraintProblem } from './constraint-problem.js';
import { blockGaussSeidel, type SolveResult } from './gauss-seidel.js';
import { GenericConstraintSolverBase } from './generic-constraint-solver-base.js';

/**
 * SOFA's BlockGaussSeidelConstraintSolver: projected block Gauss-Seidel on the built problem
 * δ = δ_free + W·λ. Each sweep visits the groups of rows in order; group j computes
 * d_j = δ_free,j + W_j·λ and its resolution moves λ_j (bilateral: W_jj⁻¹ step; unilateral:
 * projection on λ ≥ 0; friction contact: normal then tangential step projected on the Coulomb
 * cone). It stops when Σ_groups |W_jj·Δλ_j| < tolerance·n (scaleTolerance) or after maxIterations.
 */
@sofaComponent({
  name: 'BlockGaussSeidelConstraintSolver',
  category: 'ConstraintSolver',
  module: 'Sofa.Component.Constraint.Lagrangian.Solver',
  description:
    'A Constraint Solver using the Linear Complementarity Problem formulation to solve Constraint based components using a Block Gauss-Seidel iterative method.',
})
export class BlockGaussSeidelConstraintSolver extends GenericConstraintSolverBase {
  protected doSolve(p: ConstraintProblem): SolveResult {
    return blockGaussSeidel(p, this.options, this.work);
  }
}
