import {
  getLagrangianContactConstraintFactory,
  type BaseObject,
  type CheckpointReader,
  type CheckpointRecord,
  type LagrangianContactConstraint,
} from '@sofa-ts/core';
import type { DetectionOutputs } from '../detection/detection-outputs.js';
import type { IntersectionMethod } from '../detection/intersection-method.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import { ContactSide } from './contact-points.js';
import { LagrangianContactResponse } from './lagrangian-contact-response.js';

/** Parameters of a response string "Name?mu=0.1&tol=1e-6" (name → number). */
export function responseParameters(response: string): Map<string, number> {
  const out = new Map<string, number>();
  const q = response.indexOf('?');
  if (q < 0) return out;
  for (const kv of response.slice(q + 1).split('&')) {
    const [k, v] = kv.split('=');
    if (k && v !== undefined && v.trim() !== '' && Number.isFinite(Number(v))) out.set(k.trim(), Number(v));
  }
  return out;
}

/** Bijection N×N → N, (x, y) ↦ ((x + y)² + 3x + y)/2 (Cantor's pairing, as SOFA names contacts). */
export function cantorPairing(x: number, y: number): number {
  return ((x + y) * (x + y) + 3 * x + y) / 2;
}

let nextContactId = 0;

/**
 * SOFA's FrictionContact (response FrictionContactConstraint, old name FrictionContact): the
 * detection outputs of a pair of models become the contacts of one Lagrangian contact constraint
 * (UnilateralLagrangianConstraint, made by the constraint package through core's factory), solved
 * by the FreeMotionAnimationLoop's constraint solver:
 *   - outputs whose two points are both within 1e-4 of an output already kept are dropped
 *     (Σ|Δp|² < 1e-8, SOFA's duplicate test);
 *   - each contact joins its point on model 1 and its point on model 2 (attached to the elements,
 *     see contact-points.ts) with the output's normal, rest distance d = contactDistance(method) +
 *     contactDistance of both models + radii, friction mu and id cantor(output id, contact id);
 *   - models with a zero contactStiffness disable the response (SOFA's rule).
 * Parameters: mu (default 0.8) and tol (0: the solver's tolerance) from responseParams.
 */
export class FrictionContact extends LagrangianContactResponse<LagrangianContactConstraint> {
  readonly sides: [ContactSide, ContactSide] = [new ContactSide(), new ContactSide()];
  readonly mu: number;
  readonly tol: number;
  /** This contact's number, combined with the outputs' ids into persistent contact ids. */
  id = nextContactId++;
  private kept = new Int32Array(16);

  constructor(
    model1: CollisionModel,
    model2: CollisionModel,
    protected readonly method: IntersectionMethod,
    owner: BaseObject,
    response: string,
  ) {
    super(model1, model2, owner);
    const p = responseParameters(response);
    this.mu = p.get('mu') ?? 0.8;
    this.tol = p.get('tol') ?? 0;
    if (this.mu < 0) throw owner.error(`friction coefficient mu must be ≥ 0 (got ${this.mu})`);
  }

  setDetectionOutputs(out: DetectionOutputs): void {
    const m1 = this.model1,
      m2 = this.model2;
    const c = this.ensureConstraint();
    if (m1.contactStiffness.value === 0 || m2.contactStiffness.value === 0) {
      c.clearContacts(0);
      return;
    }
    // Duplicates: both points within the tolerance of a kept output.
    if (this.kept.length < out.count) this.kept = new Int32Array(2 * out.count);
    let size = 0;
    const p0 = out.point0,
      p1 = out.point1;
    for (let i = 0; i < out.count; i++) {
      let found = false;
      for (let k = 0; k < size && !found; k++) {
        const j = this.kept[k];
        let d2 = 0;
        for (let a = 0; a < 3; a++) {
          const u = p0[3 * i + a] - p0[3 * j + a],
            v = p1[3 * i + a] - p1[3 * j + a];
          d2 += u * u + v * v;
        }
        // SOFA compares with 1e-8 stored in single precision
        if (d2 < Math.fround(0.00000001)) found = true;
      }
      if (!found) this.kept[size++] = i;
    }
    this.sides[0].ensure(size);
    this.sides[1].ensure(size);
    c.clearContacts(size);
    const d0 = this.method.getContactDistance() + m1.getProximity() + m2.getProximity();
    for (let k = 0; k < size; k++) {
      const i = this.kept[k];
      const r1 = this.sides[0].attach(k, m1, out.elem1[i], p0, 3 * i);
      const r2 = this.sides[1].attach(k, m2, out.elem2[i], p1, 3 * i);
      const id = out.id[i];
      c.addContact(
        this.sides[0],
        k,
        this.sides[1],
        k,
        out.normal[3 * i],
        out.normal[3 * i + 1],
        out.normal[3 * i + 2],
        d0 + r1 + r2,
        this.mu,
        cantorPairing(id, this.id),
        id,
      );
    }
  }

  /** Checkpoint: the contact's number too (its contacts' persistent ids). */
  override checkpointState(): CheckpointRecord {
    return { ...super.checkpointState(), id: this.id };
  }

  override restoreState(saved: CheckpointReader): void {
    super.restoreState(saved);
    this.id = saved.number('id');
    nextContactId = Math.max(nextContactId, this.id + 1);
  }

  protected get responseName(): string {
    return 'FrictionContactConstraint';
  }

  protected factory(): ReturnType<typeof getLagrangianContactConstraintFactory> {
    return getLagrangianContactConstraintFactory();
  }

  protected override ensureConstraint(): LagrangianContactConstraint {
    const fresh = this.constraint === undefined;
    const c = super.ensureConstraint();
    if (fresh) c.setCustomTolerance(this.tol);
    return c;
  }
}
