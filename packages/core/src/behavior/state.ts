import type { BaseObject } from '../base-object.js';
import type { StateType } from '../state-types.js';

/**
 * A state that is not mechanical (SOFA's core::State, as MappedObject implements it): positions x
 * (size × coordSize) and velocities v (size × derivSize) of points, and nothing else. It is the
 * output of a mapping used to place something (a visual or collision surface): the mapping writes
 * x = φ(x_in) and v = J·v_in, at its init and at the end of each step (updateMappings), as SOFA's
 * UpdateMappingVisitor does; no solver sees it (no forces, no mass, not in a mechanical system).
 */
export interface BaseState extends BaseObject {
  readonly isState: true;
  readonly stateType: StateType;
  /** Number of points. */
  readonly size: number;
  readonly x: Float64Array;
  readonly v: Float64Array;
  /** n points, keeping the first values (new ones neutral: origin, identity orientation, zero velocity). */
  resize(n: number): void;
  /** Tells followers of the position and velocity Data that the arrays changed in place. */
  touch(): void;
}

export function isNonMechanicalState(o: unknown): o is BaseState {
  return (
    typeof o === 'object' &&
    o !== null &&
    (o as { isState?: unknown }).isState === true &&
    (o as { isMechanicalState?: unknown }).isMechanicalState !== true
  );
}
