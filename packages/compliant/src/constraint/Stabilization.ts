import { BaseConstraintValue, IndexArray, sofaComponent, type BaseMechanicalState } from '@sofa-ts/core';

/** SOFA's vector<bool>: one 0/1 flag per entry. */
export const BoolArray = IndexArray(1, 'vector<bool>');

/**
 * The Compliant plugin's Stabilization: hard (holonomic) constraint rows. With the solver's
 * stabilization pass the dynamics cancels the constraint velocity and the correction pass the
 * violation; without it the rows are elastic (as ConstraintValue):
 *   correction = −φ/h on stabilized blocks, 0 elsewhere
 *   dynamics   = 0 on stabilized blocks, −φ/h elsewhere (stabilizing solver); −φ/h (otherwise)
 * `mask` flags the blocks (points) to stabilize, empty = all. With a projector (unilateral rows)
 * and no mask given, each step flags the violated blocks (φ of the block's first row < 0), so
 * that non-violated contacts may close by at most their gap in one step. It is the default value
 * of hard (C = 0) rows.
 */
@sofaComponent({
  name: 'Stabilization',
  category: 'ConstraintValue',
  module: 'Compliant',
  description: 'Constraint value of hard constraints: velocity cancelled by the dynamics, violation by the correction pass.',
})
export class Stabilization extends BaseConstraintValue {
  readonly mask = this.initData({
    name: 'mask',
    type: BoolArray,
    default: new Uint32Array(0),
    help: 'blocks to stabilize, one flag per point (empty: all)',
  });
  /** (blocks) violated blocks flagged by filterConstraints, when the scene gives no mask. */
  private flagged = new Uint8Array(0);
  /** Whether `flagged` holds the flags of the current step. */
  private hasFlags = false;

  /** The stabilized flags in use: the scene's mask, else the flagged blocks, else none (= all). */
  protected stabilized(): ArrayLike<number> | undefined {
    if (this.mask.value.length > 0) return this.mask.value;
    return this.hasFlags ? this.flagged : undefined;
  }

  correction(out: Float64Array, offset: number, state: BaseMechanicalState, dt: number): void {
    const x = state.x;
    const dim = state.stateType.derivSize;
    const mask = this.stabilized();
    for (let b = 0; b < state.size; b++) {
      const on = mask === undefined || mask[b] !== 0;
      for (let k = 0; k < dim; k++) out[offset + b * dim + k] = on ? -x[b * dim + k] / dt : 0;
    }
  }

  dynamics(out: Float64Array, offset: number, state: BaseMechanicalState, stabilization: boolean, dt: number): void {
    const x = state.x;
    const dim = state.stateType.derivSize;
    const mask = stabilization ? this.stabilized() : undefined;
    for (let b = 0; b < state.size; b++) {
      // stabilized blocks: only the constraint velocity is cancelled
      const stabilized = stabilization && (mask === undefined || mask[b] !== 0);
      for (let k = 0; k < dim; k++) out[offset + b * dim + k] = stabilized ? 0 : -x[b * dim + k] / dt;
    }
  }

  override filterConstraints(_active: Uint8Array | undefined, state: BaseMechanicalState): void {
    if (this.mask.value.length > 0) return;
    const dim = state.stateType.derivSize;
    if (this.flagged.length !== state.size) this.flagged = new Uint8Array(state.size);
    this.hasFlags = true;
    const x = state.x;
    for (let b = 0; b < state.size; b++) this.flagged[b] = x[b * dim] < 0 ? 1 : 0;
  }

  override clear(): void {
    this.hasFlags = false;
  }
}
