import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Node } from '@sofa-ts/core';
import { meshNode } from '../test-support.js';
import { DetectionOutputs } from '../detection/detection-outputs.js';
import { LocalMinDistance } from '../detection/LocalMinDistance.js';
import { DiscreteIntersection } from '../detection/DiscreteIntersection.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import type { IntersectionMethod } from '../detection/intersection-method.js';
import { PointCollisionModel } from '../model/PointCollisionModel.js';
import { TriangleCollisionModel } from '../model/TriangleCollisionModel.js';
import { ContactSide } from '../response/contact-points.js';
import { RigidDistanceGridCollisionModel } from './RigidDistanceGridCollisionModel.js';

/** The box [−1, 1]³ as an OBJ file in a temporary folder. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-grid-intersections-'));
const box = path.join(dir, 'box.obj');
fs.writeFileSync(
  box,
  [
    ...Array.from({ length: 8 }, (_, k) => `v ${k & 1 ? 1 : -1} ${k & 2 ? 1 : -1} ${k & 4 ? 1 : -1}`),
    ...['1 3 4 2', '5 6 8 7', '1 2 6 5', '3 7 8 4', '1 5 7 3', '2 4 8 6'].map((q) => `f ${q}`),
  ].join('\n') + '\n',
);

/** The grid of the box on a Rigid3d frame (centre c, quaternion q). */
function gridModel(root: Node, frame: number[], contactDistance = 0): RigidDistanceGridCollisionModel {
  const m = new RigidDistanceGridCollisionModel();
  m.filename.value = box;
  m.nx.value = m.ny.value = m.nz.value = 21;
  m.contactDistance.value = contactDistance;
  meshNode(root, 'grid', frame, { rigid: true }, m);
  return m;
}

function run(method: IntersectionMethod, a: CollisionModel, b: CollisionModel, j = 0): DetectionOutputs {
  const f = method.findIntersector(a.kind, b.kind);
  expect(f, `${a.kind}–${b.kind}`).to.not.equal(undefined);
  expect(f!.swap).to.equal(false);
  const out = new DetectionOutputs();
  f!.test(a, 0, b, j, out);
  return out;
}

function localMin(alarm: number, contact: number): LocalMinDistance {
  const m = new LocalMinDistance();
  m.alarmDistance.value = alarm;
  m.contactDistance.value = contact;
  return m;
}

describe('RigidDistanceGridCollisionModel intersections', () => {
  it('a point above a face: value = distance − contact distances, point0 on the surface (grid frame), normal along the face', () => {
    const root = new Node('root');
    const g = gridModel(root, [0, 0, 0, 0, 0, 0, 1], 0.1);
    const p = new PointCollisionModel();
    meshNode(root, 'p', [0.1, 1.15, -0.05], {}, p);
    const out = run(localMin(0.3, 0.1), g, p);
    expect(out.count).to.equal(1);
    expect(out.value[0]).to.be.closeTo(0.15 - 0.2, 1e-12);
    [0, 1, 0].forEach((v, k) => expect(out.normal[k]).to.be.closeTo(v, 1e-12));
    [0.1, 1, -0.05].forEach((v, k) => expect(out.point0[k]).to.be.closeTo(v, 1e-12));
    [0.1, 1.15, -0.05].forEach((v, k) => expect(out.point1[k]).to.be.closeTo(v, 1e-15));
    expect(out.id[0]).to.equal(0);
  });

  it('ignores a point farther than 0.001 + the contact distances, and is in every DiscreteIntersection method', () => {
    const root = new Node('root');
    const g = gridModel(root, [0, 0, 0, 0, 0, 0, 1], 0.1);
    const p = new PointCollisionModel();
    meshNode(root, 'p', [0.1, 1.202, 0], {}, p);
    expect(run(localMin(0.3, 0.1), g, p).count).to.equal(0);
    const d = new DiscreteIntersection();
    expect(d.findIntersector('rigiddistancegrid', 'triangle')).to.not.equal(undefined);
  });

  it("reads points in the frame of the rigid state: a rotated and moved grid gives the world's normal", () => {
    const root = new Node('root');
    // rotated by 90° about z (x → y), moved by (2, 0, 0): the face x = +1 of the box faces +y in the world
    const s = Math.SQRT1_2;
    const g = gridModel(root, [2, 0, 0, 0, 0, s, s]);
    const p = new PointCollisionModel();
    meshNode(root, 'p', [2.02, 0.95, 0.01], {}, p);
    const out = run(localMin(0.3, 0.1), g, p);
    expect(out.count).to.equal(1);
    expect(out.value[0]).to.be.closeTo(-0.05 - 0.1, 1e-12);
    [0, 1, 0].forEach((v, k) => expect(out.normal[k]).to.be.closeTo(v, 1e-12));
    // point0 in the grid's frame: (0.95, −0.02, 0.01) pushed to the face x = 1
    [1, -0.02, 0.01].forEach((v, k) => expect(out.point0[k]).to.be.closeTo(v, 1e-12));
    // the contact point is fixed in the frame at point0
    const side = new ContactSide();
    side.attach(0, g, 0, out.point0, 0);
    expect(side.n[0]).to.equal(-1);
    [1, -0.02, 0.01].forEach((v, k) => expect(side.w[k]).to.be.closeTo(v, 1e-12));
  });

  it('tests the vertices a triangle owns and the middles of its border edges, id = 6·triangle + feature', () => {
    const root = new Node('root');
    const g = gridModel(root, [0, 0, 0, 0, 0, 0, 1]);
    const t = new TriangleCollisionModel();
    // one triangle lying 0.05 above the face y = 1: it owns its 3 vertices and its 3 border edges
    meshNode(root, 't', [0, 1.05, 0, 0.3, 1.05, 0, 0, 1.05, 0.3], { triangles: [0, 1, 2] }, t);
    const out = run(localMin(0.3, 0.1), g, t);
    expect(out.count).to.equal(6);
    expect(Array.from(out.id.subarray(0, 6))).to.deep.equal([0, 1, 2, 3, 4, 5]);
    for (let k = 0; k < 6; k++) expect(out.value[k]).to.be.closeTo(0.05 - 0.1, 1e-12);
    // the middle of edge 0 (vertices 1 and 2)
    [0.15, 1.05, 0.15].forEach((v, k) => expect(out.point1[9 + k]).to.be.closeTo(v, 1e-15));
  });
});
