import { BaseObject } from '../base-object.js';
import { Bool, Real } from '../data-types.js';
import type { BaseMechanicalState } from './mechanical-state.js';
import type { MatrixAccumulator } from './matrix-accumulator.js';

/**
 * A force field (SOFA BaseForceField / BaseInteractionForceField): f(x, v) on one state, or on two
 * for an interaction force field. Vectors are passed per state in the order of
 * `getMechanicalStates()`, each laid out as that state's derivatives.
 * Sign convention as in SOFA: K = ∂f/∂x and B = ∂f/∂v (negative semi-definite for elastic and
 * damping forces).
 */
export abstract class BaseForceField extends BaseObject {
  readonly isForceField = true;

  readonly rayleighStiffness = this.initData({ name: 'rayleighStiffness', type: Real, default: 0, help: 'Rayleigh damping proportional to this force field\'s stiffness (B = rayleighStiffness·K)' });
  /**
   * Compliant formulation: the force field gives its compliance C in constraint space instead of
   * its stiffness K (see BaseCompliance). The default is false, true for classes whose static
   * `isComplianceByDefault` says so (UniformCompliance, ...).
   */
  readonly isCompliance = this.initData({ name: 'isCompliance', type: Bool, default: (this.constructor as { isComplianceByDefault?: boolean }).isComplianceByDefault ?? false, help: 'consider the component as a compliance (its C enters the constraint rows of the Compliant solvers), else as a stiffness' });

  /** The stiffness factor including this force field's Rayleigh damping: k + b·rayleighStiffness. */
  kFactorWithRayleigh(kFactor: number, bFactor: number): number {
    return kFactor + bFactor * this.rayleighStiffness.value;
  }

  /** One state, or two for an interaction force field. Valid after init. */
  abstract getMechanicalStates(): readonly BaseMechanicalState[];

  /** f += F(x, v). */
  abstract addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void;

  /** df += kFactor·K·dx + bFactor·B·dx, with K and B taken at the last addForce. */
  abstract addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void;

  /** Emits kFactor·K (see MatrixAccumulator for the index space and the emission rule). */
  abstract addKToMatrix(acc: MatrixAccumulator, kFactor: number): void;

  /** Emits bFactor·B, B without the Rayleigh term; force fields without damping emit nothing. */
  addBToMatrix(_acc: MatrixAccumulator, _bFactor: number): void {}

  /**
   * Emits kFactor·K + bFactor·(B + rayleighStiffness·K), as the assembly engine asks for it: K
   * with SOFA's factor including Rayleigh damping, then B. The sequence of entries is the same at
   * every call, whatever the factors.
   */
  addKBToMatrix(acc: MatrixAccumulator, kFactor: number, bFactor: number): void {
    this.addKToMatrix(acc, this.kFactorWithRayleigh(kFactor, bFactor));
    this.addBToMatrix(acc, bFactor);
  }

  getPotentialEnergy(_x: readonly Float64Array[]): number {
    return 0;
  }
}

export function isForceField(o: unknown): o is BaseForceField {
  return typeof o === 'object' && o !== null && (o as { isForceField?: unknown }).isForceField === true;
}
