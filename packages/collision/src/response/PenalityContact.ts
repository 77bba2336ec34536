import type { BaseObject, CheckpointReader, CheckpointRecord, Node } from '@sofa-ts/core';
import type { DetectionOutputs } from '../detection/detection-outputs.js';
import type { IntersectionMethod } from '../detection/intersection-method.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import type { Contact } from './contact.js';
import { PenalityContactForceField } from './PenalityContactForceField.js';

/**
 * SOFA's BarycentricPenalityContact: the penalty response of a pair of collision models, one
 * PenalityContactForceField between their states, refilled at each step from the detection outputs:
 *   - outputs with the same id are merged: the one with the smallest value (distance) is kept;
 *   - each kept output gives a contact between its point on model 1 and its point on model 2
 *     (attached to the elements, see contact-points.ts), normal from the output, rest distance
 *     d = contactDistance(method) + contactDistance(model 1) + contactDistance(model 2) + radii,
 *     stiffness k = contactStiffness(model 1)·contactStiffness(model 2)/d;
 *   - a contact keeps its age while its id persists from step to step.
 */
export class PenalityContact implements Contact {
  readonly ff = new PenalityContactForceField();
  /** id → index: during an update, −1 − output index; between steps, 1-based contact index. */
  private readonly contactIndex = new Map<number, number>();
  private oldIndex = new Int32Array(16);
  private newIndex = new Int32Array(16);

  constructor(
    readonly model1: CollisionModel,
    readonly model2: CollisionModel,
    private readonly method: IntersectionMethod,
    owner: BaseObject,
  ) {
    this.ff.name.value = `${model1.getName()}-${model2.getName()}`;
    this.ff.loc = owner.loc;
    this.ff.setStates(model1.getMechanicalState(), model2.getMechanicalState(), !model1.isSimulated, !model2.isSimulated);
    this.ff.componentState = 'valid';
  }

  setDetectionOutputs(out: DetectionOutputs): void {
    const n = out.count;
    if (this.oldIndex.length < n) {
      this.oldIndex = new Int32Array(2 * n);
      this.newIndex = new Int32Array(2 * n);
    }
    const oldIndex = this.oldIndex,
      newIndex = this.newIndex;
    const map = this.contactIndex;
    // Merge the outputs of equal id, keeping the closest (smallest value).
    for (let i = 0; i < n; i++) {
      const id = out.id[i];
      const index = map.get(id) ?? 0;
      if (index < 0) {
        const i2 = -1 - index;
        if (out.value[i2] <= out.value[i]) {
          oldIndex[i] = -1;
          continue;
        }
        oldIndex[i] = oldIndex[i2];
        oldIndex[i2] = -1;
      } else {
        oldIndex[i] = index;
      }
      map.set(id, -1 - i);
    }
    let size = 0;
    for (let i = 0; i < n; i++) if (oldIndex[i] >= 0) newIndex[i] = ++size;
    for (const [id, index] of map) {
      if (index >= 0) map.delete(id);
      else map.set(id, newIndex[-1 - index]);
    }
    // The contacts, in output order.
    const ff = this.ff;
    const m1 = this.model1,
      m2 = this.model2;
    ff.beginContacts(size);
    const d0 = this.method.getContactDistance() + m1.getProximity() + m2.getProximity();
    const k12 = m1.contactStiffness.value * m2.contactStiffness.value;
    for (let i = 0; i < n; i++) {
      if (oldIndex[i] < 0) continue;
      const c = ff.count;
      const r1 = ff.sides[0].attach(c, m1, out.elem1[i], out.point0, 3 * i);
      const r2 = ff.sides[1].attach(c, m2, out.elem2[i], out.point1, 3 * i);
      const distance = d0 + r1 + r2;
      const stiffness = distance !== 0 ? k12 / distance : k12;
      ff.addContact(
        out.normal[3 * i],
        out.normal[3 * i + 1],
        out.normal[3 * i + 2],
        distance,
        stiffness,
        out.elem1[i],
        out.elem2[i],
        oldIndex[i],
      );
    }
  }

  createResponse(node: Node): void {
    const ff = this.ff;
    if (ff.hasContext && ff.context === node) return;
    if (ff.hasContext) ff.context.removeObject(ff);
    node.addObject(ff);
  }

  removeResponse(): void {
    if (this.ff.hasContext) this.ff.context.removeObject(this.ff);
  }

  responseObject(): BaseObject {
    return this.ff;
  }

  /** Checkpoint: the persistent ids of the contacts and their index (their ages are the force field's). */
  checkpointState(): CheckpointRecord {
    return { ids: Float64Array.from(this.contactIndex.keys()), index: Float64Array.from(this.contactIndex.values()) };
  }

  restoreState(saved: CheckpointReader): void {
    const ids = saved.array('ids', Float64Array),
      index = saved.array('index', Float64Array);
    this.contactIndex.clear();
    for (let i = 0; i < ids.length; i++) this.contactIndex.set(ids[i], index[i]);
  }
}
