import { BaseObject, Bool, Int, nonNegative, Real, RealArray, Str, sofaComponent } from '@sofa-ts/core';
import type { NonLinearFunction } from './nonlinear-function.js';

/** Values of NewtonRaphsonSolver's `status` (SOFA's NewtonStatus). */
export type NewtonStatus =
  | 'Undefined'
  | 'Running'
  | 'ConvergedEquilibrium'
  | 'DivergedLineSearch'
  | 'DivergedMaxIterations'
  | 'ConvergedResidualSuccessiveRatio'
  | 'ConvergedResidualInitialRatio'
  | 'ConvergedAbsoluteResidual'
  | 'ConvergedRelativeEstimateDifference'
  | 'ConvergedAbsoluteEstimateDifference';

/**
 * SOFA's NewtonRaphsonSolver (since v25.06 a component of its own, not an ODE solver): solves the
 * nonlinear equation r(u) = 0 that an ODE solver hands it (StaticSolver: the equilibrium
 * P·f(x) = 0; BDFOdeSolver: the BDF step). Each iteration solves J·Δu = −r with the ODE solver's
 * linear solver, then a backtracking line search tries u + α·Δu for α = 1, c, c², ...
 * (c = lineSearchCoefficient, at most maxNbIterationsLineSearch tries) until |r| decreases; if none
 * does, the full step is taken (when more than one try is allowed).
 * Stopping criteria, in SOFA's order, each active when its threshold is > 0:
 *   |r_k|/|r_{k−1}| < relativeSuccessiveStoppingThreshold;  |r_k|/|r_0| < relativeInitialStoppingThreshold;
 *   |r_k| < absoluteResidualStoppingThreshold;  |Δu_k|/|u_{k−1}| < relativeEstimateDifferenceThreshold;
 *   |Δu_k| < absoluteEstimateDifferenceThreshold.
 * |r_0| <= absoluteResidualStoppingThreshold before iterating means equilibrium (no iteration).
 * The per-step messages (line search failed, not converged) are kept in `warnings` when their flag is on.
 */
@sofaComponent({
  name: 'NewtonRaphsonSolver',
  category: 'OdeSolver',
  module: 'Sofa.Component.ODESolver.Backward',
  description:
    'Newton-Raphson iterations with a backtracking line search, for the nonlinear equation of an ODE solver (StaticSolver, BDFOdeSolver).',
})
export class NewtonRaphsonSolver extends BaseObject {
  readonly isNewtonRaphsonSolver = true;
  readonly maxNbIterationsNewton = this.initData({
    name: 'maxNbIterationsNewton',
    type: Int,
    default: 1,
    range: nonNegative,
    help: 'largest number of Newton iterations per solve',
    group: 'Stopping criteria',
  });
  readonly relativeSuccessiveStoppingThreshold = this.initData({
    name: 'relativeSuccessiveStoppingThreshold',
    type: Real,
    default: 1e-5,
    help: 'converged when |r_k| / |r_{k−1}| < this (<= 0: not tested)',
    group: 'Stopping criteria',
  });
  readonly relativeInitialStoppingThreshold = this.initData({
    name: 'relativeInitialStoppingThreshold',
    type: Real,
    default: 1e-5,
    help: 'converged when |r_k| / |r_0| < this (<= 0: not tested)',
    group: 'Stopping criteria',
  });
  readonly absoluteResidualStoppingThreshold = this.initData({
    name: 'absoluteResidualStoppingThreshold',
    type: Real,
    default: 1e-5,
    help: 'converged when |r_k| < this, and no iteration when |r_0| <= this (<= 0: not tested)',
    group: 'Stopping criteria',
  });
  readonly relativeEstimateDifferenceThreshold = this.initData({
    name: 'relativeEstimateDifferenceThreshold',
    type: Real,
    default: 0,
    help: 'converged when |Δu_k| / |u_{k−1}| < this (<= 0: not tested)',
    group: 'Stopping criteria',
  });
  readonly absoluteEstimateDifferenceThreshold = this.initData({
    name: 'absoluteEstimateDifferenceThreshold',
    type: Real,
    default: 0,
    help: 'converged when |Δu_k| < this (<= 0: not tested)',
    group: 'Stopping criteria',
  });
  readonly maxNbIterationsLineSearch = this.initData({
    name: 'maxNbIterationsLineSearch',
    type: Int,
    default: 5,
    range: nonNegative,
    help: 'largest number of step lengths tried by the line search',
    group: 'Line Search',
  });
  readonly lineSearchCoefficient = this.initData({
    name: 'lineSearchCoefficient',
    type: Real,
    default: 0.5,
    help: 'factor applied to the step length at each failed line-search try',
    group: 'Line Search',
  });
  readonly updateStateWhenDiverged = this.initData({
    name: 'updateStateWhenDiverged',
    type: Bool,
    default: true,
    help: 'keep the last iterate as the new state even when the iterations did not converge (false: the ODE solver keeps the previous state)',
  });
  readonly status = this.initData({
    name: 'status',
    type: Str,
    default: 'Undefined',
    help: 'status of the last solve: Undefined, Running, ConvergedEquilibrium, ConvergedResidualSuccessiveRatio, ConvergedResidualInitialRatio, ConvergedAbsoluteResidual, ConvergedRelativeEstimateDifference, ConvergedAbsoluteEstimateDifference, DivergedLineSearch, DivergedMaxIterations',
    output: true,
    group: 'Analysis',
  });
  readonly residualGraph = this.initData({
    name: 'residualGraph',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'squared residual norms |r|² of the last solve: the initial guess, then each iteration',
    output: true,
    group: 'Analysis',
  });
  readonly warnWhenLineSearchFails = this.initData({
    name: 'warnWhenLineSearchFails',
    type: Bool,
    default: true,
    help: 'report a line search that found no decreasing step',
  });
  readonly warnWhenDiverge = this.initData({
    name: 'warnWhenDiverge',
    type: Bool,
    default: true,
    help: 'report a solve whose iterations did not converge',
  });

  /** Newton iterations done in the last solve. */
  iterationsDone = 0;
  /** Messages of the last solve (line search failures, divergence) when the warnings are on. */
  readonly warnings: string[] = [];
  private readonly residuals: number[] = [];
  /** Set by the ODE solver that uses this component (an unused Newton solver is reported). */
  usedBy: BaseObject | undefined;

  override reset(): void {
    this.status.value = 'Undefined';
    this.residualGraph.value = new Float64Array(0);
  }

  private setStatus(s: NewtonStatus): void {
    this.status.value = s;
  }

  /** Solves r(u) = 0 from the function's current guess; true when a criterion was met. */
  solve(fn: NonLinearFunction): boolean {
    this.setStatus('Running');
    this.warnings.length = 0;
    this.residuals.length = 0;
    fn.evaluateCurrentGuess();
    let r2 = fn.squaredNormLastEvaluation();
    this.residuals.push(r2);
    const absThr = this.absoluteResidualStoppingThreshold.value;
    let it = 0;
    let converged = false;
    if (absThr > 0 && r2 <= absThr * absThr) {
      this.setStatus('ConvergedEquilibrium');
      converged = true;
    } else {
      const relSucc = this.relativeSuccessiveStoppingThreshold.value;
      const relInit = this.relativeInitialStoppingThreshold.value;
      const relEst = this.relativeEstimateDifferenceThreshold.value;
      const absEst = this.absoluteEstimateDifferenceThreshold.value;
      const maxIt = this.maxNbIterationsNewton.value;
      const maxLs = Math.max(this.maxNbIterationsLineSearch.value, 1);
      const coef = this.lineSearchCoefficient.value;
      const r0sq = r2;
      for (; it < maxIt; it++) {
        const prev = r2;
        const u2 = relEst > 0 ? fn.squaredLastEvaluation() : 0;
        // J·Δu = −r
        fn.computeGradientFromCurrentGuess();
        fn.solveLinearEquation();
        // Backtracking line search on |r|: u moves by the increments of α.
        let alpha = 1;
        let applied = 0;
        let success = false;
        for (let ls = 0; ls < maxLs; ls++) {
          fn.updateGuessFromLinearSolution(alpha - applied);
          applied = alpha;
          fn.evaluateCurrentGuess();
          r2 = fn.squaredNormLastEvaluation();
          if (r2 < prev) {
            success = true;
            break;
          }
          alpha *= coef;
        }
        if (!success) {
          if (this.warnWhenLineSearchFails.value) this.warnings.push(`Line search failed at Newton iteration ${it}.`);
          this.setStatus('DivergedLineSearch');
          if (maxLs > 1) {
            fn.updateGuessFromLinearSolution(1 - applied);
            fn.evaluateCurrentGuess();
            r2 = fn.squaredNormLastEvaluation();
          }
        }
        this.residuals.push(r2);
        let st: NewtonStatus | undefined;
        if (relSucc > 0 && r2 < relSucc * relSucc * prev) st = 'ConvergedResidualSuccessiveRatio';
        else if (relInit > 0 && r2 < relInit * relInit * r0sq) st = 'ConvergedResidualInitialRatio';
        else if (absThr > 0 && r2 < absThr * absThr) st = 'ConvergedAbsoluteResidual';
        else if (relEst > 0 || absEst > 0) {
          const d2 = fn.squaredNormDx();
          if (relEst > 0 && d2 < relEst * relEst * u2) st = 'ConvergedRelativeEstimateDifference';
          else if (absEst > 0 && d2 < absEst * absEst) st = 'ConvergedAbsoluteEstimateDifference';
        }
        if (st) {
          this.setStatus(st);
          converged = true;
          it++;
          break;
        }
      }
      if (!converged) {
        if (this.warnWhenDiverge.value)
          this.warnings.push(`Newton-Raphson method failed to converge after ${it} iteration(s) with residual squared norm = ${r2}.`);
        this.setStatus('DivergedMaxIterations');
      }
    }
    this.iterationsDone = it;
    this.residualGraph.value = Float64Array.from(this.residuals);
    return converged;
  }

  override bwdInit(): void {
    if (!this.usedBy)
      this.warn(
        'no ODE solver uses this NewtonRaphsonSolver (since SOFA v25.06 it is not an ODE solver itself): it does nothing',
        'add a StaticSolver, or a BDFOdeSolver (order="1" is backward Euler), in this node',
      );
  }
}

export function isNewtonRaphsonSolver(o: unknown): o is NewtonRaphsonSolver {
  return typeof o === 'object' && o !== null && (o as { isNewtonRaphsonSolver?: unknown }).isNewtonRaphsonSolver === true;
}
