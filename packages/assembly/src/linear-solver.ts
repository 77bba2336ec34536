import { BaseLinearSolverMarker, type SolverStats } from '@sofa-ts/core';
import type { MBKFactors, MechanicalSystem } from './mechanical-system.js';

/**
 * A linear solver component (SOFA LinearSolver): solves A·out = rhs with A = P(m·M + b·B + k·K)P
 * of a compiled mechanical system, assembled or matrix-free as the solver chooses.
 */
export abstract class LinearSolver extends BaseLinearSolverMarker {
  /**
   * Solves A·out = rhs, A = P·(m·M + b·B + k·K)·P + (I − P), for the compiled system: vectors of
   * system.size scalar dofs (derivative layout), rhs already projected. The ODE solver chooses the
   * factors (backward Euler: m = 1 + h·rM, b = −h, k = −h·(h + rK); M·a = f: m = 1, b = k = 0).
   * Assembled: `system.assembleMBK(factors)` gives A in CSR (pattern built once, then refilled;
   * owned by the system). Matrix-free: `system.applyMBK(out, factors, vec)` computes A·vec. `out` may
   * hold a previous solution on entry (an initial guess for iterative solvers): overwrite it. Allocate only
   * when system.size changes. Returns iterations, residual and time for the CLI summary.
   */
  abstract solveSystem(system: MechanicalSystem, factors: MBKFactors, rhs: Float64Array, out: Float64Array): SolverStats;
}

export function isAssemblyLinearSolver(o: unknown): o is LinearSolver {
  return (
    typeof o === 'object' &&
    o !== null &&
    typeof (o as LinearSolver).solveSystem === 'function' &&
    (o as LinearSolver).isLinearSolver === true
  );
}
