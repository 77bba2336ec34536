import { expect } from 'chai';
import { Node } from '@sofa-ts/core';
import { meshNode } from '../test-support.js';
import { triangleFlags } from '../model/mesh-adjacency.js';
import { TriangleCollisionModel } from '../model/TriangleCollisionModel.js';
import { LineCollisionModel } from '../model/LineCollisionModel.js';
import { PointCollisionModel } from '../model/PointCollisionModel.js';
import { SphereCollisionModel } from '../model/SphereCollisionModel.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import { DetectionOutputs } from './detection-outputs.js';
import type { IntersectionMethod } from './intersection-method.js';
import { NewProximityIntersection } from './NewProximityIntersection.js';
import { MinProximityIntersection } from './MinProximityIntersection.js';
import { DiscreteIntersection } from './DiscreteIntersection.js';
import { LocalMinDistance } from './LocalMinDistance.js';
import { FLAG_BE12, FLAG_BE23, FLAG_BE31, FLAG_E12, FLAG_E23, FLAG_E31, FLAG_P1, FLAG_P2, FLAG_P3 } from './proximity-kernels.js';

/** Runs the method's test on (a, i, b, j), swapping as the method asks; returns outputs. */
function test(method: IntersectionMethod, a: CollisionModel, i: number, b: CollisionModel, j: number): DetectionOutputs {
  const f = method.findIntersector(a.kind, b.kind)!;
  const out = new DetectionOutputs();
  if (f.swap) f.test(b, j, a, i, out);
  else f.test(a, i, b, j, out);
  return out;
}

const v3 = (a: Float64Array, k = 0): number[] => Array.from(a.subarray(3 * k, 3 * k + 3));
function close(a: number[], b: number[], tol = 1e-12): void {
  for (let c = 0; c < 3; c++) expect(a[c]).to.be.closeTo(b[c], tol);
}

/** A unit right triangle in the plane z = z0, another at height z0 + h, shifted so that its first point lies above the first one's interior. */
function twoTriangles(method: IntersectionMethod, h: number): { lower: TriangleCollisionModel; upper: TriangleCollisionModel } {
  const root = new Node('root');
  const lower = new TriangleCollisionModel(),
    upper = new TriangleCollisionModel();
  meshNode(root, 'lower', [0, 0, 0, 1, 0, 0, 0, 1, 0], { triangles: [0, 1, 2] }, lower);
  meshNode(root, 'upper', [0.25, 0.25, h, 2, 0.25, h, 0.25, 2, h], { triangles: [0, 1, 2] }, upper);
  void method;
  return { lower, upper };
}

describe('collision intersection methods (closed-form cases)', () => {
  it('triangle flags: each point and each edge of a mesh is owned by one triangle; boundary edges flagged', () => {
    // a square split in 4 triangles around its centre (4)
    const tris = Uint32Array.of(0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4);
    const edges = Uint32Array.of(0, 1, 1, 4, 4, 0, 1, 2, 2, 4, 2, 3, 3, 4, 3, 0);
    const flags = triangleFlags(tris, edges, 5);
    const pointOwners = new Int32Array(5);
    const edgeOwners = new Map<string, number>();
    let boundary = 0;
    for (let t = 0; t < 4; t++) {
      for (let j = 0; j < 3; j++) {
        if (flags[t] & (FLAG_P1 << j)) pointOwners[tris[3 * t + j]]++;
        const a = tris[3 * t + ((j + 1) % 3)],
          b = tris[3 * t + ((j + 2) % 3)];
        const key = a < b ? `${a}-${b}` : `${b}-${a}`;
        if (flags[t] & (FLAG_E23 << j)) edgeOwners.set(key, (edgeOwners.get(key) ?? 0) + 1);
        if (flags[t] & (FLAG_BE23 << j)) boundary++;
      }
    }
    expect(Array.from(pointOwners)).to.deep.equal([1, 1, 1, 1, 1]);
    expect(edgeOwners.size).to.equal(8);
    expect([...edgeOwners.values()].every((c) => c === 1)).to.equal(true);
    expect(boundary).to.equal(4);
    expect([FLAG_P2, FLAG_P3, FLAG_E31, FLAG_E12, FLAG_BE31, FLAG_BE12]).to.deep.equal([2, 4, 16, 32, 128, 256]);
  });

  it("NewProximity triangle-triangle: the upper corner above the lower triangle, at distance h, with SOFA's id", () => {
    const method = new NewProximityIntersection();
    method.alarmDistance.value = 0.5;
    method.contactDistance.value = 0.1;
    const h = 0.3;
    const { lower, upper } = twoTriangles(method, h);
    // pair (upper, lower): upper's first point is tested against the lower triangle
    const out = test(method, upper, 0, lower, 0);
    const k = Array.from({ length: out.count }, (_, i) => i).find((i) => out.id[i] === 0)!;
    expect(k).to.not.equal(undefined);
    expect(out.value[k]).to.be.closeTo(h - 0.1, 1e-12);
    close(v3(out.point0, k), [0.25, 0.25, h]); // on upper (model 1)
    close(v3(out.point1, k), [0.25, 0.25, 0]); // on lower
    close(v3(out.normal, k), [0, 0, -1]); // from model 1 towards model 2
    // the lower triangle's points, tested against the upper one, are farther than the alarm distance or outside it
    for (let i = 0; i < out.count; i++) expect(out.value[i]).to.be.at.least(h - 0.1 - 1e-12);
    // beyond the alarm distance: nothing
    const far = twoTriangles(method, 0.7);
    expect(test(method, far.upper, 0, far.lower, 0).count).to.equal(0);
  });

  it('NewProximity sphere-sphere and triangle-sphere: centres, radii in the value', () => {
    const method = new NewProximityIntersection();
    method.alarmDistance.value = 0.5;
    method.contactDistance.value = 0.1;
    const root = new Node('root');
    const s1 = new SphereCollisionModel(),
      s2 = new SphereCollisionModel(),
      tri = new TriangleCollisionModel();
    s1.radius.value = 0.5;
    s2.listRadius.value = Float64Array.of(0.25);
    meshNode(root, 's1', [0, 0, 0], {}, s1);
    meshNode(root, 's2', [0, 0, 1], {}, s2);
    meshNode(root, 't', [-1, -1, -0.8, 2, -1, -0.8, -1, 2, -0.8], { triangles: [0, 1, 2] }, tri);
    const ss = test(method, s1, 0, s2, 0);
    expect(ss.count).to.equal(1);
    expect(ss.value[0]).to.be.closeTo(1 - 0.75 - 0.1, 1e-15);
    close(v3(ss.point0), [0, 0, 0]);
    close(v3(ss.point1), [0, 0, 1]);
    const ts = test(method, tri, 0, s1, 0);
    expect(ts.count).to.equal(1);
    expect(ts.value[0]).to.be.closeTo(0.8 - 0.5 - 0.1, 1e-15);
    close(v3(ts.point0), [0, 0, -0.8]);
    close(v3(ts.point1), [0, 0, 0]); // a Vec3 sphere's contact point is its centre (SOFA's TSphere<Vec3> specialisation)
    close(v3(ts.normal), [0, 0, 1]);
    expect(ts.id[0]).to.equal(0);
  });

  it('MinProximity: triangle-point inside only, segment-point to the end points, segment-segment; triangle-segment not tested', () => {
    const method = new MinProximityIntersection();
    method.alarmDistance.value = 0.6;
    method.contactDistance.value = 0.2;
    const root = new Node('root');
    const tri = new TriangleCollisionModel(),
      line = new LineCollisionModel(),
      pts = new PointCollisionModel(),
      seg = new LineCollisionModel();
    meshNode(root, 't', [0, 0, 0, 1, 0, 0, 0, 1, 0], { triangles: [0, 1, 2] }, tri, line);
    meshNode(root, 'p', [0.2, 0.3, 0.4, 1.3, -0.4, 0, 0.5, -0.3, 0.1, 0.5, 0.3, -0.3], { edges: [2, 3] }, pts, seg);
    const tp = test(method, tri, 0, pts, 0);
    expect(tp.count).to.equal(1);
    expect(tp.value[0]).to.be.closeTo(0.4 - 0.2, 1e-15);
    close(v3(tp.point0), [0.2, 0.3, 0]);
    close(v3(tp.normal), [0, 0, 1]);
    expect(test(method, tri, 0, pts, 1).count).to.equal(0); // projection outside the triangle
    // edge 0 of the triangle's topology is (0, 1): the point (1.3, −0.4, 0) is closest to its end (1, 0, 0)
    const lp = test(method, line, 0, pts, 1);
    expect(lp.count).to.equal(1);
    close(v3(lp.point0), [1, 0, 0]);
    expect(lp.value[0]).to.be.closeTo(0.5 - 0.2, 1e-15);
    // segment [(0.5,−0.3,0.1),(0.5,0.3,−0.3)] crosses above/below edge (0,1) of the triangle
    const ll = test(method, line, 0, seg, 0);
    expect(ll.count).to.equal(1);
    close(v3(ll.point0), [0.5, 0, 0]);
    expect(method.findIntersector('triangle', 'line')).to.equal(undefined);
    expect(method.findIntersector('triangle', 'triangle')).to.equal(undefined);
  });

  it('DiscreteIntersection: only overlapping spheres give a contact, with a negative value', () => {
    const method = new DiscreteIntersection();
    const root = new Node('root');
    const a = new SphereCollisionModel(),
      b = new SphereCollisionModel();
    meshNode(root, 'a', [0, 0, 0, 5, 0, 0], {}, a);
    meshNode(root, 'b', [1.5, 0, 0], {}, b);
    const o = test(method, a, 0, b, 0);
    expect(o.count).to.equal(1);
    expect(o.value[0]).to.be.closeTo(-0.5, 1e-15);
    close(v3(o.point0), [1, 0, 0]);
    close(v3(o.point1), [0.5, 0, 0]);
    expect(test(method, a, 1, b, 0).count).to.equal(0);
  });

  it('LocalMinDistance: a triangle is touched from the side of its normal only; a point of a mesh from outside', () => {
    const method = new LocalMinDistance();
    method.alarmDistance.value = 0.5;
    method.contactDistance.value = 0.1;
    const root = new Node('root');
    const tri = new TriangleCollisionModel();
    const pts = new PointCollisionModel(),
      lines = new LineCollisionModel();
    meshNode(root, 't', [0, 0, 0, 1, 0, 0, 0, 1, 0], { triangles: [0, 1, 2] }, tri);
    // a point above the triangle (normal side), one below
    meshNode(root, 'p', [0.2, 0.2, 0.3, 0.2, 0.2, -0.3], {}, pts, lines);
    expect(test(method, tri, 0, pts, 0).count).to.equal(1);
    expect(test(method, tri, 0, pts, 1).count).to.equal(0);
    method.filterIntersection.value = false;
    expect(test(method, tri, 0, pts, 1).count).to.equal(1);
  });

  it('self collision: triangles of one model sharing a point are not tested', () => {
    const method = new NewProximityIntersection();
    method.alarmDistance.value = 1;
    const root = new Node('root');
    const m = new TriangleCollisionModel();
    m.selfCollision.value = true;
    meshNode(root, 'm', [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0.1], { triangles: [0, 1, 2, 1, 3, 2] }, m);
    expect(test(method, m, 0, m, 1).count).to.equal(0);
  });
});
