import type { Data, DataSpec } from '../data.js';
import { Str } from '../data-types.js';
import type { LagrangianContactConstraint } from './contact-constraint.js';
import type { BaseMechanicalState } from './mechanical-state.js';

/**
 * SOFA's PersistentContactMapping (plugin PersistentContact): a mapping whose output state holds
 * the contact points of a persistent friction contact, each attached to the material of the
 * input body (barycentric coordinates in its element, local coordinates in its frame). The
 * response (PersistentFrictionContact, in the collision package) finds it by `nameOfInputMap`, the
 * name of the mapping that places the collision model it serves, and during a step:
 *   beginAddContactPoint()        once per step (later calls do nothing until AnimateEndEvent):
 *                                 the points of the last step are kept aside, the output emptied;
 *   addContactPointFromInputMapping(p)   a new point at world position p, attached to the
 *                                 material there; returns its index in the output;
 *   keepContactPointFromInputMapping(i)  point i of the last step again, at the same material
 *                                 point; returns its new index;
 *   applyPositionAndFreePosition()       x, xFree, v, vFree of the output from its input
 *                                 (call after adding points, before reading their positions).
 * At AnimateEndEvent the mapping stores its points for the next step.
 */
export interface PersistentContactMapping {
  readonly isPersistentContactMapping: true;
  readonly nameOfInputMap: Data<string>;
  getTo(): BaseMechanicalState | undefined;
  beginAddContactPoint(): void;
  addContactPointFromInputMapping(px: number, py: number, pz: number): number;
  keepContactPointFromInputMapping(index: number): number;
  applyPositionAndFreePosition(): void;
}

/** The Data both persistent contact mappings declare (SOFA's PersistentContactMapping base). */
export const NAME_OF_INPUT_MAP: DataSpec<string> = {
  name: 'nameOfInputMap',
  type: Str,
  default: '',
  help: 'if contactDuplicate == true, it provides the name of the input mapping',
};

export function isPersistentContactMapping(o: unknown): o is PersistentContactMapping {
  return typeof o === 'object' && o !== null && (o as { isPersistentContactMapping?: unknown }).isPersistentContactMapping === true;
}

/** State of a frictional contact after the constraint solve (SOFA's ContactState). */
export type PersistentContactState = 0 | 1 | 2;
/** No state (no solve yet, or a frictionless contact). */
export const CONTACT_NONE = 0;
/** λ_t on Coulomb's cone, ‖λ_t‖ = μ·λ_n > 0. */
export const CONTACT_SLIDING = 1;
/** λ_t inside the cone (an open contact, λ = 0, counts as sticking, as in SOFA). */
export const CONTACT_STICKY = 2;

/**
 * SOFA's PersistentUnilateralInteractionConstraint: the contact constraint of a persistent friction
 * contact. As the unilateral contact constraint, plus, per contact c (in the order of addContact):
 * an initial force (λ_n, λ_t, λ_s) the Gauss-Seidel sweeps start from (the contact's force of the
 * last step when it persists), and after the solve its state (sticking, sliding) and force.
 */
export interface PersistentContactConstraint extends LagrangianContactConstraint {
  /** λ the solve starts from for contact c (call after its addContact). */
  setInitForce(c: number, fn: number, ft: number, fs: number): void;
  /** State of contact c after the last solve. */
  contactState(c: number): PersistentContactState;
  /** out[o..o+3) = (λ_n, λ_t, λ_s) of contact c after the last solve. */
  contactForce(c: number, out: Float64Array, o: number): void;
}

export type PersistentContactConstraintFactory = (state1: BaseMechanicalState, state2: BaseMechanicalState) => PersistentContactConstraint;

let persistentContactConstraintFactory: PersistentContactConstraintFactory | undefined;

/** Registers the maker of persistent contact constraints (the constraint package does it when loaded). */
export function setPersistentContactConstraintFactory(factory: PersistentContactConstraintFactory): void {
  persistentContactConstraintFactory = factory;
}

/** The registered maker of persistent contact constraints, or undefined when no constraint package is loaded. */
export function getPersistentContactConstraintFactory(): PersistentContactConstraintFactory | undefined {
  return persistentContactConstraintFactory;
}
