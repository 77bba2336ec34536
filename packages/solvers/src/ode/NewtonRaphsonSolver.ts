import { Bool, Int, nonNegative, Real, RealArray, sofaComponent, Str } from '@sofa-ts/core';
import { isAssemblyLinearSolver, type LinearSolver, type MechanicalSystem } from '@sofa-ts/assembly';
import { dotOf, integrate, SystemOdeSolver } from './ode-support.js';

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
 * SOFA's NewtonRaphsonSolver with its velocity-based backward Euler integration (SOFA's BDF1):
 * the unknown is v = v_{n+1}, positions follow as x(v) = x_n ⊕ h·v, and the nonlinear equation is
 *   r(v) = P·( M·(v − v_n) − h·f(x(v), v) ) = 0,     ∂r/∂v = P·(M − h·B − h²·K)·P
 * Each Newton iteration solves (M − h·B − h²·K)·Δv = −r with the linear solver, then a backtracking
 * line search tries v + α·Δv for α = 1, c, c², ... (c = lineSearchCoefficient, at most
 * maxNbIterationsLineSearch tries) until |r| decreases; if none does, the full step is taken.
 * Stopping criteria, in SOFA's order and each active when its threshold is > 0:
 *   |r_k|/|r_{k−1}| < relativeSuccessiveStoppingThreshold;  |r_k|/|r_0| < relativeInitialStoppingThreshold;
 *   |r_k| <= absoluteResidualStoppingThreshold;  |Δv_k|/|v_{k−1}| < relativeEstimateDifferenceThreshold;
 *   |Δv_k| < absoluteEstimateDifferenceThreshold.
 * |r_0| <= absoluteResidualStoppingThreshold before iterating means equilibrium (no iteration).
 * A quadratic convergence of |r| is expected near the solution when K and B are exact.
 */
@sofaComponent({
  name: 'NewtonRaphsonSolver',
  category: 'OdeSolver',
  module: 'Sofa.Component.ODESolver.Backward',
  description: 'Backward Euler step solved by Newton-Raphson iterations with a backtracking line search.',
})
export class NewtonRaphsonSolver extends SystemOdeSolver {
  /** Its Newton iterations invert M − h·B − h²·K for a velocity increment (x moves by dt·Δ). */
  override systemMatrixFactors(h: number): { m: number; b: number; k: number } {
    return { m: 1, b: -h, k: -h * h };
  }

  readonly maxNbIterationsNewton = this.initData({ name: 'maxNbIterationsNewton', type: Int, default: 1, range: nonNegative, help: 'largest number of Newton iterations per time step', group: 'Stopping criteria' });
  readonly relativeSuccessiveStoppingThreshold = this.initData({ name: 'relativeSuccessiveStoppingThreshold', type: Real, default: 1e-5, help: 'converged when |r_k| / |r_{k−1}| < this (<= 0: not tested)', group: 'Stopping criteria' });
  readonly relativeInitialStoppingThreshold = this.initData({ name: 'relativeInitialStoppingThreshold', type: Real, default: 1e-5, help: 'converged when |r_k| / |r_0| < this (<= 0: not tested)', group: 'Stopping criteria' });
  readonly absoluteResidualStoppingThreshold = this.initData({ name: 'absoluteResidualStoppingThreshold', type: Real, default: 1e-5, help: 'converged when |r_k| <= this, also before any iteration (<= 0: not tested)', group: 'Stopping criteria' });
  readonly relativeEstimateDifferenceThreshold = this.initData({ name: 'relativeEstimateDifferenceThreshold', type: Real, default: 0, help: 'converged when |v_k − v_{k−1}| / |v_{k−1}| < this (<= 0: not tested)', group: 'Stopping criteria' });
  readonly absoluteEstimateDifferenceThreshold = this.initData({ name: 'absoluteEstimateDifferenceThreshold', type: Real, default: 0, help: 'converged when |v_k − v_{k−1}| < this (<= 0: not tested)', group: 'Stopping criteria' });
  readonly maxNbIterationsLineSearch = this.initData({ name: 'maxNbIterationsLineSearch', type: Int, default: 5, range: nonNegative, help: 'largest number of step lengths tried by the line search', group: 'Line Search' });
  readonly lineSearchCoefficient = this.initData({ name: 'lineSearchCoefficient', type: Real, default: 0.5, help: 'factor applied to the step length at each failed line-search try', group: 'Line Search' });
  readonly updateStateWhenDiverged = this.initData({ name: 'updateStateWhenDiverged', type: Bool, default: true, help: 'keep the last iterate as the new state even when the iterations did not converge (false: keep the previous state)' });
  readonly status = this.initData({ name: 'status', type: Str, default: 'Undefined', help: 'status of the last solve: Undefined, Running, ConvergedEquilibrium, ConvergedResidualSuccessiveRatio, ConvergedResidualInitialRatio, ConvergedAbsoluteResidual, ConvergedRelativeEstimateDifference, ConvergedAbsoluteEstimateDifference, DivergedLineSearch, DivergedMaxIterations', output: true, group: 'Analysis' });
  readonly residualGraph = this.initData({ name: 'residualGraph', type: RealArray(1), default: new Float64Array(0), help: 'squared residual norms |r|² over the iterations of the last solve', output: true, group: 'Analysis' });
  readonly warnWhenLineSearchFails = this.initData({ name: 'warnWhenLineSearchFails', type: Bool, default: true, help: 'report a line search that found no decreasing step' });
  readonly warnWhenDiverge = this.initData({ name: 'warnWhenDiverge', type: Bool, default: true, help: 'report a step whose iterations did not converge' });

  readonly linearSolver = this.initLink<LinearSolver>({ name: 'linearSolver', help: 'the linear solver (default: the first one in this node or above)', accepts: isAssemblyLinearSolver, expected: 'a linear solver', search: 'up', required: true });

  /** Newton iterations done in the last solve. */
  iterationsDone = 0;
  /** Messages of the last solve (line search failures, divergence) when the warnings are on. */
  readonly warnings: string[] = [];

  // (coordSize) x_n; (size) v_n, the residual r, the Newton direction Δv, the guess before an iteration.
  private xn: Float64Array = new Float64Array(0);
  private vn: Float64Array = new Float64Array(0);
  private r: Float64Array = new Float64Array(0);
  private dv: Float64Array = new Float64Array(0);
  private vPrev: Float64Array = new Float64Array(0);
  private rhs: Float64Array = new Float64Array(0);
  private change: Float64Array = new Float64Array(0);
  private residuals: number[] = [];
  private h = 0;

  protected allocate(sys: MechanicalSystem): void {
    this.xn = new Float64Array(sys.coordSize);
    this.vn = sys.newVector();
    this.r = sys.newVector();
    this.dv = sys.newVector();
    this.vPrev = sys.newVector();
    this.rhs = sys.newVector();
    this.change = sys.newVector();
  }

  override reset(): void {
    this.status.value = 'Undefined';
    this.residualGraph.value = new Float64Array(0);
  }

  private setStatus(s: NewtonStatus): void {
    this.status.value = s;
  }

  /** x = x_n ⊕ h·v, propagated; r = P·(M(v − v_n) − h·f(x, v)); returns |r|². */
  private evaluate(sys: MechanicalSystem): number {
    const { xn, vn, r } = this;
    const h = this.h;
    const v = sys.v;
    integrate(sys, sys.x, xn, v, h);
    sys.propagatePositionsAndVelocities();
    sys.computeForce(sys.f);
    // r = M·(v − v_n) − h·f
    const d = this.change;
    for (let i = 0; i < d.length; i++) d[i] = v[i]! - vn[i]!;
    r.fill(0);
    sys.addMBKv(r, { m: 1, b: 0, k: 0 }, d);
    const f = sys.f;
    for (let i = 0; i < r.length; i++) r[i] = r[i]! - h * f[i]!;
    sys.projectResponse(r);
    return dotOf(r, r);
  }

  /** v += α·Δv, then the new residual. */
  private step(sys: MechanicalSystem, alpha: number): number {
    const v = sys.v;
    const dv = this.dv;
    for (let i = 0; i < v.length; i++) v[i] = v[i]! + alpha * dv[i]!;
    return this.evaluate(sys);
  }

  solve(dt: number): void {
    const t0 = performance.now();
    const sys = this.getSystem();
    this.h = dt;
    const { xn, vn, dv, rhs, vPrev } = this;
    xn.set(sys.x);
    vn.set(sys.v);
    this.warnings.length = 0;
    this.residuals.length = 0;
    this.setStatus('Running');

    // Initial guess: v = v_n.
    let r2 = this.evaluate(sys);
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
      const h = dt;
      for (; it < maxIt; it++) {
        const prev = r2;
        vPrev.set(sys.v);
        // (M − h·B − h²·K)·Δv = −r
        for (let i = 0; i < rhs.length; i++) rhs[i] = -this.r[i]!;
        this.linearSolver.require().solveSystem(sys, { m: 1, b: -h, k: -h * h }, rhs, dv);
        // Backtracking line search on |r|.
        let alpha = 1;
        let applied = 0;
        let success = false;
        for (let ls = 0; ls < maxLs; ls++) {
          r2 = this.step(sys, alpha - applied);
          applied = alpha;
          if (r2 < prev) {
            success = true;
            break;
          }
          alpha *= coef;
        }
        if (!success) {
          if (this.warnWhenLineSearchFails.value) this.warnings.push(`Line search failed at Newton iteration ${it}.`);
          this.setStatus('DivergedLineSearch');
          if (maxLs > 1) r2 = this.step(sys, 1 - applied);
        }
        this.residuals.push(r2);
        if (relSucc > 0 && r2 < relSucc * relSucc * prev) {
          this.setStatus('ConvergedResidualSuccessiveRatio');
          converged = true;
          break;
        }
        if (relInit > 0 && r2 < relInit * relInit * r0sq) {
          this.setStatus('ConvergedResidualInitialRatio');
          converged = true;
          break;
        }
        if (absThr > 0 && r2 <= absThr * absThr) {
          this.setStatus('ConvergedAbsoluteResidual');
          converged = true;
          break;
        }
        if (relEst > 0 || absEst > 0) {
          let d2 = 0;
          let p2 = 0;
          const v = sys.v;
          for (let i = 0; i < v.length; i++) {
            const d = v[i]! - vPrev[i]!;
            d2 += d * d;
            p2 += vPrev[i]! * vPrev[i]!;
          }
          if (relEst > 0 && p2 > 0 && d2 < p2 * relEst * relEst) {
            this.setStatus('ConvergedRelativeEstimateDifference');
            converged = true;
            break;
          }
          if (absEst > 0 && d2 < absEst * absEst) {
            this.setStatus('ConvergedAbsoluteEstimateDifference');
            converged = true;
            break;
          }
        }
      }
      if (!converged) {
        if (this.warnWhenDiverge.value) this.warnings.push(`Newton-Raphson method failed to converge after ${it} iteration(s) with residual squared norm = ${r2}.`);
        this.setStatus('DivergedMaxIterations');
        if (!this.updateStateWhenDiverged.value) {
          sys.x.set(xn);
          sys.v.set(vn);
          sys.propagatePositionsAndVelocities();
        }
      }
      if (converged) it++;
    }
    this.iterationsDone = it;
    this.residualGraph.value = Float64Array.from(this.residuals);
    sys.touchStates();
    this.lastStats = { iterations: it, residual: Math.sqrt(r2), timeMs: performance.now() - t0 };
  }
}
