import { BaseObject } from '../base-object.js';
import { Bool } from '../data-types.js';
import type { BaseMechanicalState } from './mechanical-state.js';
import type { MatrixAccumulator } from './matrix-accumulator.js';

/** A sparse matrix in CSR form (structurally the same as linalg's CsrMatrix). */
export interface SparseMatrixLike {
  readonly rows: number;
  readonly cols: number;
  /** (rows + 1) */
  readonly rowPtr: Int32Array;
  /** (nnz) column indices, sorted within a row */
  readonly colInd: Int32Array;
  /** (nnz) */
  readonly values: Float64Array;
}

/**
 * A mapping (SOFA BaseMapping): the output state is a function of the input state(s),
 * x_out = φ(x_in), with Jacobian blocks J_i = ∂φ/∂x_in_i. Velocities go down (v_out = Σ J_i·v_in_i),
 * forces go up (f_in_i += J_iᵀ·f_out). A non-linear mapping also has a geometric stiffness
 * K_geo = ∂(Jᵀ·f_out)/∂x_in that acts on its inputs.
 * Vectors are laid out as the states' coordinates (apply) or derivatives (the rest): point i,
 * component j at i·d + j (d = coordSize or derivSize); `ins[i]` is input i's array, getFrom() order.
 *
 * **When each method is called**:
 * - after every solve (and at init): `apply()` then `applyJ(v_out, [v_in…])`: the output follows;
 * - at every force evaluation: `applyJT([f_in…], f_out)`, children before parents, so forces on
 *   the output (its masses' gravity, its force fields) act on the inputs;
 * - at every product of a matrix-free solver: `applyJ` carries dx down, `applyJT` df up, and,
 *   for a non-linear mapping, `applyDJT` adds the geometric stiffness (with the solver's kFactor);
 * - assembled solvers read `getJ(i)` (refreshed by apply for a non-linear mapping, its pattern
 *   fixed) and call `addGeometricStiffness`, forming Jᵀ·H·J with H the output's M, B and K.
 * A linear mapping (isLinear) builds J once at init and leaves applyDJT and
 * addGeometricStiffness as they are (no geometric stiffness).
 */
export abstract class BaseMapping extends BaseObject {
  readonly isMapping = true;
  /**
   * SOFA's isMechanical. false (a mapping used only to place its output, as visual mappings are)
   * is what a mapping to a visual model does anyway; for a mapping to a mechanical state sofa-ts
   * keeps it mechanical and says so (see MechanicalSystem).
   */
  readonly isMechanical = this.initData({
    name: 'isMechanical',
    type: Bool,
    default: true,
    help: 'false: a regular mapping, not a mechanical one (no forces or velocities through it); honoured for visual outputs, which are never mechanical',
  });

  /** Input states: one, or several for a multi-mapping. Valid after init. */
  abstract getFrom(): readonly BaseMechanicalState[];
  /** The output state, or undefined when the output is not mechanical (a visual model). */
  abstract getTo(): BaseMechanicalState | undefined;

  /** Computes the output positions from the inputs' current positions (x_out = φ(x_in)). */
  abstract apply(): void;
  /** out = Σ_i J_i·in_i, overwriting out (the output's derivative layout). */
  abstract applyJ(out: Float64Array, ins: readonly Float64Array[]): void;
  /** ins_i += J_iᵀ·out: accumulate into the inputs, never overwrite them. */
  abstract applyJT(ins: readonly Float64Array[], out: Float64Array): void;
  /** J_i at the last apply, in CSR: rows are the output's scalar dofs, columns input i's (constant for linear mappings; same pattern at every call). */
  abstract getJ(input: number): SparseMatrixLike;
  /** True when J does not depend on the positions (no geometric stiffness). */
  abstract get isLinear(): boolean;

  /**
   * The output's velocity when the output is a non-mechanical state (MappedObject): v_out = J·v_in,
   * after apply at the end of a step (SOFA's UpdateMappingVisitor applies J to the velocities).
   * Mechanical outputs get theirs from the solver, visual models have none: nothing to do.
   */
  applyVelocity(): void {}

  /** dfIn_i += kFactor·K_geo·dxIn, with K_geo taken for the child force `childForce`. */
  applyDJT(_dfIns: readonly Float64Array[], _dxIns: readonly Float64Array[], _childForce: Float64Array, _kFactor: number): void {}
  /** Emits kFactor·K_geo in the concatenated index space of the inputs (MatrixAccumulator rule). */
  addGeometricStiffness(_acc: MatrixAccumulator, _childForce: Float64Array, _kFactor: number): void {}
}

export function isBaseMapping(o: unknown): o is BaseMapping {
  return (
    typeof o === 'object' &&
    o !== null &&
    (o as { isMapping?: unknown }).isMapping === true &&
    typeof (o as BaseMapping).apply === 'function'
  );
}
