import {
  CONTACT_NONE,
  CONTACT_SLIDING,
  CONTACT_STICKY,
  type ConstraintResolution,
  type PersistentContactConstraint,
  type PersistentContactState,
} from '@sofa-ts/core';
import { FrictionContactResolution, UnilateralResolution } from './resolutions.js';
import { UNILATERAL_CHECKPOINT_FIELDS, UnilateralLagrangianConstraint } from './UnilateralLagrangianConstraint.js';

/**
 * SOFA's PersistentUnilateralInteractionConstraint (plugin PersistentContact), the constraint of a
 * PersistentFrictionContact: UnilateralLagrangianConstraint's contacts (Signorini along n,
 * Coulomb's cone on t, s), with
 *   - a warm start: the Gauss-Seidel sweeps start from the force the response gives each contact
 *     (its force of the last step when the contact persists, else 0);
 *   - after the solve, each frictional contact's force and state: sliding when ‖λ_t‖ reached
 *     μ·λ_n > 0, sticking otherwise (an open contact, λ = 0, counts as sticking, as in SOFA);
 *   - the tangential free displacement measured over the whole motion from P, Q as soon as the
 *     gap at the contact is negligible (|δ| < 1e-5 of the motion; SOFA's persistent variant does
 *     not test the free gap too).
 * SOFA decides sliding by ‖λ_t‖ > μ·λ_n after projecting λ_t onto the cone, which rounding decides
 * for a force on the cone; here ‖λ_t‖ ≥ (1 − 1e-9)·μ·λ_n. Not a scene component (SOFA does not
 * register it either): the response creates it through core's factory.
 */
export class PersistentUnilateralInteractionConstraint extends UnilateralLagrangianConstraint implements PersistentContactConstraint {
  /** (3 per contact) initial force; force after the solve; (per contact) state after the solve. */
  private initForce = new Float64Array(24);
  private lastForce = new Float64Array(24);
  private contactStates = new Uint8Array(8);
  override readonly checkpointFields: readonly string[] = [...UNILATERAL_CHECKPOINT_FIELDS, 'initForce', 'lastForce', 'contactStates'];

  override clearContacts(reserve: number): void {
    super.clearContacts(reserve);
    this.ensurePersistent(reserve);
  }

  override addContact(...args: Parameters<UnilateralLagrangianConstraint['addContact']>): void {
    super.addContact(...args);
    const c = this.count - 1;
    this.ensurePersistent(this.count);
    this.initForce.fill(0, 3 * c, 3 * c + 3);
    this.lastForce.fill(0, 3 * c, 3 * c + 3);
    this.contactStates[c] = CONTACT_NONE;
  }

  setInitForce(c: number, fn: number, ft: number, fs: number): void {
    this.initForce[3 * c] = fn;
    this.initForce[3 * c + 1] = ft;
    this.initForce[3 * c + 2] = fs;
  }

  contactState(c: number): PersistentContactState {
    return c < this.count ? (this.contactStates[c] as PersistentContactState) : CONTACT_NONE;
  }

  contactForce(c: number, out: Float64Array, o: number): void {
    for (let k = 0; k < 3; k++) out[o + k] = c < this.count ? this.lastForce[3 * c + k] : 0;
  }

  protected override measuredFromContact(delta: number, _dfree: number, refDist: number): boolean {
    return Math.abs(delta) < 0.00001 * refDist;
  }

  override getConstraintResolution(out: Array<ConstraintResolution | undefined>): void {
    if (this.status.length < this.count) this.status = new Uint8Array(2 * this.count);
    this.status.fill(0, 0, this.count);
    this.contactStates.fill(CONTACT_NONE, 0, this.count);
    for (let c = 0; c < this.count; c++) {
      const mu = this.fric[c];
      out[this.row[c]] = mu > 0 ? new PersistentFrictionResolution(mu, this.customTolerance, this, c) : new UnilateralResolution();
    }
  }

  /** Called by the contact's resolution at the end of the solve. */
  storeContact(c: number, fn: number, ft: number, fs: number, mu: number): void {
    this.status[c] = fn > 0 ? 1 : 0;
    this.lastForce[3 * c] = fn;
    this.lastForce[3 * c + 1] = ft;
    this.lastForce[3 * c + 2] = fs;
    const normFt = Math.sqrt(ft * ft + fs * fs);
    this.contactStates[c] = fn > 0 && normFt >= (1 - 1e-9) * mu * fn ? CONTACT_SLIDING : CONTACT_STICKY;
  }

  /** The warm start of contact c into force[line..line+3). */
  initialForce(c: number, force: Float64Array, line: number): void {
    for (let k = 0; k < 3; k++) force[line + k] = this.initForce[3 * c + k];
  }

  private ensurePersistent(n: number): void {
    if (this.contactStates.length >= n) return;
    let cap = this.contactStates.length;
    while (cap < n) cap *= 2;
    const grow = <T extends Float64Array | Uint8Array>(a: T, size: number): T => {
      const b = new (a.constructor as new (k: number) => T)(size);
      b.set(a);
      return b;
    };
    this.initForce = grow(this.initForce, 3 * cap);
    this.lastForce = grow(this.lastForce, 3 * cap);
    this.contactStates = grow(this.contactStates, cap);
  }
}

/**
 * SOFA's PersistentUnilateralConstraintResolutionWithFriction: FrictionContactResolution's local
 * solve of a Gauss-Seidel sweep (rows n, t, s), started from the contact's initial force and storing
 * its force and state at the end.
 */
export class PersistentFrictionResolution extends FrictionContactResolution {
  constructor(
    mu: number,
    tolerance: number,
    private readonly owner: PersistentUnilateralInteractionConstraint,
    private readonly contact: number,
  ) {
    super(mu, tolerance);
  }
  // the solver gives the forces it starts from (ConstraintResolution.init)
  override init(line: number, W: Float64Array, n: number, force?: Float64Array): void {
    super.init(line, W, n);
    if (force) this.owner.initialForce(this.contact, force, line);
  }
  override store(line: number, force: Float64Array): void {
    this.owner.storeContact(this.contact, force[line], force[line + 1], force[line + 2], this.mu);
  }
}
