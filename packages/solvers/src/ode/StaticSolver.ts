import { Bool, Int, nonNegative, Real, sofaComponent } from '@sofa-ts/core';
import { isAssemblyLinearSolver, type LinearSolver, type MechanicalSystem } from '@sofa-ts/assembly';
import { dotOf, integrate, SystemOdeSolver } from './ode-support.js';

/**
 * SOFA's StaticSolver: the equilibrium f(x) = 0 (gravity included) by Newton–Raphson, one load
 * increment per time step, velocities untouched:
 *   R = P·f(x);  repeat: (−K)·dx = R (K = ∂f/∂x, projected);  x ← x + dx;  R = P·f(x)
 * at most `newton_iterations` times. After each iteration (when more than one is allowed) the
 * norms are tested in SOFA's order: NaN or |U| ≈ 0 → diverged; |dx| < abs. correction threshold;
 * |dx|/|U| < rel. correction threshold (U = Σ dx of this step); |R| < abs. residual threshold;
 * |R|/|R0| < rel. residual threshold (R0 = the residual after the first iteration). A residual
 * already under the absolute threshold before any iteration means equilibrium. A threshold <= 0
 * disables its criterion.
 */
@sofaComponent({
  name: 'StaticSolver',
  category: 'OdeSolver',
  module: 'Sofa.Component.ODESolver.Backward',
  description: 'Static equilibrium f(x) = 0 by Newton-Raphson iterations, one load increment per step.',
})
export class StaticSolver extends SystemOdeSolver {
  /** It inverts −K (the factors of the correction are SOFA's: dt for x, 1 for v). */
  override systemMatrixFactors(): { m: number; b: number; k: number } {
    return { m: 0, b: 0, k: -1 };
  }

  readonly newtonIterations = this.initData({ name: 'newton_iterations', type: Int, default: 1, range: nonNegative, help: 'largest number of Newton iterations per time step (one load increment per step)' });
  readonly absoluteCorrectionTolerance = this.initData({ name: 'absolute_correction_tolerance_threshold', type: Real, default: 1e-5, help: 'stop when the increment norm |dx| is below this (<= 0: not tested)' });
  readonly relativeCorrectionTolerance = this.initData({ name: 'relative_correction_tolerance_threshold', type: Real, default: 1e-5, help: 'stop when |dx| / |U| is below this, U the displacement of the step so far (<= 0: not tested)' });
  readonly absoluteResidualTolerance = this.initData({ name: 'absolute_residual_tolerance_threshold', type: Real, default: 1e-5, help: 'stop when the residual norm |R| is below this (<= 0: not tested)' });
  readonly relativeResidualTolerance = this.initData({ name: 'relative_residual_tolerance_threshold', type: Real, default: 1e-5, help: 'stop when |R| / |R0| is below this, R0 the residual after the first iteration (<= 0: not tested)' });
  readonly divergeWhenResidualGrows = this.initData({ name: 'should_diverge_when_residual_is_growing', type: Bool, default: false, help: 'flag the step as diverged when the residual grows from one iteration to the next' });

  readonly linearSolver = this.initLink<LinearSolver>({ name: 'linearSolver', help: 'the linear solver (default: the first one in this node or above)', accepts: isAssemblyLinearSolver, expected: 'a linear solver', search: 'up', required: true });

  /** Squared residual norms |R|² after each iteration of the last step (SOFA's squared_residual_norms). */
  readonly squaredResidualNorms: number[] = [];
  /** Squared increment norms |dx|² of each iteration of the last step. */
  readonly squaredIncrementNorms: number[] = [];
  /** Outcome of the last step. */
  converged = false;
  diverged = false;
  /** Newton iterations done in the last step. */
  iterationsDone = 0;

  /** (size) the increment dx (also the linear solver's initial guess) and its sum U over the step. */
  private dx: Float64Array = new Float64Array(0);
  private U: Float64Array = new Float64Array(0);

  protected allocate(sys: MechanicalSystem): void {
    this.dx = sys.newVector();
    this.U = sys.newVector();
  }

  override init(): void {
    if (this.newtonIterations.value < 0) throw this.error(`newton_iterations must be >= 0 (got ${this.newtonIterations.value})`);
  }

  solve(_dt: number): void {
    const t0 = performance.now();
    const sys = this.getSystem();
    const { dx, U } = this;
    const f = sys.f;
    const maxIt = this.newtonIterations.value;
    const absCorr = this.absoluteCorrectionTolerance.value;
    const relCorr = this.relativeCorrectionTolerance.value;
    const absRes = this.absoluteResidualTolerance.value;
    const relRes = this.relativeResidualTolerance.value;
    const eps2 = Number.EPSILON * Number.EPSILON;
    dx.fill(0);
    U.fill(0);
    this.squaredResidualNorms.length = 0;
    this.squaredIncrementNorms.length = 0;
    let converged = false;
    let diverged = false;

    // R = P·f(x)
    sys.computeForce(f);
    sys.projectResponse(f);
    let R2 = dotOf(f, f);
    let R02 = 0;
    let Rprev2 = 0;
    if (absRes > 0 && R2 <= absRes * absRes) converged = true;

    let it = 0;
    while (!converged && it < maxIt) {
      // (−K)·dx = R, then x ← x + dx
      this.linearSolver.require().solveSystem(sys, { m: 0, b: 0, k: -1 }, f, dx);
      integrate(sys, sys.x, sys.x, dx, 1);
      sys.propagatePositionsAndVelocities();
      it++;
      if (maxIt === 1) {
        converged = true;
        break;
      }
      sys.computeForce(f);
      sys.projectResponse(f);
      R2 = dotOf(f, f);
      if (it === 1) {
        R02 = R2;
        Rprev2 = R02;
      }
      this.squaredResidualNorms.push(R2);
      for (let i = 0; i < U.length; i++) U[i] = U[i]! + dx[i]!;
      const dx2 = dotOf(dx, dx);
      const U2 = dotOf(U, U);
      this.squaredIncrementNorms.push(dx2);
      if (Number.isNaN(R2) || Number.isNaN(dx2) || U2 < eps2) {
        diverged = true;
        break;
      }
      if (absCorr > 0 && dx2 < absCorr * absCorr) {
        converged = true;
        break;
      }
      if (relCorr > 0 && dx2 < relCorr * relCorr * U2) {
        converged = true;
        break;
      }
      if (absRes > 0 && R2 < absRes * absRes) {
        converged = true;
        break;
      }
      if (relRes > 0 && R2 < relRes * relRes * R02) {
        converged = true;
        break;
      }
      // SOFA flags the divergence but lets the iterations go on.
      if (this.divergeWhenResidualGrows.value && R2 > Rprev2) diverged = true;
      Rprev2 = R2;
    }
    this.converged = converged;
    this.diverged = diverged;
    this.iterationsDone = it;
    sys.touchStates();
    this.lastStats = { iterations: it, residual: Math.sqrt(R2), timeMs: performance.now() - t0 };
  }
}
