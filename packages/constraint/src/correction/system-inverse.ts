import type { BaseObject, BaseOdeSolver } from '@sofa-ts/core';
import type { LinearSolver, MechanicalSystem } from '@sofa-ts/assembly';
import type { StateRows } from '../graph/state-rows.js';
import { systemFactors, systemOf } from './integration.js';

/** A linear solver that keeps the inverse of its last matrix (SOFA's MatrixLinearSolver: a factorization). */
interface FactorizedSolver {
  solveMatrix(out: Float64Array, rhs: Float64Array): void;
  setMatrix(A: unknown): void;
}

function isFactorized(o: unknown): o is FactorizedSolver {
  return typeof (o as Partial<FactorizedSolver>).solveMatrix === 'function' && typeof (o as Partial<FactorizedSolver>).setMatrix === 'function';
}

/**
 * A⁻¹ of an ODE solver's system, applied through its linear solver (SOFA's addJMInvJt and
 * computeMotionCorrection of LinearSolverConstraintCorrection): a solver that factorized A during
 * the free motion of the step (SparseLDLSolver, ...) reuses that factorization; an iterative one
 * (CGLinearSolver) solves again with the same matrix. Right-hand sides and results are projected
 * by the projective constraints (P·A⁻¹·P).
 */
export class SystemInverse {
  /** (system size) right-hand side and solution. */
  rhs = new Float64Array(0);
  sol = new Float64Array(0);
  private sys: MechanicalSystem | undefined;
  private factorizedFor: unknown;

  constructor(private readonly owner: BaseObject) {}

  /** The ODE solver's compiled system (buffers sized to it). */
  system(solver: BaseOdeSolver): MechanicalSystem {
    const sys = systemOf(solver, this.owner);
    if (sys !== this.sys) {
      this.sys = sys;
      this.factorizedFor = undefined;
    }
    if (this.rhs.length !== sys.size) {
      this.rhs = new Float64Array(sys.size);
      this.sol = new Float64Array(sys.size);
    }
    return sys;
  }

  /** sol = P·A⁻¹·P·rhs. */
  solve(solver: BaseOdeSolver, linear: LinearSolver, dt: number): void {
    const sys = this.system(solver);
    sys.projectResponse(this.rhs);
    if (isFactorized(linear)) {
      // the free motion factorized A; a solver never used yet gets it now
      if (this.factorizedFor !== linear && !(linear as { hasPattern?: boolean }).hasPattern) linear.setMatrix(sys.assembleMBK(systemFactors(solver, dt, this.owner)));
      this.factorizedFor = linear;
      linear.solveMatrix(this.sol, this.rhs);
    } else {
      this.sol.fill(0);
      linear.solveSystem(sys, systemFactors(solver, dt, this.owner), this.rhs, this.sol);
    }
    sys.projectResponse(this.sol);
  }

  /** The global offset of a master state of the system, or −1. */
  offsetOf(solver: BaseOdeSolver, state: unknown): number {
    const sys = this.system(solver);
    const m = sys.masters.find((s) => s.state === state);
    return m ? m.offset : -1;
  }
}

/** rhs[offset + ...] += row k of `rows` (scaled). */
export function scatterRow(rhs: Float64Array, offset: number, rows: StateRows, k: number, scale = 1): void {
  const d = rows.d;
  for (let e = rows.rowPtr[k]!; e < rows.rowPtr[k + 1]!; e++) {
    const o = offset + rows.points[e]! * d;
    for (let a = 0; a < d; a++) rhs[o + a] += scale * rows.values[e * d + a]!;
  }
}

/** Row k of `rows` · vec[offset + ...]. */
export function dotRowAt(rows: StateRows, k: number, vec: Float64Array, offset: number): number {
  const d = rows.d;
  let s = 0;
  for (let e = rows.rowPtr[k]!; e < rows.rowPtr[k + 1]!; e++) {
    const o = offset + rows.points[e]! * d;
    for (let a = 0; a < d; a++) s += rows.values[e * d + a]! * vec[o + a]!;
  }
  return s;
}
