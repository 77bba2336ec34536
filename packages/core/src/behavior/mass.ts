import { BaseObject } from '../base-object.js';
import type { BaseMechanicalState } from './mechanical-state.js';
import type { MatrixAccumulator } from './matrix-accumulator.js';

/**
 * A mass (SOFA BaseMass) on one state. It also applies gravity, f += M·g, as SOFA's masses do in
 * addForce. Arrays are flat and laid out as the state's derivatives, (size × derivSize): point i,
 * component j at i·derivSize + j (positions x: size × coordSize).
 *
 * **When each method is called** in one step of an implicit solver, which solves
 * (m·M + b·B + k·K)·Δv = rhs (backward Euler: m = 1 + h·rayleighMass):
 * 1. `addForce(f, x, v)` once with the other forces: f += M·g;
 * 2. `addMDx(out, dx, factor)` for the right-hand side and for every product of a matrix-free
 *    linear solver, with factor = m (the mFactor);
 * 3. `addMToMatrix(acc, mFactor)` when a direct linear solver assembles the matrix.
 * Explicit solvers call `accFromF` when every mass `isDiagonal`, else solve M·a = f with a linear
 * solver (which assembles M through addMToMatrix). Energies are for reports and tests.
 */
export abstract class BaseMass extends BaseObject {
  readonly isMass = true;

  abstract getMechanicalState(): BaseMechanicalState;

  /** out += factor·M·dx (accumulate; factor is the solver's mFactor). out and dx are (size × derivSize). */
  abstract addMDx(out: Float64Array, dx: Float64Array, factor: number): void;

  /** Emits mFactor·M in local scalar dofs (row = point·derivSize + component), the same (row, col) sequence at every call (see MatrixAccumulator). */
  abstract addMToMatrix(acc: MatrixAccumulator, mFactor: number): void;

  /** f += M·g, with g = this.context.getGravity() (the root's gravity). f is (size × derivSize); x, v are given for position-dependent masses. */
  abstract addForce(f: Float64Array, x: Float64Array, v: Float64Array): void;

  /** a = M⁻¹·f, overwriting a (explicit integrators, only asked when isDiagonal). */
  abstract accFromF(a: Float64Array, f: Float64Array): void;

  /** ½·vᵀ·M·v. */
  abstract getKineticEnergy(v: Float64Array): number;

  /** −Σ m·g·x (gravity potential). */
  abstract getPotentialEnergy(x: Float64Array): number;

  /** True when M is diagonal (lumped): explicit solvers can then avoid a linear solve. */
  abstract get isDiagonal(): boolean;

  /**
   * The masses m_i of the points when `addMDx` is exactly out_{i·d+c} += (dx_{i·d+c}·m_i)·factor for
   * every point and component (a lumped mass on points), else undefined (the default). A matrix-free
   * solver may then run the product elsewhere (a WebAssembly memory) with the same operations.
   */
  lumpedPointMasses(): Float64Array | undefined {
    return undefined;
  }
}

export function isMass(o: unknown): o is BaseMass {
  return typeof o === 'object' && o !== null && (o as { isMass?: unknown }).isMass === true;
}
