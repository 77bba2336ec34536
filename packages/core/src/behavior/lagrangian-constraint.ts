import { BaseObject } from '../base-object.js';
import { Int, Real } from '../data-types.js';
import type { BaseMechanicalState } from './mechanical-state.js';

/**
 * How a constraint problem is posed (SOFA's ConstraintOrder): on positions and velocities at once
 * (the violation is a free displacement, λ an impulse), or on velocities only.
 */
export type ConstraintOrder = 'posAndVel' | 'pos' | 'vel';

/**
 * Where a Lagrangian constraint writes its rows (SOFA's MatrixDeriv, one per state): entry
 * (row, point) of a state holds one derivative vector (derivSize numbers: 3 for Vec3d, 6 for a
 * Rigid3d frame). Entries written twice at the same (row, point) add up.
 */
export interface ConstraintJacobianBuilder {
  add(state: BaseMechanicalState, row: number, point: number, values: ArrayLike<number>, scale?: number): void;
}

/**
 * The local solve of one group of constraint rows in a Gauss-Seidel sweep (SOFA's
 * ConstraintResolution). W is the dense compliance matrix of the whole problem, n × n row-major.
 * - `init` runs once before the sweeps (it may read its diagonal block of W and put a warm start
 *   into `force`);
 * - `resolution` gets d = dfree + W·force on its rows (d already includes its own current force)
 *   and updates force[line .. line + nbLines);
 * - `store` runs after the solve (keep the forces for the next step's warm start).
 */
export interface ConstraintResolution {
  readonly nbLines: number;
  /** The group's own tolerance on its error (0: the solver's tolerance). */
  readonly tolerance: number;
  init(line: number, W: Float64Array, n: number, force: Float64Array): void;
  resolution(line: number, W: Float64Array, n: number, d: Float64Array, force: Float64Array, dfree: Float64Array): void;
  store(line: number, force: Float64Array, converged: boolean): void;
}

/**
 * Persistent identifiers of a block of contact rows (SOFA's ConstraintBlockInfo): `ids[k]` names
 * group k (rows first + k·nbLines ...), so that a solver can start from the previous step's forces
 * of the same contacts.
 */
export interface ConstraintBlockInfo {
  readonly first: number;
  readonly nbLines: number;
  readonly ids: ArrayLike<number>;
}

/**
 * A Lagrangian constraint (SOFA's BaseLagrangianConstraint / ConstraintSet): rows J of a constraint
 * problem δ = δ_free + W·λ, W = J·A⁻¹·Jᵀ, solved by a constraint solver of a
 * FreeMotionAnimationLoop. Violations are measured on the states' free positions (xFree,
 * filled by the loop after the free motion) and free velocities.
 *
 * **One step of the loop**:
 * 1. free motion: the ODE solvers step without constraint forces; xFree, vFree are filled;
 * 2. `buildConstraintMatrix(J, firstRow, order)`: write the rows from firstRow (one derivative
 *    vector per (row, point) entry through `J.add`), return how many rows were written;
 * 3. `getConstraintViolation(out, order, dt)`: δ_free of each row at out[row];
 * 4. `getConstraintResolution(out, order)`: the local law of each group of rows (at its first row),
 *    used by the Gauss-Seidel solvers (inverse problem solvers use InverseConstraint instead);
 * 5. the solver finds λ with δ = δ_free + W·λ, W = J·A⁻¹·Jᵀ; the constraint corrections move the
 *    states by A⁻¹·Jᵀ·λ; `storeLambda(λ)` gives the whole solution (read your rows).
 *
 * **Signs and units**: a row's λ acts along +J (λ > 0 pushes so as to increase δ); with the
 * position order ('posAndVel', 'pos'), λ is an impulse (force·dt) and δ a length; with 'vel', δ is
 * a velocity measured on vFree.
 */
export abstract class BaseLagrangianConstraint extends BaseObject {
  readonly isLagrangianConstraint = true;
  readonly group = this.initData({
    name: 'group',
    type: Int,
    default: 0,
    help: 'ID of the group containing this constraint (constraint solvers may select groups)',
  });
  readonly endTime = this.initData({
    name: 'endTime',
    type: Real,
    default: -1,
    unit: 's',
    help: 'the constraint stops acting after this time (negative: never)',
  });
  readonly constraintIndex = this.initData({
    name: 'constraintIndex',
    type: Int,
    default: 0,
    help: 'first row of this constraint in the constraint problem (set by the solver)',
    output: true,
  });

  /** The states the rows act on (one, or two for an interaction constraint). Valid after init. */
  abstract getMechanicalStates(): readonly BaseMechanicalState[];

  /** True while the constraint acts (endTime not passed). */
  isActiveAt(time: number): boolean {
    const end = this.endTime.value;
    return end < 0 || time <= end;
  }

  /** Writes the rows from `firstRow` on and returns how many it wrote. */
  abstract buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number, order: ConstraintOrder): number;

  /** out[row] = violation of each of its rows (positions: at the free positions; 'vel': velocities). */
  abstract getConstraintViolation(out: Float64Array, order: ConstraintOrder, dt: number): void;

  /** out[row] = the resolution of each group of its rows (at the group's first row). */
  abstract getConstraintResolution(out: Array<ConstraintResolution | undefined>, order: ConstraintOrder): void;

  /** The solved λ of the whole problem (the constraint reads its rows). */
  storeLambda(_lambda: Float64Array): void {}

  /** Persistent ids of its groups of rows, for warm starts of the LCP solver. */
  getConstraintInfo(_out: ConstraintBlockInfo[]): void {}
}

export function isLagrangianConstraint(o: unknown): o is BaseLagrangianConstraint {
  return typeof o === 'object' && o !== null && (o as { isLagrangianConstraint?: unknown }).isLagrangianConstraint === true;
}
