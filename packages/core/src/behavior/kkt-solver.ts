import { BaseObject } from '../base-object.js';
import type { BaseConstraintProjector } from './constraint-projector.js';
import type { BaseConstraintValue } from './constraint-value.js';
import type { SparseMatrixLike } from './mapping.js';
import type { BaseMechanicalState } from './mechanical-state.js';
import type { SolverStats } from './solvers.js';

/** The constraint rows of one compliant state in a KKT system. */
export interface ConstraintRows {
  readonly state: BaseMechanicalState;
  /** First row of the state in λ (and in J, C). */
  readonly offset: number;
  /** Number of blocks (points of the state). */
  readonly blocks: number;
  /** Rows per block (the state's derivative size). */
  readonly dim: number;
  /** The projector of the state's node (unilateral, friction), if any: bilateral rows otherwise. */
  readonly projector: BaseConstraintProjector | undefined;
  /** The constraint value of the state's node, if the scene gives one. */
  readonly value: BaseConstraintValue | undefined;
}

/**
 * An assembled KKT system (the Compliant plugin's AssembledSystem), m dynamics dofs (the masters)
 * and n constraint rows (the compliant states), with the solver's factors already applied:
 *   [ H   −Jᵀ ] [v]   [P·c]
 *   [ J    C  ] [λ] = [ b ]
 *   H  (m × m)  P·(m·M + b·B + k·K)·P + (I − P): projected dofs have identity rows/columns
 *   J  (n × m)  rows J_c0 of the compliant states;  JP = J·P
 *   C  (n × n)  block diagonal of the compliances, times the solver's compliance factor
 *   P  (m × m)  projection of the projective constraints
 * Matrices are owned by the engine and refilled in place each step; `patternVersion` changes
 * when any of their patterns changed (solvers redo their symbolic work then).
 */
export interface KKTSystem {
  readonly m: number;
  readonly n: number;
  readonly dt: number;
  readonly H: SparseMatrixLike;
  readonly J: SparseMatrixLike;
  readonly JP: SparseMatrixLike;
  readonly C: SparseMatrixLike;
  readonly P: SparseMatrixLike;
  readonly isPIdentity: boolean;
  readonly constraints: readonly ConstraintRows[];
  readonly patternVersion: number;
}

/**
 * A solver of KKT systems (the Compliant plugin's KKTSolver). `factor` prepares what depends on
 * the matrices; `solve` then takes x = [v; λ] (m + n; holding a warm start on entry, which
 * iterative solvers may use) and rhs = [P·c; b] and writes the solution into x. `correct` solves
 * the correction (stabilization) pass, with `damping` added to the constraint block to relax
 * infeasible corrections; by default it is `solve`.
 */
export abstract class BaseKKTSolver extends BaseObject {
  readonly isKKTSolver = true;
  /** Statistics of the last solve. */
  lastStats: SolverStats | undefined;

  abstract factor(sys: KKTSystem): void;

  abstract solve(x: Float64Array, sys: KKTSystem, rhs: Float64Array): void;

  correct(x: Float64Array, sys: KKTSystem, rhs: Float64Array, _damping: number): void {
    this.solve(x, sys, rhs);
  }
}

export function isKKTSolver(o: unknown): o is BaseKKTSolver {
  return typeof o === 'object' && o !== null && (o as { isKKTSolver?: unknown }).isKKTSolver === true;
}

/**
 * The response of the dynamics (the Compliant plugin's Response): out = H⁻¹·rhs for the H of a
 * KKT system, used by Schur-complement solvers. `semidefinite` says H may be singular (the
 * identity rows of projected dofs are not counted on), so a regularization may be added.
 */
export abstract class BaseResponse extends BaseObject {
  readonly isResponse = true;

  abstract factor(H: SparseMatrixLike, semidefinite: boolean): void;

  abstract solve(out: Float64Array, rhs: Float64Array): void;

  /** True when the response is symmetric (all but LU-based ones). */
  get isSymmetric(): boolean {
    return true;
  }
}

export function isResponse(o: unknown): o is BaseResponse {
  return typeof o === 'object' && o !== null && (o as { isResponse?: unknown }).isResponse === true;
}
