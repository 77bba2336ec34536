import { BaseObject } from '../base-object.js';

/**
 * The type of the constraint rows of one compliant state (the Compliant plugin's Constraint):
 * a projection of the multipliers λ of each block onto its admissible set, e.g. λ ≥ 0
 * (unilateral) or the Coulomb friction cone. A state without a projector has bilateral rows.
 * Iterative solvers (SequentialSolver) project each block after each update.
 *
 * `active` flags the blocks taking part in the current solve (1 = active; the λ of an inactive
 * block is forced to 0). It has one entry per block (per point of the state); it is sized by the
 * solver, set to all ones before `filterConstraints` of the constraint value, which may clear
 * some entries.
 */
export abstract class BaseConstraintProjector extends BaseObject {
  readonly isConstraintProjector = true;
  /** (state size) 1 = the block is active in this step. */
  active: Uint8Array = new Uint8Array(0);

  /**
   * Projects λ of block `index` (the rows lambda[offset .. offset+dim)) in place. `correction` is
   * true in the correction (stabilization) pass, where friction cones shrink to their normal.
   */
  abstract project(lambda: Float64Array, offset: number, dim: number, index: number, correction: boolean): void;
}

export function isConstraintProjector(o: unknown): o is BaseConstraintProjector {
  return typeof o === 'object' && o !== null && (o as { isConstraintProjector?: unknown }).isConstraintProjector === true;
}
