import { BaseLinearSolverMarker, type SolverStats } from '@sofa-ts/core';
import type { MBKFactors, MechanicalSystem } from './mechanical-system.js';

/**
 * A linear solver component (SOFA LinearSolver): solves A·out = rhs with A = P(m·M + b·B + k·K)P
 * of a compiled mechanical system, assembled or matrix-free as the solver chooses.
 */
export abstract class LinearSolver extends BaseLinearSolverMarker {
  abstract solveSystem(system: MechanicalSystem, factors: MBKFactors, rhs: Float64Array, out: Float64Array): SolverStats;
}

export function isAssemblyLinearSolver(o: unknown): o is LinearSolver {
  return typeof o === 'object' && o !== null && typeof (o as LinearSolver).solveSystem === 'function' && (o as LinearSolver).isLinearSolver === true;
}
