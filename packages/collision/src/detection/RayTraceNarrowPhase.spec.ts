import { expect } from 'chai';
import { Node, sceneWarnings } from '@sofa-ts/core';
import { meshNode } from '../test-support.js';
import { boxMesh } from '../model/box-mesh-test-support.js';
import { TriangleCollisionModel } from '../model/TriangleCollisionModel.js';
import { TriangleOctreeCollisionModel } from '../model/TriangleOctreeCollisionModel.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import { NewProximityIntersection } from './NewProximityIntersection.js';
import { RayTraceNarrowPhase } from './RayTraceNarrowPhase.js';

/** A node with a box mesh and its TriangleOctreeCollisionModel, bounding data computed. */
function box(root: Node, name: string, lo: number[], hi: number[]): TriangleOctreeCollisionModel {
  const m = boxMesh(lo, hi);
  const model = new TriangleOctreeCollisionModel();
  meshNode(root, name, m.x, { triangles: m.triangles }, model);
  model.computeBoundingTree(0);
  return model;
}

function detect(a: CollisionModel, b: CollisionModel, root?: Node): RayTraceNarrowPhase {
  const np = new RayTraceNarrowPhase();
  root?.addObject(np);
  np.beginNarrowPhase();
  np.addCollisionPairs([{ a, b }], new NewProximityIntersection());
  return np;
}

function outputsOf(np: RayTraceNarrowPhase, a: CollisionModel, b: CollisionModel) {
  return np.getDetectionOutputs().find((p) => p.a === a && p.b === b)?.outputs;
}

describe('RayTraceNarrowPhase (points of one closed mesh inside another, by rays along their normals)', () => {
  // a 2 × 3 × 4 box whose bottom is δ under the top of a 20 × 20 × 2 slab
  const delta = 0.25;
  const lo = [2, 0.5, -delta],
    hi = [4, 3.5, 4 - delta];

  it('a box sunk δ into a slab: its bottom points, and only they, with the closed-form depth along their normals', () => {
    const root = new Node('root');
    const slab = box(root, 'slab', [-10, -10, -2], [10, 10, 0]);
    const body = box(root, 'body', lo, hi);
    const np = detect(body, slab);
    expect(outputsOf(np, slab, body), 'no slab point is inside the box').to.equal(undefined);
    const out = outputsOf(np, body, slab)!;
    expect(out.count).to.equal(5);
    const seen = new Set<string>();
    for (let k = 0; k < out.count; k++) {
      const P = [out.point0[3 * k], out.point0[3 * k + 1], out.point0[3 * k + 2]];
      const Q = [out.point1[3 * k], out.point1[3 * k + 1], out.point1[3 * k + 2]];
      const n = [out.normal[3 * k], out.normal[3 * k + 1], out.normal[3 * k + 2]];
      expect(P[2]).to.be.closeTo(-delta, 1e-15);
      const corner = [0, 1].map((c) => (P[c] === lo[c] ? -1 : P[c] === hi[c] ? 1 : 0));
      seen.add(`${corner[0]} ${corner[1]}`);
      if (corner[0] === 0 && corner[1] === 0) {
        // the bottom face's own point: normal −z, the slab's top reached after δ
        expect(n).to.deep.equal([0, 0, -1]);
        expect(out.value[k]).to.be.closeTo(-delta, 1e-14);
        expect(Q[0]).to.be.closeTo(P[0], 1e-14);
        expect(Q[1]).to.be.closeTo(P[1], 1e-14);
      } else {
        // a corner: normal (sx, sy, −1)/√3, the ray rises δ over a length √3·δ
        const s = Math.sqrt(3);
        expect(n[0]).to.be.closeTo(corner[0] / s, 1e-15);
        expect(n[1]).to.be.closeTo(corner[1] / s, 1e-15);
        expect(n[2]).to.be.closeTo(-1 / s, 1e-15);
        expect(out.value[k]).to.be.closeTo(-s * delta, 1e-14);
        expect(Q[0]).to.be.closeTo(P[0] - corner[0] * delta, 1e-14);
        expect(Q[1]).to.be.closeTo(P[1] - corner[1] * delta, 1e-14);
      }
      expect(Q[2]).to.be.closeTo(0, 1e-14);
      // the slab's triangle hit holds Q, the box's element holds P
      expect(out.elem2[k]).to.be.within(0, slab.size - 1);
      const t = body.triangles.subarray(3 * out.elem1[k], 3 * out.elem1[k] + 3);
      expect([...t].some((p) => body.x[3 * p] === P[0] && body.x[3 * p + 1] === P[1] && body.x[3 * p + 2] === P[2])).to.equal(true);
    }
    expect([...seen].sort()).to.deep.equal(['-1 -1', '-1 1', '0 0', '1 -1', '1 1']);
  });

  it('no contact when the box is above the slab', () => {
    const root = new Node('root');
    const slab = box(root, 'slab', [-10, -10, -2], [10, 10, 0]);
    const body = box(root, 'body', [2, 0.5, 0.1], [4, 3.5, 4.1]);
    expect(detect(body, slab).getDetectionOutputs()).to.deep.equal([]);
  });

  it("no contact for a box wholly inside another: each ray leaves the box before reaching the other's surface (SOFA's rule)", () => {
    const root = new Node('root');
    const big = box(root, 'big', [-10, -10, -10], [10, 10, 10]);
    const body = box(root, 'body', lo, hi);
    expect(detect(body, big).getDetectionOutputs()).to.deep.equal([]);
  });

  it('a pair with a model that is not a TriangleOctreeCollisionModel gets no contact, with a warning', () => {
    const root = new Node('root');
    const m = boxMesh([-10, -10, -2], [10, 10, 0]);
    const plain = new TriangleCollisionModel();
    meshNode(root, 'slab', m.x, { triangles: m.triangles }, plain);
    plain.computeBoundingTree(0);
    const body = box(root, 'body', lo, hi);
    const np = detect(body, plain, root);
    expect(np.getDetectionOutputs()).to.deep.equal([]);
    expect(
      sceneWarnings(root)
        .map((w) => w.message)
        .join('\n'),
    ).to.match(/only tests pairs of TriangleOctreeCollisionModel/);
  });
});
