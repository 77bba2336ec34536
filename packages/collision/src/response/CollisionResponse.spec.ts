import { expect } from 'chai';
import { Node } from '@sofa-ts/core';
import { meshNode } from '../test-support.js';
import { PointCollisionModel } from '../model/PointCollisionModel.js';
import { DetectionOutputs } from '../detection/detection-outputs.js';
import type { PairOutputs } from '../detection/narrow-phase.js';
import { NewProximityIntersection } from '../detection/NewProximityIntersection.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import { CollisionResponse } from './CollisionResponse.js';
import type { Contact } from './contact.js';

/** One output between point 0 of a and point 0 of b. */
function pair(a: CollisionModel, b: CollisionModel): PairOutputs {
  const outputs = new DetectionOutputs();
  const k = outputs.push();
  outputs.elem1[k] = 0;
  outputs.elem2[k] = 0;
  outputs.value[k] = 0.1;
  outputs.normal.set([0, 0, 1], 3 * k);
  return { a, b, outputs };
}

/** The scene: four nodes with one point model each, created in this order. */
function scene(): { root: Node; models: PointCollisionModel[]; manager: CollisionResponse; method: NewProximityIntersection } {
  const root = new Node('root');
  const models: PointCollisionModel[] = [];
  for (let i = 0; i < 4; i++) {
    const m = new PointCollisionModel();
    meshNode(root, `body${i}`, [i, 0, 0], {}, m);
    models.push(m);
  }
  const manager = new CollisionResponse();
  root.addObject(manager);
  return { root, models, manager, method: new NewProximityIntersection() };
}

/** The responses in the node, as (index of model1, index of model2). */
function placedOrder(root: Node, contacts: readonly Contact[], models: readonly CollisionModel[]): number[][] {
  const byObject = new Map(contacts.map((c) => [c.responseObject!(), c]));
  return root.objects
    .filter((o) => byObject.has(o))
    .map((o) => {
      const c = byObject.get(o)!;
      return [models.indexOf(c.model1), models.indexOf(c.model2)];
    });
}

describe('CollisionResponse: order of the responses (SOFA contact map order)', () => {
  it('puts the responses in descending (model1, model2) creation order, keeps them in place while that order holds, and restores it when a new pair falls in between', () => {
    const { root, models, manager, method } = scene();
    const rank = new Map<CollisionModel, number>(models.map((m, i) => [m, i]));
    const [m0, m1, m2, m3] = models as [PointCollisionModel, PointCollisionModel, PointCollisionModel, PointCollisionModel];
    // pairs as the broad phase gives them (later model first), in an order unrelated to the rule
    const step1 = [pair(m1, m0), pair(m3, m2), pair(m2, m0), pair(m3, m0)];
    manager.createContacts(step1, method);
    manager.placeResponses(root, rank);
    // the rule, computed independently: sort the index pairs descending, lexicographically
    const expected = (ps: PairOutputs[]): number[][] =>
      ps
        .map((p) => [models.indexOf(p.a as PointCollisionModel), models.indexOf(p.b as PointCollisionModel)])
        .sort((x, y) => y[0] - x[0] || y[1] - x[1]);
    expect(placedOrder(root, manager.getContacts(), models)).to.deep.equal(expected(step1));
    expect(expected(step1)).to.deep.equal([
      [3, 2],
      [3, 0],
      [2, 0],
      [1, 0],
    ]);

    // same pairs next step: nothing moves (the graph is left alone)
    const revision = root.subtreeRevision;
    manager.createContacts([pair(m3, m0), pair(m1, m0), pair(m2, m0), pair(m3, m2)], method);
    manager.placeResponses(root, rank);
    expect(root.subtreeRevision).to.equal(revision);

    // a pair that sorts in the middle appears, two disappear: all in order again
    const step3 = [pair(m2, m1), pair(m3, m2), pair(m3, m0)];
    manager.createContacts(step3, method);
    manager.placeResponses(root, rank);
    expect(placedOrder(root, manager.getContacts(), models)).to.deep.equal(expected(step3));
    expect(expected(step3)).to.deep.equal([
      [3, 2],
      [3, 0],
      [2, 1],
    ]);

    // a pair that sorts last is appended; the others stay where they are
    const before = root.objects.slice();
    const step4 = [...step3, pair(m1, m0)];
    manager.createContacts(step4, method);
    manager.placeResponses(root, rank);
    expect(placedOrder(root, manager.getContacts(), models)).to.deep.equal(expected(step4));
    expect(root.objects.slice(0, before.length)).to.deep.equal(before);
  });

  it('without a rank keeps the creation order of the contacts', () => {
    const { root, models, manager, method } = scene();
    const [m0, m1, m2] = models as [PointCollisionModel, PointCollisionModel, PointCollisionModel];
    manager.createContacts([pair(m1, m0), pair(m2, m1)], method);
    manager.placeResponses(root);
    expect(placedOrder(root, manager.getContacts(), models)).to.deep.equal([
      [1, 0],
      [2, 1],
    ]);
  });
});
