import { Real, sofaComponent, type BaseMechanicalState } from '@sofa-ts/core';
import { ConstraintValue } from './ConstraintValue.js';
import { BoolArray } from './Stabilization.js';

/** Below this normal speed a contact is treated as resting (stabilized) rather than bouncing. */
const RESTING_SPEED = 1e-5;

/**
 * The Compliant plugin's Restitution: contact rows (normal first in each block) with a
 * restitution coefficient e. For a violated block (φ_normal < 0):
 *   normal row: −e·(J·v)_normal when the contact moves faster than 1e-5 (the velocity is
 *     reflected), else 0 with a stabilizing solver or −φ/h without;   other rows: −φ/h.
 * Non-violated blocks are deactivated in the projector's mask (their λ is 0); their rows keep the
 * current velocity. The correction pass stabilizes the slow violated rows only: −φ/h there, 0
 * elsewhere. `mask` (one flag per row) is computed each step unless the scene gives it.
 */
@sofaComponent({
  name: 'Restitution',
  category: 'ConstraintValue',
  module: 'Compliant',
  description: 'Constraint value for elastic contacts with a restitution coefficient.',
})
export class Restitution extends ConstraintValue {
  readonly mask = this.initData({
    name: 'mask',
    type: BoolArray,
    default: new Uint32Array(0),
    help: 'violated constraint rows (computed each step when empty)',
  });
  readonly restitution = this.initData({ name: 'restitution', type: Real, default: 0, help: 'restitution coefficient' });
  /** (rows) violated rows flagged by filterConstraints, when the scene gives no mask. */
  private flagged = new Uint8Array(0);
  /** Whether `flagged` holds the flags of the current step. */
  private hasFlags = false;

  private violated(): ArrayLike<number> | undefined {
    return this.mask.value.length > 0 ? this.mask.value : this.hasFlags ? this.flagged : undefined;
  }

  override correction(out: Float64Array, offset: number, state: BaseMechanicalState, dt: number): void {
    const x = state.x,
      v = state.v;
    const n = state.size * state.stateType.derivSize;
    const mask = this.violated();
    for (let i = 0; i < n; i++) {
      const skip = (mask !== undefined && mask[i] === 0) || Math.abs(v[i]) > RESTING_SPEED;
      out[offset + i] = skip ? 0 : -x[i] / dt;
    }
  }

  override dynamics(out: Float64Array, offset: number, state: BaseMechanicalState, stabilization: boolean, dt: number): void {
    const x = state.x,
      v = state.v;
    const dim = state.stateType.derivSize;
    const mask = this.violated();
    const e = this.restitution.value;
    for (let b = 0; b < state.size; b++) {
      const line = b * dim;
      if (mask === undefined || mask[line] !== 0) {
        // violated: bounce fast contacts, hold resting ones
        if (Math.abs(v[line]) > RESTING_SPEED) out[offset + line] = -e * v[line];
        else out[offset + line] = stabilization ? 0 : -x[line] / dt;
        for (let k = 1; k < dim; k++) out[offset + line + k] = -x[line + k] / dt;
      } else {
        for (let k = 0; k < dim; k++) out[offset + line + k] = v[line + k];
      }
    }
  }

  override filterConstraints(active: Uint8Array | undefined, state: BaseMechanicalState): void {
    if (this.mask.value.length > 0) return;
    const dim = state.stateType.derivSize;
    const n = state.size * dim;
    if (this.flagged.length !== n) this.flagged = new Uint8Array(n);
    this.hasFlags = true;
    const x = state.x;
    for (let b = 0; b < state.size; b++) {
      const violated = x[b * dim] < 0 ? 1 : 0;
      if (active) active[b] = violated;
      this.flagged.fill(violated, b * dim, b * dim + dim);
    }
  }

  override clear(): void {
    this.hasFlags = false;
  }
}
