import { BaseObject } from '../base-object.js';
import type { BaseMechanicalState } from './mechanical-state.js';
import type { MatrixAccumulator } from './matrix-accumulator.js';

/**
 * A mass (SOFA BaseMass) on one state. It also applies gravity, f += M·g, as SOFA's masses do in
 * addForce. Arrays are laid out as the state's derivatives.
 */
export abstract class BaseMass extends BaseObject {
  readonly isMass = true;

  abstract getMechanicalState(): BaseMechanicalState;

  /** out += factor·M·dx. */
  abstract addMDx(out: Float64Array, dx: Float64Array, factor: number): void;

  /** Emits mFactor·M (same emission rule as force fields). */
  abstract addMToMatrix(acc: MatrixAccumulator, mFactor: number): void;

  /** f += M·g, with g the context gravity. */
  abstract addForce(f: Float64Array, x: Float64Array, v: Float64Array): void;

  /** a = M⁻¹·f (explicit integrators). */
  abstract accFromF(a: Float64Array, f: Float64Array): void;

  /** ½·vᵀ·M·v. */
  abstract getKineticEnergy(v: Float64Array): number;

  /** −Σ m·g·x (gravity potential). */
  abstract getPotentialEnergy(x: Float64Array): number;

  /** True when M is diagonal (lumped): explicit solvers can then avoid a linear solve. */
  abstract get isDiagonal(): boolean;
}

export function isMass(o: unknown): o is BaseMass {
  return typeof o === 'object' && o !== null && (o as { isMass?: unknown }).isMass === true;
}
