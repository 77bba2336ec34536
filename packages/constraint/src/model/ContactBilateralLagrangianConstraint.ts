import {
  contactPointPosition,
  copyContactSlot,
  type BaseMechanicalState,
  type BilateralContactConstraint,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
  type ConstraintResolution,
  type ContactPointSet,
  CONTACT_SLOT,
} from '@sofa-ts/core';
import { PairLagrangianConstraint } from './pair-constraint.js';
import { Bilateral3Resolution } from './resolutions.js';

/**
 * The BilateralLagrangianConstraint a sticking contact response creates (SOFA's
 * StickContactConstraint feeds its addContact): contact c glues point P1_c of object1 to point
 * P2_c of object2 at the offset rest_c = P2_c − P1_c they had when the contact was detected.
 * A point is a fixed combination of points of a Vec3 state, P = Σ_k w_k·x_{i_k} (a contact point
 * attached to an element, see ContactPointSet), so the rows are those of BilateralLagrangianConstraint
 * taken through the weights:
 *   δ_c = P2_c(x_free) − P1_c(x_free) − rest_c         (3 rows, axes x, y, z)
 *   J rows k = x, y, z: −w_k·e on the points of P1, +w_k·e on the points of P2
 * Each contact is solved as one 3×3 block (λ −= W_b⁻¹·δ), started from the λ of the contact of the
 * same number at the previous step (SOFA keeps one warm start per slot, not per contact).
 * With the velocity order, δ = v2 − v1 + (P2 − P1 + rest)/dt, SOFA's sign of rest there (as in
 * BilateralLagrangianConstraint).
 *
 * sofa-ts holds the contact points directly instead of SOFA's mapped contact states, so this is a
 * class of its own, shown under SOFA's class name; the contacts come only from code.
 */
export class ContactBilateralLagrangianConstraint extends PairLagrangianConstraint implements BilateralContactConstraint {
  private count = 0;
  private side1 = { n: new Int8Array(8), idx: new Uint32Array(8 * CONTACT_SLOT), w: new Float64Array(8 * CONTACT_SLOT) };
  private side2 = { n: new Int8Array(8), idx: new Uint32Array(8 * CONTACT_SLOT), w: new Float64Array(8 * CONTACT_SLOT) };
  /** (3 per contact) the offset P2 − P1 to keep. */
  private rest = new Float64Array(24);
  /** First row of each contact. */
  private row = new Int32Array(8);
  /** λ of each contact slot at the end of the previous solve (3 per slot), the next warm start. */
  private prevForces = new Float64Array(0);
  private prevCount = 0;
  /** Checkpoint: the contacts and the warm start. */
  readonly checkpointFields = ['count', 'side1', 'side2', 'rest', 'row', 'prevForces', 'prevCount'] as const;
  private readonly e = new Float64Array(3);
  private readonly p = new Float64Array(6);

  /** SOFA's class of this object (BilateralLagrangianConstraint<Vec3d>). */
  override get className(): string {
    return 'BilateralLagrangianConstraint';
  }

  /** Number of contacts of the step. */
  get contactCount(): number {
    return this.count;
  }

  clearContacts(reserve: number): void {
    this.count = 0;
    this.grow(reserve);
  }

  addContact(side1: ContactPointSet, slot1: number, side2: ContactPointSet, slot2: number, rx: number, ry: number, rz: number): void {
    const c = this.count;
    if (side1.n[slot1] < 1 || side2.n[slot2] < 1)
      throw this.error('contact points of Vec3 states are needed (a point in a rigid frame cannot be glued by this constraint)');
    this.count++;
    this.grow(this.count);
    copyContactSlot(this.side1, c, side1, slot1);
    copyContactSlot(this.side2, c, side2, slot2);
    this.rest[3 * c] = rx;
    this.rest[3 * c + 1] = ry;
    this.rest[3 * c + 2] = rz;
  }

  override reset(): void {
    this.prevForces.fill(0);
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const s1 = this.state1,
      s2 = this.state2;
    const e = this.e;
    for (let c = 0; c < this.count; c++) {
      const r = firstRow + 3 * c;
      this.row[c] = r;
      for (let k = 0; k < 3; k++) {
        this.addPoint(J, s1, this.side1, c, r + k, k, -1, e);
        this.addPoint(J, s2, this.side2, c, r + k, k, 1, e);
      }
    }
    return 3 * this.count;
  }

  /** Row `row` (axis k) on the points of contact c of one side: sign·w_j·e_k on point i_j. */
  private addPoint(
    J: ConstraintJacobianBuilder,
    state: BaseMechanicalState,
    side: ContactPointSet,
    c: number,
    row: number,
    k: number,
    sign: number,
    e: Float64Array,
  ): void {
    const b = CONTACT_SLOT * c;
    for (let j = 0; j < side.n[c]; j++) {
      e.fill(0);
      e[k] = side.w[b + j];
      J.add(state, row, side.idx[b + j], e, sign);
    }
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder, dt: number): void {
    const p = this.p;
    if (order === 'vel') {
      for (let c = 0; c < this.count; c++) {
        contactPointPosition(p, 0, this.state2.x, this.side2, c);
        contactPointPosition(p, 3, this.state1.x, this.side1, c);
        const d0 = p[0] - p[3],
          d1 = p[1] - p[4],
          d2 = p[2] - p[5];
        contactPointPosition(p, 0, this.state2.vFree, this.side2, c);
        contactPointPosition(p, 3, this.state1.vFree, this.side1, c);
        const r = this.row[c],
          o = 3 * c;
        out[r] = p[0] - p[3] + (d0 + this.rest[o]) / dt;
        out[r + 1] = p[1] - p[4] + (d1 + this.rest[o + 1]) / dt;
        out[r + 2] = p[2] - p[5] + (d2 + this.rest[o + 2]) / dt;
      }
      return;
    }
    for (let c = 0; c < this.count; c++) {
      contactPointPosition(p, 0, this.state2.xFree, this.side2, c);
      contactPointPosition(p, 3, this.state1.xFree, this.side1, c);
      const r = this.row[c],
        o = 3 * c;
      out[r] = p[0] - p[3] - this.rest[o];
      out[r + 1] = p[1] - p[4] - this.rest[o + 1];
      out[r + 2] = p[2] - p[5] - this.rest[o + 2];
    }
  }

  getConstraintResolution(out: Array<ConstraintResolution | undefined>): void {
    const n = this.count;
    // SOFA resizes its warm starts to the contact count: slots dropped now start from 0 when they return
    if (n < this.prevCount) this.prevForces.fill(0, 3 * n, 3 * this.prevCount);
    this.prevCount = n;
    if (this.prevForces.length < 3 * n) {
      const prev = new Float64Array(3 * Math.max(n, 2 * (this.prevForces.length / 3)));
      prev.set(this.prevForces);
      this.prevForces = prev;
    }
    for (let c = 0; c < n; c++) out[this.row[c]] = new Bilateral3Resolution(this.prevForces, 3 * c);
  }

  private grow(n: number): void {
    if (this.rest.length >= 3 * n) return;
    let cap = this.rest.length / 3;
    while (cap < n) cap *= 2;
    for (const side of [this.side1, this.side2]) {
      side.n = grown(side.n, cap);
      side.idx = grown(side.idx, CONTACT_SLOT * cap);
      side.w = grown(side.w, CONTACT_SLOT * cap);
    }
    this.rest = grown(this.rest, 3 * cap);
    this.row = grown(this.row, cap);
  }
}

function grown<T extends Float64Array | Int32Array | Uint32Array | Int8Array>(a: T, size: number): T {
  const b = new (a.constructor as new (k: number) => T)(size);
  b.set(a);
  return b;
}
