import { BaseForceField } from './force-field.js';
import type { MatrixAccumulator } from './matrix-accumulator.js';

/**
 * A compliance (the Compliant plugin's force fields with `isCompliance`): an elastic or hard
 * constraint on the dofs of its state, written as λ = −C⁻¹·(φ + d·φ̇) for a violation φ = x of its
 * (usually mapped) state. The Compliant solvers then keep λ as unknowns of the KKT system
 *   [H  −Jᵀ; J  C/(h²αβ)] [v; λ] = [P c; b]
 * where J are the rows of the full Jacobian of the state and C enters the constraint block.
 * C = 0 is a hard (kinematic) constraint.
 *
 * - Acting as a compliance (`actsAsCompliance`: isCompliance set and its state is mapped) the
 *   component contributes C through `addComplianceToMatrix`, no force and no K; its damping B
 *   (−d per dof) still enters H as usual, which gives h·α·d·JᵀJ on the masters.
 * - Otherwise (isCompliance false, or the state is a master, where no constraint row can be made)
 *   it is an ordinary force field with the stiffness K = −C⁻¹: f = K·x, df = K·dx.
 * The assembly engine tells the component whether its state is mapped when it compiles the scene.
 */
export abstract class BaseCompliance extends BaseForceField {
  static readonly isComplianceByDefault: boolean = true;
  readonly isComplianceForceField = true;
  private stateIsMapped: boolean | undefined;

  /** Called by the assembly engine: whether the component's state is the output of a mapping. */
  setStateIsMapped(mapped: boolean): void {
    this.stateIsMapped = mapped;
  }

  /**
   * True when the component gives C (constraint rows) rather than K: `isCompliance` is set and
   * the state is mapped (assumed mapped until an engine said otherwise).
   */
  get actsAsCompliance(): boolean {
    return this.isCompliance.value && this.stateIsMapped !== false;
  }

  /**
   * Emits cFactor·C in the local scalar index space of its state (same emission rule as
   * matrices: the same entries at every call, zeros included). C is symmetric positive
   * semi-definite; a hard constraint emits zeros.
   */
  abstract addComplianceToMatrix(acc: MatrixAccumulator, cFactor: number): void;
}

export function isCompliance(o: unknown): o is BaseCompliance {
  return typeof o === 'object' && o !== null && (o as { isComplianceForceField?: unknown }).isComplianceForceField === true;
}
