import type { BaseLagrangianConstraint } from './lagrangian-constraint.js';
import type { BaseMechanicalState } from './mechanical-state.js';

/**
 * Width of a contact slot: the most points a contact point combines (8, the corners of a hexahedron
 * for a point of a deformed distance grid's cube; segments use 2, triangles 3, quads 4).
 */
export const CONTACT_SLOT = 8;

/**
 * Contact points on one side of a pair of collision models, slot by slot (structure of arrays, as
 * the collision package's ContactSide holds them), with S = CONTACT_SLOT: slot c is
 *   n[c] ≥ 1:  x = Σ_{k<n[c]} w[S·c+k]·x_{idx[S·c+k]}   (a fixed combination of points of a Vec3 state)
 *   n[c] = −1: x = x_f + R_f·l                           (a point fixed in Rigid3 frame f = idx[S·c],
 *                                                         local offset l = w[S·c .. S·c+3))
 */
export interface ContactPointSet {
  readonly n: Int8Array;
  readonly idx: Uint32Array;
  readonly w: Float64Array;
}

/**
 * The Lagrangian constraint of a frictional contact response (SOFA's UnilateralLagrangianConstraint
 * as FrictionContact feeds it): contacts between points of state1 (side 1) and state2 (side 2).
 * For each contact: normal n from side 1 towards side 2, rest distance d0 (contact distances and
 * radii), friction μ (0: one unilateral row; > 0: three rows n, t, s and Coulomb's law), SOFA's
 * ids (id: persistent identifier of the contact, localId: the detection output's id).
 * The positions P (side 2) and Q (side 1) are taken when the contact is added, the free positions
 * at the constraint solve (from the states' xFree).
 */
export interface LagrangianContactConstraint extends BaseLagrangianConstraint {
  /** Drops the contacts of the previous step and makes room for `reserve` contacts. */
  clearContacts(reserve: number): void;
  /** Adds a contact whose points are slot1 of side1 (on state1) and slot2 of side2 (on state2). */
  addContact(
    side1: ContactPointSet,
    slot1: number,
    side2: ContactPointSet,
    slot2: number,
    nx: number,
    ny: number,
    nz: number,
    distance: number,
    mu: number,
    id: number,
    localId: number,
  ): void;
  /** Tolerance of the contact rows in the Gauss-Seidel solvers (0: the solver's). */
  setCustomTolerance(tolerance: number): void;
  /** Frictional contacts follow SOFA's augmented-Lagrangian law of penalty ε (AugmentedLagrangianConstraint). */
  setAugmentedLagrangian(epsilon: number): void;
}

/** Creates the contact constraint between two states (the caller puts it in the graph). */
export type LagrangianContactConstraintFactory = (state1: BaseMechanicalState, state2: BaseMechanicalState) => LagrangianContactConstraint;

let contactConstraintFactory: LagrangianContactConstraintFactory | undefined;

/**
 * Registers the maker of contact constraints (the constraint package does it when loaded), so that
 * collision responses such as FrictionContactConstraint can create them without depending on it.
 */
export function setLagrangianContactConstraintFactory(factory: LagrangianContactConstraintFactory): void {
  contactConstraintFactory = factory;
}

/** The registered maker of contact constraints, or undefined when no constraint package is loaded. */
export function getLagrangianContactConstraintFactory(): LagrangianContactConstraintFactory | undefined {
  return contactConstraintFactory;
}

/**
 * The Lagrangian constraint of a sticking contact response (SOFA's BilateralLagrangianConstraint
 * as StickContactConstraint feeds it): each contact glues a point of state1 (side 1) to a point of
 * state2 (side 2) at the offset rest = P2 − P1 they had when the contact was detected:
 *   δ = P2_free − P1_free − rest   (three rows, along the axes x, y, z, solved as one block)
 * Points are ContactPointSet slots of Vec3 states (combinations of points, n ≥ 1).
 */
export interface BilateralContactConstraint extends BaseLagrangianConstraint {
  /** Drops the contacts of the previous step and makes room for `reserve` contacts. */
  clearContacts(reserve: number): void;
  /** Glues slot1 of side1 (on state1) to slot2 of side2 (on state2) with the offset (rx, ry, rz) = P2 − P1. */
  addContact(side1: ContactPointSet, slot1: number, side2: ContactPointSet, slot2: number, rx: number, ry: number, rz: number): void;
}

/** Creates the sticking contact constraint between two states (the caller puts it in the graph). */
export type BilateralContactConstraintFactory = (state1: BaseMechanicalState, state2: BaseMechanicalState) => BilateralContactConstraint;

let bilateralContactConstraintFactory: BilateralContactConstraintFactory | undefined;

/** Registers the maker of sticking contact constraints (the constraint package does it when loaded). */
export function setBilateralContactConstraintFactory(factory: BilateralContactConstraintFactory): void {
  bilateralContactConstraintFactory = factory;
}

/** The registered maker of sticking contact constraints, or undefined when no constraint package is loaded. */
export function getBilateralContactConstraintFactory(): BilateralContactConstraintFactory | undefined {
  return bilateralContactConstraintFactory;
}
