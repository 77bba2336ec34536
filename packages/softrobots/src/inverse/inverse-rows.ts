import type { BaseLagrangianConstraint } from '@sofa-ts/core';
import { setVariationWindow } from './variation-window.js';

/**
 * What the inverse solvers know of each row of the constraint problem δ = δ_free + W·λ
 * (the rows are the Lagrangian constraints of the scene, in the order the solver built them):
 *
 *   - actuator rows: λ is an unknown of the inverse problem, within [lambdaMin, lambdaMax], and
 *     the actuator's displacement δ within [deltaMin, deltaMax]; `epsilon` is the actuator's own
 *     weight of the deformation-energy term (NaN: the solver's);
 *   - effector rows: λ = 0; δ is the shift from the effector to its goal, to be brought to zero in
 *     the least-squares sense with the row's `weight`;
 *   - equality rows: λ is an unknown, and the row's δ must equal `target` (when `target` is NaN the
 *     row's λ is fixed instead, lambdaMin = lambdaMax);
 *   - contact rows: the contacts of the scene (a normal row, gap δ ≥ 0 and λ ≥ 0 complementary,
 *     then two tangent rows when the contact has friction μ), listed in `contacts`;
 *   - other rows (role NONE): not yet given a role.
 *
 * Every inverse component fills its own rows from its first row (constraintIndex) on; the arrays
 * are sized by the solver and reused from step to step.
 */
export const NONE = 0;
export const ACTUATOR = 1;
export const EFFECTOR = 2;
export const EQUALITY = 3;
/** A row of a contact (normal, then two tangents with friction), solved with the inverse problem. */
export const CONTACT = 4;

export class InverseRows {
  n = 0;
  role = new Uint8Array(0);
  lambdaMin = new Float64Array(0);
  lambdaMax = new Float64Array(0);
  deltaMin = new Float64Array(0);
  deltaMax = new Float64Array(0);
  target = new Float64Array(0);
  weight = new Float64Array(0);
  epsilon = new Float64Array(0);
  /** Contacts: first row, number of rows (1: frictionless, 3: with friction) and μ of each. */
  contactCount = 0;
  contactFirst = new Int32Array(0);
  contactLines = new Uint8Array(0);
  contactMu = new Float64Array(0);

  /** n rows, every row NONE with no bound, weight 1, target and epsilon NaN. */
  reset(n: number): void {
    if (this.role.length < n) {
      const cap = Math.max(n, 2 * this.role.length);
      this.role = new Uint8Array(cap);
      this.lambdaMin = new Float64Array(cap);
      this.lambdaMax = new Float64Array(cap);
      this.deltaMin = new Float64Array(cap);
      this.deltaMax = new Float64Array(cap);
      this.target = new Float64Array(cap);
      this.weight = new Float64Array(cap);
      this.epsilon = new Float64Array(cap);
    }
    this.n = n;
    this.role.fill(NONE, 0, n);
    this.lambdaMin.fill(-Infinity, 0, n);
    this.lambdaMax.fill(Infinity, 0, n);
    this.deltaMin.fill(-Infinity, 0, n);
    this.deltaMax.fill(Infinity, 0, n);
    this.target.fill(NaN, 0, n);
    this.weight.fill(1, 0, n);
    this.epsilon.fill(NaN, 0, n);
    this.contactCount = 0;
  }

  /** Rows first .. first + lines − 1 are a contact (normal first) of friction μ. */
  addContact(first: number, lines: 1 | 3, mu: number): void {
    const k = this.contactCount++;
    if (this.contactFirst.length <= k) {
      const cap = Math.max(8, 2 * k);
      const f = new Int32Array(cap),
        l = new Uint8Array(cap),
        m = new Float64Array(cap);
      f.set(this.contactFirst);
      l.set(this.contactLines);
      m.set(this.contactMu);
      [this.contactFirst, this.contactLines, this.contactMu] = [f, l, m];
    }
    this.contactFirst[k] = first;
    this.contactLines[k] = lines;
    this.contactMu[k] = mu;
    for (let r = 0; r < lines; r++) this.role[first + r] = CONTACT;
  }

  /** Row i is an actuator, unbounded until boundForce/boundDisplacement; epsilon its own energy weight (NaN: the solver's). */
  setActuator(i: number, epsilon = NaN): void {
    this.role[i] = ACTUATOR;
    this.lambdaMin[i] = -Infinity;
    this.lambdaMax[i] = Infinity;
    this.deltaMin[i] = -Infinity;
    this.deltaMax[i] = Infinity;
    this.epsilon[i] = epsilon;
  }

  /** λ of row i in [min, max], and within maxVariation of `last` (its λ of the previous step; see variation-window.ts). */
  boundForce(i: number, min: number, max: number, last = 0, maxVariation = Infinity): void {
    setVariationWindow(this.lambdaMin, this.lambdaMax, i, min, max, last, maxVariation);
  }

  /** δ of row i in [min, max], and within maxVariation of `last` (its δ of the previous step). */
  boundDisplacement(i: number, min: number, max: number, last = 0, maxVariation = Infinity): void {
    setVariationWindow(this.deltaMin, this.deltaMax, i, min, max, last, maxVariation);
  }

  /** Row i is an effector of the given weight (objective ½·weight·δ²). */
  setEffector(i: number, weight = 1): void {
    this.role[i] = EFFECTOR;
    this.weight[i] = weight;
  }

  /** Row i is an equality on its displacement: δ = target, λ free. */
  setEqualityOnDisplacement(i: number, target: number): void {
    this.role[i] = EQUALITY;
    this.target[i] = target;
  }

  /** Row i is an equality on its force: λ = value. */
  setEqualityOnForce(i: number, value: number): void {
    this.role[i] = EQUALITY;
    this.target[i] = NaN;
    this.lambdaMin[i] = value;
    this.lambdaMax[i] = value;
  }
}

/** The Data value when the user set it, else `fallback` (SoftRobots' optional bounds). */
export function optional(data: { readonly isSet: boolean; readonly value: number }, fallback: number): number {
  return data.isSet ? data.value : fallback;
}

export type InverseRole = 'actuator' | 'effector' | 'equality';

/**
 * A Lagrangian constraint that takes part in an inverse problem (SoftRobots' actuators, effectors
 * and equalities). Its getConstraintViolation gives δ_free on its rows (the actuator's displacement
 * or the effector's shift to its goal at the free positions).
 */
export interface InverseConstraint extends BaseLagrangianConstraint {
  readonly inverseRole: InverseRole;
  /** Fills its rows of `rows` (role, bounds, weights, targets) for this step. */
  getInverseRows(rows: InverseRows, dt: number): void;
  /** The solution of the step: λ and δ = δ_free + W·λ of every row (the constraint reads its own). */
  storeResults(lambda: Float64Array, delta: Float64Array, dt: number): void;
}

export function isInverseConstraint(o: unknown): o is InverseConstraint {
  return typeof o === 'object' && o !== null && typeof (o as { inverseRole?: unknown }).inverseRole === 'string';
}
