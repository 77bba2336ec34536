import { BaseObject } from '../base-object.js';
import type { BaseMechanicalState } from './mechanical-state.js';

/**
 * The right-hand side of the constraint rows of one compliant state (the Compliant plugin's
 * BaseConstraintValue). The state's positions are the violations φ (n blocks of `dim` rows, n =
 * state size, dim = its derivative size) and its velocities the constraint velocities J·v.
 *
 * - `dynamics` fills the value used by the dynamics solve, before the solver's α/β scaling:
 *   −φ/h for an elastic constraint (ConstraintValue), 0 for a stabilized hard one whose
 *   violation is corrected by the correction pass (Stabilization), ...
 * - `correction` fills the value of the correction (stabilization) pass, solved in velocity:
 *   −φ/h for the rows to correct, 0 elsewhere.
 * - `filterConstraints` runs before the solve when the state has a constraint projector: it may
 *   flag the blocks that are violated (for its own use) and deactivate blocks in the projector's
 *   `active` mask (1 = active), e.g. non-violated contacts with restitution.
 * - `clear` runs after the step (forget what filterConstraints computed).
 * `out` is a vector of all constraint rows and the state's rows start at `offset`.
 */
export abstract class BaseConstraintValue extends BaseObject {
  readonly isConstraintValue = true;

  abstract dynamics(out: Float64Array, offset: number, state: BaseMechanicalState, stabilization: boolean, dt: number): void;

  abstract correction(out: Float64Array, offset: number, state: BaseMechanicalState, dt: number): void;

  filterConstraints(_active: Uint8Array | undefined, _state: BaseMechanicalState): void {}

  clear(): void {}
}

export function isConstraintValue(o: unknown): o is BaseConstraintValue {
  return typeof o === 'object' && o !== null && (o as { isConstraintValue?: unknown }).isConstraintValue === true;
}
