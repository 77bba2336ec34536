import { sofaComponent } from '@sofa-ts/core';
import { BilateralNResolution, BilateralResolution, Bilateral3Resolution } from '../model/resolutions.js';
import type { ConstraintProblem } from './constraint-problem.js';
import type { SolveResult } from './gauss-seidel.js';
import { GenericConstraintSolverBase } from './generic-constraint-solver-base.js';
import { PcrWork, preconditionedConjugateResidual } from './pcr.js';

/**
 * SOFA's PreconditionedConjugateResidual: the built problem W·λ = −δ_free solved as a linear
 * system by the Jacobi-preconditioned conjugate residual method (pcr.ts). Like SOFA, it calls no
 * constraint resolution: every row is an equality (bilateral), so unilateral or friction rows are
 * not projected (a warning says so once).
 */
@sofaComponent({
  name: 'PreconditionedConjugateResidual',
  category: 'ConstraintSolver',
  module: 'Sofa.Component.Constraint.Lagrangian.Solver',
  description:
    'Constraint solver: W·λ = −δ_free solved by the conjugate residual method with a symmetric Jacobi preconditioner (Saad 2003), at most min(maxIterations, number of rows) iterations. As in SOFA, the constraint laws are not applied: every row is solved as an equality. sor is not used.',
})
export class PreconditionedConjugateResidual extends GenericConstraintSolverBase {
  private readonly pcrWork = new PcrWork();
  private nonBilateralWarned = false;
  private divergenceWarned = false;

  override init(): void {
    super.init();
    if (this.sor.value !== 1)
      this.warnAbout(
        this.sor,
        `sor=${this.sor.value} is not used by the conjugate residual (SOFA's PreconditionedConjugateResidual ignores it too)`,
        'remove sor',
      );
  }

  protected doSolve(p: ConstraintProblem): SolveResult {
    if (!this.nonBilateralWarned) {
      for (let j = 0; j < p.n;) {
        const r = p.resolutions[j]!;
        if (!(r instanceof BilateralResolution || r instanceof Bilateral3Resolution || r instanceof BilateralNResolution)) {
          this.nonBilateralWarned = true;
          this.warn(
            `constraint row ${j} has a ${r.constructor.name}: the conjugate residual solves it as an equality, without its law (unilateral, friction), as SOFA does`,
            'use BlockGaussSeidelConstraintSolver for contacts',
          );
          break;
        }
        j += r.nbLines;
      }
    }
    const res = preconditionedConjugateResidual(p, this.options, this.pcrWork);
    if (res.badDiagonal >= 0)
      throw this.error(
        `constraint row ${res.badDiagonal}: its compliance W_ii is ${p.W[res.badDiagonal * p.n + res.badDiagonal]}, not positive: the Jacobi preconditioner 1/√W_ii is undefined (SOFA divides by it too)`,
      );
    if (!res.converged && !this.divergenceWarned) {
      this.divergenceWarned = true;
      this.warn(
        `did not converge: error ${res.error} after ${res.iterations} iterations (at most min(maxIterations, ${p.n} rows)); warned once`,
      );
    }
    return res;
  }
}
