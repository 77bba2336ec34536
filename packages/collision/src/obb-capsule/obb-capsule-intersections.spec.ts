import { expect } from 'chai';
import { Node } from '@sofa-ts/core';
import { meshNode } from '../test-support.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import { SphereCollisionModel } from '../model/SphereCollisionModel.js';
import { TriangleCollisionModel } from '../model/TriangleCollisionModel.js';
import { DetectionOutputs } from '../detection/detection-outputs.js';
import type { IntersectionMethod } from '../detection/intersection-method.js';
import { DiscreteIntersection } from '../detection/DiscreteIntersection.js';
import { MinProximityIntersection } from '../detection/MinProximityIntersection.js';
import { NewProximityIntersection } from '../detection/NewProximityIntersection.js';
import { CapsuleCollisionModel } from './CapsuleCollisionModel.js';
import { OBBCollisionModel } from './OBBCollisionModel.js';

/** Runs the method's test on (a, i, b, j), swapping as the method asks; returns the outputs and whether it swapped. */
function run(method: IntersectionMethod, a: CollisionModel, b: CollisionModel): { out: DetectionOutputs; swap: boolean } {
  const f = method.findIntersector(a.kind, b.kind);
  expect(f, `${a.kind}–${b.kind}`).to.not.equal(undefined);
  const out = new DetectionOutputs();
  if (f!.swap) f!.test(b, 0, a, 0, out);
  else f!.test(a, 0, b, 0, out);
  return { out, swap: f!.swap };
}

function proximity(alarm: number, contact: number): NewProximityIntersection {
  const m = new NewProximityIntersection();
  m.alarmDistance.value = alarm;
  m.contactDistance.value = contact;
  return m;
}

function capsule(root: Node, name: string, x: number[], r: number): CapsuleCollisionModel {
  const c = new CapsuleCollisionModel();
  c.defaultRadius.value = r;
  meshNode(root, name, x, { edges: [0, 1] }, c);
  return c;
}

function obb(root: Node, name: string, frame: number[], ext: number[]): OBBCollisionModel {
  const o = new OBBCollisionModel();
  o.extents.value = Float64Array.from(ext);
  meshNode(root, name, frame, { rigid: true }, o);
  return o;
}

describe('CollisionOBBCapsule intersections (NewProximity, MinProximity, Discrete)', () => {
  it('capsule–capsule on skew axes: value = distance − r₁ − r₂ − contact distance, normal along the perpendicular', () => {
    const root = new Node('root');
    const a = capsule(root, 'a', [-1, 0, 0, 1, 0, 0], 0.3);
    const b = capsule(root, 'b', [0.3, -1, 1, 0.3, 1, 1], 0.4);
    const { out } = run(proximity(0.5, 0.1), a, b);
    expect(out.count).to.equal(1);
    expect(out.value[0]).to.be.closeTo(1 - 0.7 - 0.1, 1e-14);
    [0, 0, 1].forEach((v, k) => expect(out.normal[k]).to.be.closeTo(v, 1e-15));
    [0.3, 0, 0].forEach((v, k) => expect(out.point0[k]).to.be.closeTo(v, 1e-15)); // on the axes
    expect(run(proximity(0.2, 0.1), a, b).out.count).to.equal(0); // 1 > 0.2 + 0.7
  });

  it('capsule end and sphere touching: value = −contact distance; swapped pairs keep the capsule first', () => {
    const root = new Node('root');
    const a = capsule(root, 'a', [0, 0, 0, 0, 0, 2], 0.5);
    const s = new SphereCollisionModel();
    s.radius.value = 0.5;
    meshNode(root, 's', [0.6, 0, 2.8], {}, s);
    const { out, swap } = run(proximity(0.1, 0.05), s, a);
    expect(swap).to.equal(true);
    expect(out.count).to.equal(1);
    expect(out.value[0]).to.be.closeTo(-0.05, 1e-15);
    [0.6, 0, 0.8].forEach((v, k) => expect(out.normal[k]).to.be.closeTo(v, 1e-15));
  });

  it('capsule on a box (MinProximity), sphere in a box (Discrete: overlaps only)', () => {
    const root = new Node('root');
    const a = capsule(root, 'a', [-0.5, 0, 1.3, 0.5, 0, 1.3], 0.2);
    const box = obb(root, 'box', [0, 0, 0, 0, 0, 0, 1], [1, 1, 1]);
    const mp = new MinProximityIntersection();
    mp.alarmDistance.value = 0.5;
    mp.contactDistance.value = 0.05;
    const { out } = run(mp, a, box);
    expect(out.count).to.equal(1);
    expect(out.value[0]).to.be.closeTo(0.3 - 0.2 - 0.05, 1e-14);
    [0, 0, -1].forEach((v, k) => expect(out.normal[k]).to.be.closeTo(v, 1e-15)); // capsule → box
    const s = new SphereCollisionModel();
    s.radius.value = 0.5;
    meshNode(root, 's', [0, 0.8, 0], {}, s);
    const d = run(new DiscreteIntersection(), s, box).out;
    expect(d.count).to.equal(1);
    expect(d.value[0]).to.be.closeTo(-0.2 - 0.5, 1e-14); // centre 0.2 inside the face y = 1, radius 0.5
    const far = new SphereCollisionModel();
    meshNode(root, 'far', [0, 3, 0], {}, far);
    far.radius.value = 0.5;
    expect(run(new DiscreteIntersection(), far, box).out.count).to.equal(0);
  });

  it('triangle over a box and capsule through a triangle', () => {
    const root = new Node('root');
    const tri = new TriangleCollisionModel();
    meshNode(root, 'tri', [-3, -3, 1.2, 3, -3, 1.2, 0, 4, 1.2], { triangles: [0, 1, 2] }, tri);
    const box = obb(root, 'box', [0, 0, 0, 0, 0, 0, 1], [1, 1, 1]);
    const { out } = run(proximity(0.5, 0.1), tri, box);
    expect(out.count).to.equal(4); // the box's top corners under the triangle, distinct ids
    expect(new Set(out.id.subarray(0, 4)).size).to.equal(4);
    for (let k = 0; k < 4; k++) {
      expect(out.value[k]).to.be.closeTo(0.2 - 0.1, 1e-14);
      [0, 0, -1].forEach((v, c) => expect(out.normal[3 * k + c]).to.be.closeTo(v, 1e-15));
    }
    const a = capsule(root, 'a', [0, 0, 1.1, 0, 0, 3], 0.25);
    const c = run(proximity(0.5, 0.1), a, tri).out;
    expect(c.count).to.equal(1);
    expect(c.value[0]).to.be.closeTo(-0.1 - 0.25 - 0.1, 1e-14); // the lower end 0.1 under the plane
  });
});
