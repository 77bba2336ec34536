/**
 * A nonlinear equation r(u) = 0 as SOFA's NewtonRaphsonSolver sees it (BaseNonLinearFunction):
 * the ODE solver that owns the equation (StaticSolver, BDFOdeSolver) holds the unknown, its
 * residual, its Jacobian J = ∂r/∂u and the linear solve J·Δu = −r; the Newton solver only asks for
 * norms and drives the iterations and the line search.
 */
export interface NonLinearFunction {
  /** r(u) at the current guess (the first call: at the initial guess). */
  evaluateCurrentGuess(): void;
  /** |r|² of the last evaluation. */
  squaredNormLastEvaluation(): number;
  /** J(u) at the current guess (the linear solver's matrix). */
  computeGradientFromCurrentGuess(): void;
  /** Δu from J·Δu = −r. */
  solveLinearEquation(): void;
  /** u += alpha·Δu (called with the increments of the line search's step lengths). */
  updateGuessFromLinearSolution(alpha: number): void;
  /** |Δu|² of the last linear solve. */
  squaredNormDx(): number;
  /** |u|² of the current guess (the relative estimate-difference criterion). */
  squaredLastEvaluation(): number;
}
