import {
  contactPointPosition,
  getBilateralContactConstraintFactory,
  type BaseObject,
  type BilateralContactConstraint,
} from '@sofa-ts/core';
import type { DetectionOutputs } from '../detection/detection-outputs.js';
import type { CollisionModel, ElementKind } from '../model/CollisionModel.js';
import { ContactSide } from './contact-points.js';
import { LagrangianContactResponse } from './lagrangian-contact-response.js';

/** Element kinds SOFA's StickContactConstraint is registered for (Vec3 models only). */
const STICK_KINDS: readonly ElementKind[] = ['point', 'line', 'triangle', 'sphere'];

/** SOFA's duplicate test: Σ|Δp|² below 1e-8, a constant stored in single precision. */
const DUPLICATE_DIST2 = Math.fround(0.00000001);

/**
 * SOFA's StickContactConstraint (response StickContactConstraint): the models stick where they
 * touch. The detection outputs of a pair become the contacts of one bilateral Lagrangian
 * constraint (BilateralLagrangianConstraint, made by the constraint package through core's
 * factory) solved by the FreeMotionAnimationLoop's constraint solver:
 *   - an output whose two points are both within 1e-4 of those of an earlier output (Σ|Δp|² < 1e-8,
 *     compared with every earlier output, kept or not) is dropped;
 *   - each contact glues its point on model 1 (P1) to its point on model 2 (P2), both attached to
 *     their elements (contact-points.ts), at the offset they have now: rest = P2 − P1, so
 *       δ = P2_free − P1_free − rest   (3 rows, axes x, y, z)
 *     and the correction brings the relative position of the points back to the one of the start
 *     of the step: no penetration, no sliding, no separation while the outputs last. The normal,
 *     the contact distance and friction play no part.
 * The contacts are built again from the outputs at every step. rest is taken from the attached
 * points at the positions of the detection, which are SOFA's detection points (for a Vec3 sphere,
 * its centre, as SOFA reports it).
 * Parameter (responseParams): keepAlive (default 1) — as SOFA, the contact manager keeps a
 * contact whose models have no more outputs, with its last contacts (the glue holds after the
 * models separate); keepAlive=0 ends it then.
 */
export class StickContact extends LagrangianContactResponse<BilateralContactConstraint> {
  readonly sides: [ContactSide, ContactSide] = [new ContactSide(), new ContactSide()];
  /** SOFA's keepAlive Data (see above). */
  private readonly keepAliveFlag: boolean;
  private kept = new Int32Array(16);
  private readonly p = new Float64Array(6);

  constructor(model1: CollisionModel, model2: CollisionModel, owner: BaseObject, response: string) {
    super(model1, model2, owner);
    this.keepAliveFlag = keepAliveParameter(response, owner);
    for (const m of [model1, model2]) {
      if (!STICK_KINDS.includes(m.kind)) {
        throw owner.error(
          `contact between ${model1.describe()} and ${model2.describe()}: response 'StickContactConstraint' does not handle ${m.kind} elements (${m.describe()})`,
          `StickContactConstraint glues Vec3 points, lines, triangles and spheres`,
        );
      }
    }
  }

  setDetectionOutputs(out: DetectionOutputs): void {
    const c = this.ensureConstraint();
    if (this.kept.length < out.count) this.kept = new Int32Array(2 * out.count);
    let size = 0;
    const p0 = out.point0,
      p1 = out.point1;
    for (let i = 0; i < out.count; i++) {
      let found = false;
      for (let j = 0; j < i && !found; j++) {
        let d2 = 0;
        for (let a = 0; a < 3; a++) {
          const u = p0[3 * i + a] - p0[3 * j + a],
            v = p1[3 * i + a] - p1[3 * j + a];
          d2 += u * u + v * v;
        }
        if (d2 < DUPLICATE_DIST2) found = true;
      }
      if (!found) this.kept[size++] = i;
    }
    const s1 = this.sides[0],
      s2 = this.sides[1];
    s1.ensure(size);
    s2.ensure(size);
    c.clearContacts(size);
    const p = this.p;
    for (let k = 0; k < size; k++) {
      const i = this.kept[k];
      s1.attach(k, this.model1, out.elem1[i], p0, 3 * i);
      s2.attach(k, this.model2, out.elem2[i], p1, 3 * i);
      contactPointPosition(p, 0, this.model1.x, s1, k);
      contactPointPosition(p, 3, this.model2.x, s2, k);
      c.addContact(s1, k, s2, k, p[3] - p[0], p[4] - p[1], p[5] - p[2]);
    }
  }

  keepAlive(): boolean {
    return this.keepAliveFlag;
  }

  protected get responseName(): string {
    return 'StickContactConstraint';
  }

  protected factory(): ReturnType<typeof getBilateralContactConstraintFactory> {
    return getBilateralContactConstraintFactory();
  }
}

/** keepAlive from a response string "Name?keepAlive=0&..." (SOFA's bool reading: 0/1, true/false). */
function keepAliveParameter(response: string, owner: BaseObject): boolean {
  const q = response.indexOf('?');
  if (q < 0) return true;
  for (const kv of response.slice(q + 1).split('&')) {
    const [k, v] = kv.split('=');
    if (k?.trim() !== 'keepAlive' || v === undefined) continue;
    const t = v.trim().toLowerCase();
    if (t === 'true' || t === '1') return true;
    if (t === 'false' || t === '0') return false;
    throw owner.error(`response parameter keepAlive must be 0 or 1 (got '${v}')`);
  }
  return true;
}
