import { BaseObject } from '../base-object.js';
import type { StateType } from '../state-types.js';
import type { CheckpointReader, CheckpointRecord } from '../checkpoint/checkpoint-value.js';

/**
 * A mechanical state (SOFA BaseMechanicalState, implemented by MechanicalObject): the degrees of
 * freedom of a body as flat arrays.
 *   x, x0:     (size × coordSize)  positions, rest positions
 *   v, f, dx:  (size × derivSize)  velocities, forces, position increments
 * A solver may rebind these arrays to views of its global vectors (`bindStorage`); components must
 * read them through the getters each time rather than keep a copy across steps.
 */
export abstract class BaseMechanicalState extends BaseObject {
  readonly isMechanicalState = true;
  abstract get stateType(): StateType;
  /** Number of points. */
  abstract get size(): number;
  abstract get x(): Float64Array;
  abstract get v(): Float64Array;
  abstract get f(): Float64Array;
  abstract get dx(): Float64Array;
  abstract get x0(): Float64Array;
  /** Makes x, v, f, dx live in the given arrays (contents copied in first). */
  abstract bindStorage(storage: { x: Float64Array; v: Float64Array; f: Float64Array; dx: Float64Array }): void;
  /** Tells followers of the position and velocity Data that the arrays changed in place. */
  abstract touch(): void;
  /**
   * SOFA's externalForce vector: (size × derivSize), or empty. Forces computed for the current step
   * outside any ODE solver (interaction force fields in nodes that no solver owns, see
   * isolated-interaction-forces.ts); every force computation of a solver adds it to f, and the
   * animation loop clears it once the step is integrated.
   */
  externalStepForce: Float64Array = new Float64Array(0);
  /**
   * Forces of the current step computed outside any ODE solver that SOFA brings to this state
   * through a contact mapping (the mapped contact points of a collision response): each adds its
   * forces to f, in order, after the force fields of the solver's force computation (where SOFA's
   * mapping Jᵀ adds them; see BaseForceField.addIsolatedForce). Cleared with externalStepForce.
   */
  deferredStepForces: Array<(f: Float64Array) => void> = [];
  /**
   * SOFA's freePosition and freeVelocity vectors: (size × coordSize) and (size × derivSize), or
   * empty. A FreeMotionAnimationLoop fills them with the state after the free motion (the step
   * solved without constraint forces); Lagrangian constraints measure their violations on them.
   */
  xFree: Float64Array = new Float64Array(0);
  vFree: Float64Array = new Float64Array(0);

  /** Every state vector (Checkpointable): x, v, f, dx, x0, the free motion and the external force. */
  checkpointState(): CheckpointRecord {
    return {
      x: this.x,
      v: this.v,
      f: this.f,
      dx: this.dx,
      x0: this.x0,
      xFree: this.xFree,
      vFree: this.vFree,
      externalStepForce: this.externalStepForce,
    };
  }

  /** x, v, f, dx, x0 in place (same size: a state that changed size is refused); free vectors and
   *  the external force as saved (they are sized at the first step that uses them). */
  restoreState(saved: CheckpointReader): void {
    saved.restoreArrayInPlace('x', this.x, 'position');
    saved.restoreArrayInPlace('v', this.v, 'velocity');
    saved.restoreArrayInPlace('f', this.f, 'force');
    saved.restoreArrayInPlace('dx', this.dx, 'dx');
    saved.restoreArrayInPlace('x0', this.x0, 'rest position');
    this.xFree = saved.restoreArray('xFree', this.xFree);
    this.vFree = saved.restoreArray('vFree', this.vFree);
    this.externalStepForce = saved.restoreArray('externalStepForce', this.externalStepForce);
    this.touch();
  }
}

export function isMechanicalState(o: unknown): o is BaseMechanicalState {
  return typeof o === 'object' && o !== null && (o as { isMechanicalState?: unknown }).isMechanicalState === true;
}
