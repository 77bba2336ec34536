import { Bool, Int, nonNegative, Real, SofaError, sceneWarnings, sofaComponent, type Data } from '@sofa-ts/core';
import { isAssemblyLinearSolver, type LinearSolver, type MechanicalSystem } from '@sofa-ts/assembly';
import { isNewtonRaphsonSolver, NewtonRaphsonSolver } from './NewtonRaphsonSolver.js';
import type { NonLinearFunction } from './nonlinear-function.js';
import { dotOf, integrate, SystemOdeSolver } from './ode-support.js';

/** StaticSolver's Newton Data before SOFA v25.06, and the NewtonRaphsonSolver Data they became. */
const DEPRECATED: ReadonlyArray<readonly [string, keyof NewtonRaphsonSolver]> = [
  ['newton_iterations', 'maxNbIterationsNewton'],
  ['absolute_correction_tolerance_threshold', 'absoluteEstimateDifferenceThreshold'],
  ['relative_correction_tolerance_threshold', 'relativeEstimateDifferenceThreshold'],
  ['absolute_residual_tolerance_threshold', 'absoluteResidualStoppingThreshold'],
  ['relative_residual_tolerance_threshold', 'relativeInitialStoppingThreshold'],
];

/**
 * SOFA's StaticSolver: the equilibrium P·f(x) = 0 (gravity included), one load increment per time
 * step, velocities untouched. The equation is solved by the NewtonRaphsonSolver linked as
 * `newtonSolver` (default: the first one of this node or below; none: one with SOFA's defaults is
 * made, as SOFA does, and said):
 *   r(x) = P·f(x),  J = P·K·P,  so each iteration solves P(−K)P·dx = r and x ← x + α·dx.
 * The Newton Data this component had before SOFA v25.06 (newton_iterations, ...) are still read,
 * with a deprecation warning, for the Newton solver made here; relative_residual_tolerance_threshold
 * (|R|/|R0|) becomes relativeInitialStoppingThreshold. |dx|/|x| is the relative estimate difference.
 */
@sofaComponent({
  name: 'StaticSolver',
  category: 'OdeSolver',
  module: 'Sofa.Component.ODESolver.Backward',
  description: 'Static equilibrium f(x) = 0 solved by a NewtonRaphsonSolver, one load increment per step.',
})
export class StaticSolver extends SystemOdeSolver implements NonLinearFunction {
  readonly newtonSolver = this.initLink<NewtonRaphsonSolver>({
    name: 'newtonSolver',
    help: 'the NewtonRaphsonSolver solving the equilibrium (default: the first one of this node or below)',
    accepts: isNewtonRaphsonSolver,
    expected: 'a NewtonRaphsonSolver',
    search: 'down',
  });
  readonly linearSolver = this.initLink<LinearSolver>({
    name: 'linearSolver',
    help: 'the linear solver (default: the first one in this node or above)',
    accepts: isAssemblyLinearSolver,
    expected: 'a linear solver',
    search: 'up',
    required: true,
  });
  readonly newtonIterations = this.initData({
    name: 'newton_iterations',
    type: Int,
    default: 1,
    range: nonNegative,
    help: 'deprecated (SOFA v25.06): maxNbIterationsNewton of the NewtonRaphsonSolver',
  });
  readonly absoluteCorrectionTolerance = this.initData({
    name: 'absolute_correction_tolerance_threshold',
    type: Real,
    default: 1e-5,
    help: 'deprecated (SOFA v25.06): absoluteEstimateDifferenceThreshold of the NewtonRaphsonSolver',
  });
  readonly relativeCorrectionTolerance = this.initData({
    name: 'relative_correction_tolerance_threshold',
    type: Real,
    default: 1e-5,
    help: 'deprecated (SOFA v25.06): relativeEstimateDifferenceThreshold of the NewtonRaphsonSolver',
  });
  readonly absoluteResidualTolerance = this.initData({
    name: 'absolute_residual_tolerance_threshold',
    type: Real,
    default: 1e-5,
    help: 'deprecated (SOFA v25.06): absoluteResidualStoppingThreshold of the NewtonRaphsonSolver',
  });
  readonly relativeResidualTolerance = this.initData({
    name: 'relative_residual_tolerance_threshold',
    type: Real,
    default: 1e-5,
    help: 'deprecated (SOFA v25.06): relativeInitialStoppingThreshold of the NewtonRaphsonSolver',
  });
  readonly divergeWhenResidualGrows = this.initData({
    name: 'should_diverge_when_residual_is_growing',
    type: Bool,
    default: false,
    help: 'deprecated (SOFA v25.06), without effect: the NewtonRaphsonSolver has no such criterion',
  });

  /** The Newton solver in use (the linked one, or the one made at init). */
  private newton!: NewtonRaphsonSolver;
  private sys: MechanicalSystem | undefined;
  /** (size) the increment dx of the last linear solve; (size) P·f at the current guess. */
  private dx: Float64Array = new Float64Array(0);
  private r: Float64Array = new Float64Array(0);

  /** It inverts −K; a correction Δ moves x by dt·Δ and v by Δ (SOFA's factors). */
  override systemMatrixFactors(): { m: number; b: number; k: number } {
    return { m: 0, b: 0, k: -1 };
  }

  protected allocate(sys: MechanicalSystem): void {
    this.dx = sys.newVector();
    this.r = sys.newVector();
  }

  /** Newton iterations of the last step. */
  get iterationsDone(): number {
    return this.newton.iterationsDone;
  }

  /** True when the last step met a convergence criterion. */
  get converged(): boolean {
    return this.newton.status.value.startsWith('Converged');
  }

  /** The Newton solver in use. */
  get newtonRaphson(): NewtonRaphsonSolver {
    return this.newton;
  }

  override init(): void {
    const linked = this.newtonSolver.get();
    const given = DEPRECATED.filter(([old]) => (this.findData(old) as Data<unknown>).isSet);
    if (linked) {
      this.newton = linked;
      for (const [old, now] of given)
        this.warnAt(
          old,
          `'${old}' is deprecated since SOFA v25.06 and ignored here: ${linked.describe()} is used; set its '${String(now)}'`,
        );
    } else {
      this.newton = new NewtonRaphsonSolver();
      this.newton.name.value = `${this.getName()}_newtonSolver`;
      this.warn(
        "no NewtonRaphsonSolver in this node or below: one with SOFA's defaults is made for this StaticSolver (add <NewtonRaphsonSolver/> to set its criteria)",
      );
      for (const [old, now] of given) {
        const d = this.findData(old) as Data<number | boolean>;
        const target = this.newton[now] as unknown as Data<number>;
        target.value = Number(d.value);
        this.warnAt(
          old,
          `'${old}' is deprecated since SOFA v25.06: it sets '${String(now)}' of the NewtonRaphsonSolver made for this StaticSolver`,
        );
      }
    }
    if (this.divergeWhenResidualGrows.isSet)
      this.warnAt(
        'should_diverge_when_residual_is_growing',
        "'should_diverge_when_residual_is_growing' is deprecated since SOFA v25.06 and has no effect (the NewtonRaphsonSolver has no such criterion)",
      );
    if (this.newton.maxNbIterationsNewton.value < 0)
      throw this.error(`the number of Newton iterations must be >= 0 (got ${this.newton.maxNbIterationsNewton.value})`);
    this.newton.usedBy = this;
  }

  /** A deprecation warning located at the attribute. */
  private warnAt(dataName: string, msg: string): void {
    const loc = this.findData(dataName)?.loc ?? this.loc;
    sceneWarnings(this.context.root).push(
      new SofaError(msg, { ...(loc ? { loc } : {}), component: this.describe(), code: 'deprecated', source: this }),
    );
  }

  solve(_dt: number): void {
    const t0 = performance.now();
    this.sys = this.getSystem();
    this.dx.fill(0);
    this.newton.solve(this);
    this.sys.touchStates();
    this.lastStats = { iterations: this.newton.iterationsDone, residual: Math.sqrt(dotOf(this.r, this.r)), timeMs: performance.now() - t0 };
  }

  // --- the equation r(x) = P·f(x), for the Newton solver ---

  evaluateCurrentGuess(): void {
    const sys = this.sys!;
    sys.computeForce(this.r);
    sys.projectResponse(this.r);
  }

  squaredNormLastEvaluation(): number {
    return dotOf(this.r, this.r);
  }

  computeGradientFromCurrentGuess(): void {}

  /** P(−K)P·dx = P·f (the matrix is assembled by the linear solver). */
  solveLinearEquation(): void {
    this.dx.fill(0);
    this.linearSolver.require().solveSystem(this.sys!, { m: 0, b: 0, k: -1 }, this.r, this.dx);
  }

  updateGuessFromLinearSolution(alpha: number): void {
    const sys = this.sys!;
    integrate(sys, sys.x, sys.x, this.dx, alpha);
    sys.propagatePositionsAndVelocities();
  }

  squaredNormDx(): number {
    return dotOf(this.dx, this.dx);
  }

  squaredLastEvaluation(): number {
    return dotOf(this.sys!.x, this.sys!.x);
  }
}
