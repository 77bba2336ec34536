import { expect } from 'chai';
import { Node } from '@sofa-ts/core';
import { meshNode } from '../test-support.js';
import { PointCollisionModel } from '../model/PointCollisionModel.js';
import { SphereCollisionModel } from '../model/SphereCollisionModel.js';
import { TriangleCollisionModel } from '../model/TriangleCollisionModel.js';
import { DetectionOutputs } from '../detection/detection-outputs.js';
import { NewProximityIntersection } from '../detection/NewProximityIntersection.js';
import { PenalityContact } from './PenalityContact.js';

function output(out: DetectionOutputs, e1: number, e2: number, id: number, value: number, p0: number[], p1: number[], n: number[]): void {
  const k = out.push();
  out.elem1[k] = e1;
  out.elem2[k] = e2;
  out.id[k] = id;
  out.value[k] = value;
  out.point0.set(p0, 3 * k);
  out.point1.set(p1, 3 * k);
  out.normal.set(n, 3 * k);
}

describe('penalty contact response (SOFA BarycentricPenalityContact)', () => {
  it('merges outputs of equal id keeping the closest, stiffness k1·k2/d, d = contact distances + radii, ages across steps', () => {
    const root = new Node('root');
    const tri = new TriangleCollisionModel(),
      sph = new SphereCollisionModel();
    tri.contactStiffness.value = 20;
    tri.contactDistance.value = 0.05;
    sph.contactStiffness.value = 30;
    sph.listRadius.value = Float64Array.of(0.4, 0.6);
    meshNode(root, 'floor', [0, 0, 0, 2, 0, 0, 0, 2, 0], { triangles: [0, 1, 2] }, tri);
    meshNode(root, 'balls', [0.5, 0.5, 0.5, 1, 0.5, 0.7], {}, sph);
    const method = new NewProximityIntersection();
    method.contactDistance.value = 0.1;
    const c = new PenalityContact(tri, sph, method, method);
    const out = new DetectionOutputs();
    output(out, 0, 0, 7, 0.3, [0.5, 0.5, 0], [0.5, 0.5, 0.5], [0, 0, 1]);
    output(out, 0, 1, 9, 0.2, [1, 0.5, 0], [1, 0.5, 0.7], [0, 0, 1]);
    output(out, 0, 0, 7, 0.1, [0.5, 0.5, 0], [0.5, 0.5, 0.5], [0, 0, 1]); // closer duplicate of id 7: replaces the first
    output(out, 0, 1, 9, 0.25, [1, 0.5, 0], [1, 0.5, 0.7], [0, 0, 1]); // farther duplicate of id 9: dropped
    c.setDetectionOutputs(out);
    const ff = c.ff;
    expect(ff.count).to.equal(2);
    // kept in output order: id 9 (output 1), then id 7 (output 2)
    expect(Array.from(ff.elem2.subarray(0, 2))).to.deep.equal([1, 0]);
    const d1 = 0.1 + 0.05 + 0 + 0.6,
      d0 = 0.1 + 0.05 + 0.4;
    expect(ff.dist[0]).to.be.closeTo(d1, 1e-15);
    expect(ff.dist[1]).to.be.closeTo(d0, 1e-15);
    expect(ff.ks[0]).to.be.closeTo(600 / d1, 1e-12);
    expect(ff.ks[1]).to.be.closeTo(600 / d0, 1e-12);
    // triangle side: barycentric weights of the output point, sphere side: its centre
    expect(Array.from(ff.sides[0].w.subarray(0, 3)).map((w) => +w.toFixed(12))).to.deep.equal([0.25, 0.5, 0.25]);
    expect(ff.sides[1].n[0]).to.equal(1);
    expect(ff.sides[1].idx[0]).to.equal(1);
    expect(Array.from(ff.age.subarray(0, 2))).to.deep.equal([0, 0]);
    // next step: id 7 persists, id 9 disappears, id 3 appears
    const next = new DetectionOutputs();
    output(next, 0, 0, 3, 0.2, [0.5, 0.5, 0], [0.5, 0.5, 0.5], [0, 0, 1]);
    output(next, 0, 0, 7, 0.2, [0.5, 0.5, 0], [0.5, 0.5, 0.5], [0, 0, 1]);
    c.setDetectionOutputs(next);
    expect(ff.count).to.equal(2);
    expect(Array.from(ff.age.subarray(0, 2))).to.deep.equal([0, 1]);
  });

  it('a contact with a model that is not simulated acts on the other state only', () => {
    const root = new Node('root');
    const tri = new TriangleCollisionModel(),
      pts = new PointCollisionModel();
    tri.simulated.value = false;
    meshNode(root, 'floor', [0, 0, 0, 2, 0, 0, 0, 2, 0], { triangles: [0, 1, 2] }, tri);
    meshNode(root, 'p', [0.5, 0.5, 0.1], {}, pts);
    const c = new PenalityContact(tri, pts, new NewProximityIntersection(), tri);
    expect(c.ff.getMechanicalStates()).to.deep.equal([pts.getMechanicalState()]);
  });
});
