import { BaseObject } from '../base-object.js';
import type { BaseMechanicalState } from './mechanical-state.js';
import type { MatrixAccumulator } from './matrix-accumulator.js';

/**
 * A projective constraint (SOFA BaseProjectiveConstraintSet): it removes directions of motion by
 * projecting vectors, dx ← P·dx. For the assembled system A ← P·A·P + (I − P) when P is diagonal,
 * i.e. the rows and columns of the projected scalar dofs are cleared with 1 on the diagonal.
 * It adds no force. Vectors are the state's flat arrays (derivatives, positions for projectPosition).
 *
 * **When each method is called**: the ODE solver projects its right-hand side and its solution
 * (`projectResponse`, also accelerations of explicit schemes); the assembled matrix is built from
 * `projectedDofs` once per pattern; `projectVelocity` and `projectPosition` bring the state back
 * onto the constraint when the solver or the animation loop asks for it.
 */
export abstract class BaseProjectiveConstraint extends BaseObject {
  readonly isProjectiveConstraint = true;

  abstract getMechanicalState(): BaseMechanicalState;

  /** dx ← P·dx (responses, right-hand sides, accelerations). */
  abstract projectResponse(dx: Float64Array): void;

  /** v ← P·v. */
  abstract projectVelocity(v: Float64Array): void;

  /** Positions of constrained dofs back to their constrained values. */
  abstract projectPosition(x: Float64Array): void;

  /**
   * The other states a two-way constraint projects together with its own (SOFA's
   * PairInteractionProjectiveConstraintSet, e.g. AttachProjectiveConstraint with twoWay): the ODE
   * solver's system then calls `projectResponseWith` with their views of the same vector. Empty for
   * constraints acting on their own state only (the default).
   */
  getCoupledStates(): readonly BaseMechanicalState[] {
    return [];
  }

  /** dx ← P·dx over its own state (`dx`) and the coupled states (`others`, in getCoupledStates order). */
  projectResponseWith(dx: Float64Array, _others: readonly Float64Array[]): void {
    this.projectResponse(dx);
  }

  /** Local scalar dof indices zeroed by P (diagonal projections). */
  abstract projectedDofs(out: number[]): void;

  /**
   * True when `projectResponse` does nothing but set the dofs of `projectedDofs` to 0 (+0): a
   * matrix-free solver may then zero them itself. False by default.
   */
  get projectsByZeroing(): boolean {
    return false;
  }

  /**
   * False when P is not diagonal (e.g. a projection onto a plane of any direction): the assembled
   * system then takes P from `addProjectionToMatrix` instead of `projectedDofs`.
   */
  get isDiagonalProjection(): boolean {
    return true;
  }

  /**
   * Non-diagonal projections: emits the rows of P that differ from the identity, in local scalar
   * dof indices (same emission rule as matrices: same entries at every call). Rows it does not
   * emit are identity rows. Only called when `isDiagonalProjection` is false.
   */
  addProjectionToMatrix(_acc: MatrixAccumulator): void {}
}

export function isProjectiveConstraint(o: unknown): o is BaseProjectiveConstraint {
  return typeof o === 'object' && o !== null && (o as { isProjectiveConstraint?: unknown }).isProjectiveConstraint === true;
}
