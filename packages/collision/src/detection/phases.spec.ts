import { expect } from 'chai';
import { Node } from '@sofa-ts/core';
import { rng, meshNode } from '../test-support.js';
import { CubeTree } from '../model/cube-tree.js';
import { TriangleCollisionModel } from '../model/TriangleCollisionModel.js';
import { LineCollisionModel } from '../model/LineCollisionModel.js';
import { PointCollisionModel } from '../model/PointCollisionModel.js';
import { SphereCollisionModel } from '../model/SphereCollisionModel.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import { BVHNarrowPhase } from './BVHNarrowPhase.js';
import { BruteForceBroadPhase } from './BruteForceBroadPhase.js';
import { SweepAndPruneBroadPhase } from './SweepAndPruneBroadPhase.js';
import { NewProximityIntersection } from './NewProximityIntersection.js';
import { MinProximityIntersection } from './MinProximityIntersection.js';
import { DetectionOutputs } from './detection-outputs.js';
import type { IntersectionMethod } from './intersection-method.js';
import type { ModelPair } from './broad-phase.js';

/** A soup of n random triangles around `centre` (points shared between neighbours). */
function soup(r: () => number, n: number, centre: number[], size: number): { x: number[]; triangles: number[] } {
  const x: number[] = [];
  const triangles: number[] = [];
  for (let i = 0; i < n + 2; i++) x.push(centre[0] + size * r(), centre[1] + size * r(), centre[2] + size * r());
  for (let i = 0; i < n; i++) triangles.push(i, i + 1, i + 2);
  return { x, triangles };
}

/** Outputs as sorted comparable rows. */
function rows(out: DetectionOutputs): string[] {
  const r: string[] = [];
  for (let k = 0; k < out.count; k++) r.push(`${out.elem1[k]} ${out.elem2[k]} ${out.id[k]} ${out.value[k].toPrecision(12)}`);
  return r.sort();
}

/** Every element pair through the method's test (the narrow phase's oracle). */
function allPairs(a: CollisionModel, b: CollisionModel, method: IntersectionMethod): DetectionOutputs {
  const found = method.findIntersector(a.kind, b.kind)!;
  const [m1, m2] = found.swap ? [b, a] : [a, b];
  const out = new DetectionOutputs();
  for (let i = 0; i < m1.size; i++) for (let j = 0; j < m2.size; j++) found.test(m1, i, m2, j, out);
  return out;
}

describe('collision bounding trees and phases', () => {
  it('CubeTree: boxes contain their children, each leaf is reached once, cubes over more than 4 leaves are split', () => {
    const r = rng(11);
    for (const n of [1, 3, 5, 17, 100, 257]) {
      for (const depth of [0, 2, 6]) {
        const t = new CubeTree();
        t.reset(n);
        const boxes = new Float64Array(6 * n);
        for (let e = 0; e < n; e++) {
          for (let c = 0; c < 3; c++) {
            const p = 10 * r();
            boxes[6 * e + c] = p - Math.abs(r());
            boxes[6 * e + 3 + c] = p + Math.abs(r());
          }
        }
        t.setElementBoxes(boxes);
        t.compute(depth);
        expect(t.levels.length).to.equal(depth + 1);
        const reached = new Int32Array(n);
        const visit = (level: number, c: number): void => {
          if (level === t.leafLevel) {
            reached[t.leafElement[c]]++;
            for (let k = 0; k < 6; k++) expect(t.leafBox[6 * c + k]).to.equal(boxes[6 * t.leafElement[c] + k]);
            return;
          }
          const L = t.levels[level];
          const sub = L.subLevel[c];
          if (sub === t.leafLevel && level + 1 < t.levels.length) expect(L.subEnd[c] - L.subBegin[c]).to.be.at.most(4);
          const sb = t.boxesOf(sub);
          for (let s = L.subBegin[c]; s < L.subEnd[c]; s++) {
            for (let k = 0; k < 3; k++) {
              expect(sb[6 * s + k]).to.be.at.least(L.box[6 * c + k]);
              expect(sb[6 * s + 3 + k]).to.be.at.most(L.box[6 * c + 3 + k]);
            }
            visit(sub, s);
          }
        };
        visit(0, 0);
        expect(Array.from(reached).every((v) => v === 1)).to.equal(true);
        for (let e = 0; e < n; e++) expect(t.leafElement[t.leafOf[e]]).to.equal(e);
      }
    }
  });

  it('BVHNarrowPhase finds exactly the outputs of all element pairs (NewProximity triangles, moving models)', () => {
    const r = rng(5);
    const root = new Node('root');
    const sa = soup(r, 60, [0, 0, 0], 1);
    const sb = soup(r, 45, [0.8, 0.3, 0], 1);
    const A = new TriangleCollisionModel(),
      B = new TriangleCollisionModel();
    meshNode(root, 'a', sa.x, { triangles: sa.triangles }, A);
    meshNode(root, 'b', sb.x, { triangles: sb.triangles }, B);
    const method = new NewProximityIntersection();
    method.alarmDistance.value = 0.3;
    method.contactDistance.value = 0.1;
    method.useLineLine.value = true;
    const narrow = new BVHNarrowPhase();
    for (let step = 0; step < 3; step++) {
      A.computeBoundingTree(6);
      B.computeBoundingTree(6);
      narrow.beginNarrowPhase();
      narrow.addCollisionPairs([{ a: B, b: A }], method);
      const got = narrow.getDetectionOutputs();
      expect(got.length).to.equal(1);
      const expected = rows(allPairs(B, A, method));
      expect(expected.length).to.be.greaterThan(20);
      expect(rows(got[0].outputs)).to.deep.equal(expected);
      // move model a (the tree is refitted, not rebuilt)
      const x = A.getMechanicalState().x;
      for (let i = 0; i < x.length; i++) x[i] += 0.05 * r();
    }
  });

  it('BVHNarrowPhase finds exactly the outputs of all element pairs (MinProximity triangle/line/point models)', () => {
    const r = rng(8);
    const root = new Node('root');
    const sa = soup(r, 40, [0, 0, 0], 1);
    const sb = soup(r, 40, [0.5, 0.5, 0.2], 1);
    const [TA, LA, PA] = [new TriangleCollisionModel(), new LineCollisionModel(), new PointCollisionModel()];
    const [TB, LB, PB] = [new TriangleCollisionModel(), new LineCollisionModel(), new PointCollisionModel()];
    meshNode(root, 'a', sa.x, { triangles: sa.triangles }, TA, LA, PA);
    meshNode(root, 'b', sb.x, { triangles: sb.triangles }, TB, LB, PB);
    const method = new MinProximityIntersection();
    method.alarmDistance.value = 0.25;
    method.contactDistance.value = 0.1;
    const narrow = new BVHNarrowPhase();
    const models = [TA, LA, PA, TB, LB, PB];
    for (const m of models) m.computeBoundingTree(4);
    for (const a of [TA, LA, PA]) {
      for (const b of [TB, LB, PB]) {
        narrow.beginNarrowPhase();
        narrow.addCollisionPairs([{ a: b, b: a }], method);
        const got = narrow.getDetectionOutputs();
        if (!method.findIntersector(a.kind, b.kind)) {
          expect(got.length).to.equal(0);
          continue;
        }
        const expected = rows(allPairs(b, a, method));
        expect(rows(got[0]?.outputs ?? new DetectionOutputs())).to.deep.equal(expected);
      }
    }
  });

  it('SweepAndPruneBroadPhase gives the pairs of BruteForceBroadPhase, in the same order, on random scenes', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const r = rng(seed);
      const root = new Node('root');
      const models: SphereCollisionModel[] = [];
      const n = 5 + Math.floor(60 * Math.abs(r()));
      for (let k = 0; k < n; k++) {
        const m = new SphereCollisionModel();
        m.name.value = `sphere${k}`;
        m.radius.value = 0.1 + 0.5 * Math.abs(r());
        m.contactDistance.value = Math.abs(r()) < 0.2 ? 0.2 * Math.abs(r()) : 0;
        if (Math.abs(r()) < 0.2) m.simulated.value = false;
        if (Math.abs(r()) < 0.2) m.group.value = Int32Array.of(Math.floor(3 * Math.abs(r())));
        if (Math.abs(r()) < 0.1) m.selfCollision.value = true;
        const pts: number[] = [];
        const c = [8 * r(), 8 * r(), 2 * r()];
        for (let i = 0; i < 3; i++) pts.push(c[0] + r(), c[1] + r(), c[2] + r());
        meshNode(root, `m${k}`, pts, {}, m);
        if (Math.abs(r()) < 0.1) m.active.value = false;
        m.computeBoundingTree(0);
        models.push(m);
      }
      const method = new NewProximityIntersection();
      method.alarmDistance.value = 0.5 * Math.abs(r());
      const active = models.filter((m) => m.isActive);
      const brute: ModelPair[] = [],
        sap: ModelPair[] = [];
      new BruteForceBroadPhase().computePairs(active, method, brute);
      new SweepAndPruneBroadPhase().computePairs(active, method, sap);
      expect(brute.length).to.be.greaterThan(0);
      expect(sap.map((p) => [p.a.getName(), p.b.getName()])).to.deep.equal(brute.map((p) => [p.a.getName(), p.b.getName()]));
    }
  });
});
