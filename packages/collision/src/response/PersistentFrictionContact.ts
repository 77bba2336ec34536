import {
  CONTACT_SLIDING,
  CONTACT_SLOT,
  CONTACT_STICKY,
  getPersistentContactConstraintFactory,
  isBaseMapping,
  isPersistentContactMapping,
  type BaseMechanicalState,
  type BaseObject,
  type LagrangianContactConstraint,
  type PersistentContactConstraint,
  type PersistentContactMapping,
} from '@sofa-ts/core';
import type { DetectionOutputs } from '../detection/detection-outputs.js';
import type { IntersectionMethod } from '../detection/intersection-method.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import { FrictionContact, cantorPairing } from './FrictionContact.js';

/** One side's points on a persistent mapping's output: slot c is its point idx[S·c] (weight 1). */
class PersistentSide {
  n = new Int8Array(16);
  idx = new Uint32Array(16 * CONTACT_SLOT);
  w = new Float64Array(16 * CONTACT_SLOT);

  ensure(capacity: number): void {
    if (this.n.length >= capacity) return;
    let cap = this.n.length;
    while (cap < capacity) cap *= 2;
    this.n = new Int8Array(cap);
    this.idx = new Uint32Array(CONTACT_SLOT * cap);
    this.w = new Float64Array(CONTACT_SLOT * cap);
  }

  set(c: number, point: number): void {
    this.n[c] = 1;
    this.idx[CONTACT_SLOT * c] = point;
    this.w[CONTACT_SLOT * c] = 1;
  }
}

/**
 * SOFA's PersistentFrictionContact (plugin PersistentContact): FrictionContact's Coulomb contacts,
 * whose contact points persist from one step to the next on the bodies that have a persistent
 * contact mapping (PersistentContactBarycentricMapping, PersistentContactRigidMapping):
 *   - a model's persistent mapping is the one, in the node of the input of the mapping placing the
 *     model's state (or below), whose nameOfInputMap is that mapping's name; a model without one
 *     takes FrictionContact's contact points on its elements;
 *   - the outputs are filtered: an output with the same id as a kept one, or both points within
 *     1e-4 of it, keeps the one of the smaller gap |P − Q|;
 *   - an output on the same pair of elements as a contact of the last step that stuck keeps that
 *     contact's material points (on the persistent sides) and starts the solve from its force; one
 *     on the elements of a contact that slid starts from its force with new points;
 *   - a new point on a persistent side is placed at the detected point moved by the model's contact
 *     distance along the normal (towards the other body), and that distance leaves the rest
 *     distance: d = d_method + d_other (+ the other's radius);
 *   - the constraint (PersistentUnilateralInteractionConstraint) joins the persistent mappings'
 *     outputs (or the models' states); its contacts' states and forces after the solve decide the
 *     next step's persistence.
 * SOFA's current source no longer adds the new points of a persistent side (the call is commented
 * out since its detection outputs lost their barycentric coordinates, leaving such contacts on
 * points that do not exist); sofa-ts adds them from their positions, as the mapping's
 * addContactPointFromInputMapping is written to. SOFA puts the constraint in the node of the first
 * persistent mapping; here it goes where the contact manager puts FrictionContact's (the row order
 * of the constraint solve may differ). mu and tol as FrictionContactConstraint's.
 */
export class PersistentFrictionContact extends FrictionContact {
  private readonly maps: [PersistentContactMapping | undefined, PersistentContactMapping | undefined] = [undefined, undefined];
  private resolved = false;
  private readonly persistentSides: [PersistentSide, PersistentSide] = [new PersistentSide(), new PersistentSide()];
  /** Filtered outputs of the step. */
  private selected = new Int32Array(16);
  /** Per contact of the last step: its elements and persistent point indices (−1: not persistent). */
  private prevElem1 = new Int32Array(16);
  private prevElem2 = new Int32Array(16);
  private prevPoint1 = new Int32Array(16);
  private prevPoint2 = new Int32Array(16);
  private prevMatched = new Uint8Array(16);
  private prevCount = 0;
  /** Per selected output: the last step's contact it continues (−1: none), whether it sticks, its initial force. */
  private continues = new Int32Array(16);
  private sticks = new Uint8Array(16);
  private initForce = new Float64Array(48);
  private readonly force = new Float64Array(3);

  constructor(model1: CollisionModel, model2: CollisionModel, method: IntersectionMethod, owner: BaseObject, response: string) {
    super(model1, model2, method, owner, response);
  }

  /** SOFA's findMappingOrUseMapper, for both models. */
  private resolveMaps(): void {
    if (this.resolved) return;
    this.resolved = true;
    this.maps[0] = findPersistentMapping(this.model1);
    this.maps[1] = findPersistentMapping(this.model2);
  }

  /** The persistent mapping serving each model (after the first outputs; for tests and tools). */
  get persistentMappings(): readonly [PersistentContactMapping | undefined, PersistentContactMapping | undefined] {
    this.resolveMaps();
    return this.maps;
  }

  protected override constraintStates(): [BaseMechanicalState, BaseMechanicalState] {
    this.resolveMaps();
    return [this.maps[0]?.getTo() ?? this.model1.getMechanicalState(), this.maps[1]?.getTo() ?? this.model2.getMechanicalState()];
  }

  protected override factory(): ReturnType<FrictionContact['factory']> {
    return getPersistentContactConstraintFactory();
  }

  protected override get responseName(): string {
    return 'PersistentFrictionContact';
  }

  override setDetectionOutputs(out: DetectionOutputs): void {
    this.resolveMaps();
    const m1 = this.model1,
      m2 = this.model2;
    const c = this.ensureConstraint() as LagrangianContactConstraint as PersistentContactConstraint;
    if (m1.contactStiffness.value === 0 || m2.contactStiffness.value === 0) {
      c.clearContacts(0);
      this.prevCount = 0;
      return;
    }
    const size = this.filter(out);
    this.matchLastContacts(out, size, c);
    // points: persistent sides on their mapping's output, the others on the models' elements
    const [map1, map2] = this.maps;
    map1?.beginAddContactPoint();
    map2?.beginAddContactPoint();
    for (let s = 0; s < 2; s++) {
      this.sides[s].ensure(size);
      this.persistentSides[s].ensure(size);
    }
    this.ensurePrev(size);
    const d0 = this.method.getContactDistance() + m1.getProximity() + m2.getProximity();
    const p0 = out.point0,
      p1 = out.point1,
      nrm = out.normal;
    const dist = this.distances(size);
    for (let k = 0; k < size; k++) {
      const i = this.selected[k];
      const prev = this.continues[k];
      const stick = this.sticks[k] === 1;
      let d = d0;
      if (map1) {
        const cd = m1.getProximity();
        const point = stick
          ? map1.keepContactPointFromInputMapping(this.prevPoint1Of(prev))
          : map1.addContactPointFromInputMapping(
              p0[3 * i] + nrm[3 * i] * cd,
              p0[3 * i + 1] + nrm[3 * i + 1] * cd,
              p0[3 * i + 2] + nrm[3 * i + 2] * cd,
            );
        this.persistentSides[0].set(k, point);
        this.nextPoint1[k] = point;
        d -= cd;
      } else {
        d += this.sides[0].attach(k, m1, out.elem1[i], p0, 3 * i);
        this.nextPoint1[k] = -1;
      }
      if (map2) {
        const cd = m2.getProximity();
        const point = stick
          ? map2.keepContactPointFromInputMapping(this.prevPoint2Of(prev))
          : map2.addContactPointFromInputMapping(
              p1[3 * i] - nrm[3 * i] * cd,
              p1[3 * i + 1] - nrm[3 * i + 1] * cd,
              p1[3 * i + 2] - nrm[3 * i + 2] * cd,
            );
        this.persistentSides[1].set(k, point);
        this.nextPoint2[k] = point;
        d -= cd;
      } else {
        d += this.sides[1].attach(k, m2, out.elem2[i], p1, 3 * i);
        this.nextPoint2[k] = -1;
      }
      dist[k] = d;
    }
    map1?.applyPositionAndFreePosition();
    map2?.applyPositionAndFreePosition();
    c.clearContacts(size);
    const side1 = map1 ? this.persistentSides[0] : this.sides[0],
      side2 = map2 ? this.persistentSides[1] : this.sides[1];
    for (let k = 0; k < size; k++) {
      const i = this.selected[k];
      const id = out.id[i];
      c.addContact(side1, k, side2, k, nrm[3 * i], nrm[3 * i + 1], nrm[3 * i + 2], dist[k], this.mu, cantorPairing(id, this.id), id);
      c.setInitForce(k, this.initForce[3 * k], this.initForce[3 * k + 1], this.initForce[3 * k + 2]);
    }
    // this step's contacts, for the next one
    for (let k = 0; k < size; k++) {
      const i = this.selected[k];
      this.prevElem1[k] = out.elem1[i];
      this.prevElem2[k] = out.elem2[i];
      this.prevPoint1[k] = this.nextPoint1[k];
      this.prevPoint2[k] = this.nextPoint2[k];
    }
    this.prevCount = size;
  }

  private prevPoint1Of(prev: number): number {
    return this.prevPoint1[prev];
  }

  private prevPoint2Of(prev: number): number {
    return this.prevPoint2[prev];
  }

  /**
   * SOFA's filterDuplicatedDetectionOutputs: each output is compared with the kept ones; one with
   * the same id, or both points within 1e-4 (Σ|Δp|² per point < 1e-8, in single precision), keeps
   * the smaller gap |P − Q|². As in SOFA, the output after a removed one is not compared (its loop
   * index moves on after the erase). Returns the number kept, in `selected`.
   */
  private filter(out: DetectionOutputs): number {
    if (this.selected.length < out.count) this.selected = new Int32Array(2 * out.count);
    const sel = this.selected;
    const p0 = out.point0,
      p1 = out.point1;
    const near = Math.fround(0.00000001);
    const gap = (i: number): number => {
      let g = 0;
      for (let a = 0; a < 3; a++) g += (p1[3 * i + a] - p0[3 * i + a]) ** 2;
      return g;
    };
    let size = 0;
    for (let i = 0; i < out.count; i++) {
      let insert = true;
      for (let k = 0; k < size && insert; k++) {
        const j = sel[k];
        let d0 = 0,
          d1 = 0;
        for (let a = 0; a < 3; a++) {
          d0 += (p0[3 * i + a] - p0[3 * j + a]) ** 2;
          d1 += (p1[3 * i + a] - p1[3 * j + a]) ** 2;
        }
        if (out.id[i] !== out.id[j] && !(d0 < near && d1 < near)) continue;
        if (gap(i) > gap(j)) insert = false;
        else {
          sel.copyWithin(k, k + 1, size);
          size--;
        }
      }
      if (insert) sel[size++] = i;
    }
    return size;
  }

  /**
   * SOFA's keepStickyContacts: each selected output continues the first contact of the last step
   * on the same pair of elements that stuck (its points are kept) or slid (new points), and starts
   * from its force; a contact of the last step is continued once.
   */
  private matchLastContacts(out: DetectionOutputs, size: number, c: PersistentContactConstraint): void {
    if (this.continues.length < size) {
      this.continues = new Int32Array(2 * size);
      this.sticks = new Uint8Array(2 * size);
      this.initForce = new Float64Array(6 * size);
    }
    this.prevMatched.fill(0, 0, this.prevCount);
    for (let k = 0; k < size; k++) {
      const i = this.selected[k];
      this.continues[k] = -1;
      this.sticks[k] = 0;
      this.initForce.fill(0, 3 * k, 3 * k + 3);
      for (let p = 0; p < this.prevCount; p++) {
        if (this.prevMatched[p] || this.prevElem1[p] !== out.elem1[i] || this.prevElem2[p] !== out.elem2[i]) continue;
        const state = c.contactState(p);
        if (state !== CONTACT_STICKY && state !== CONTACT_SLIDING) continue;
        this.prevMatched[p] = 1;
        this.continues[k] = p;
        this.sticks[k] = state === CONTACT_STICKY ? 1 : 0;
        c.contactForce(p, this.force, 0);
        this.initForce.set(this.force, 3 * k);
        break;
      }
    }
  }

  /** Scratch of setDetectionOutputs: this step's persistent point indices and rest distances. */
  private nextPoint1 = new Int32Array(16);
  private nextPoint2 = new Int32Array(16);
  private dist = new Float64Array(16);

  private distances(size: number): Float64Array {
    if (this.dist.length < size) this.dist = new Float64Array(2 * size);
    return this.dist;
  }

  private ensurePrev(size: number): void {
    if (this.prevElem1.length >= size && this.nextPoint1.length >= size) return;
    const cap = 2 * size;
    const grow = (a: Int32Array): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(cap);
      b.set(a.subarray(0, Math.min(a.length, cap)));
      return b;
    };
    this.prevElem1 = grow(this.prevElem1);
    this.prevElem2 = grow(this.prevElem2);
    this.prevPoint1 = grow(this.prevPoint1);
    this.prevPoint2 = grow(this.prevPoint2);
    this.nextPoint1 = grow(this.nextPoint1);
    this.nextPoint2 = grow(this.nextPoint2);
    const m = new Uint8Array(cap);
    m.set(this.prevMatched.subarray(0, Math.min(this.prevMatched.length, cap)));
    this.prevMatched = m;
  }
}

/**
 * SOFA's findMappingOrUseMapper: the mapping placing the model's state (the first mapping of its
 * node), then, in the node of that mapping's input and below, the persistent contact mapping whose
 * nameOfInputMap is its name. A model on unmapped degrees of freedom has none (SOFA would read the
 * name of a missing mapping there).
 */
function findPersistentMapping(model: CollisionModel): PersistentContactMapping | undefined {
  const state = model.getMechanicalState();
  const node = state.context;
  const placing = node.objects.find(isBaseMapping);
  if (!placing) return undefined;
  const input = placing.getFrom()[0];
  if (!input) return undefined;
  const name = placing.getName();
  let found: PersistentContactMapping | undefined;
  input.context.visit((n) => {
    if (found) return false;
    for (const o of n.objects) {
      if (isPersistentContactMapping(o) && o.nameOfInputMap.value === name) {
        found = o;
        return false;
      }
    }
    return true;
  });
  return found;
}
