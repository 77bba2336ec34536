import { expect } from 'chai';
import { sceneWarnings } from '@sofa-ts/core';
import { meshNode, rng } from '../test-support.js';
import { LineCollisionModel } from '../model/LineCollisionModel.js';
import { TriangleCollisionModel } from '../model/TriangleCollisionModel.js';
import { ContactSide, triangleCoordinates } from './contact-points.js';

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const lerp = (a: V, b: V, t: number): V => [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2])];
const dist2 = (a: V, b: V): number => dot(sub(a, b), sub(a, b));

/** (u, v) of Q in triangle (A, B, C) by triangleCoordinates. */
function coords(A: V, B: V, C: V, Q: V): [number, number] {
  const AB = sub(B, A),
    AC = sub(C, A),
    AQ = sub(Q, A);
  const out = new Float64Array(2);
  triangleCoordinates(dot(AQ, AB), dot(AQ, AC), dot(AB, AB), dot(AC, AC), dot(AB, AC), out);
  return [out[0], out[1]];
}

/** Closest point of segment [a, b] to q. */
function closestOnSegment(a: V, b: V, q: V): V {
  const ab = sub(b, a);
  const t = Math.min(1, Math.max(0, dot(sub(q, a), ab) / dot(ab, ab)));
  return lerp(a, b, t);
}

describe('contact points on triangles (SOFA createPointInTriangle)', () => {
  // Right triangle in the plane z = 0: A at the origin, AB along x (length 2), AC along y (length 1).
  const A: V = [0, 0, 0],
    B: V = [2, 0, 0],
    C: V = [0, 1, 0];

  it('a point above the triangle gets the coordinates of its projection', () => {
    const [u, v] = coords(A, B, C, [0.4, 0.3, 0.7]); // projection A + 0.2·AB + 0.3·AC
    expect(u).to.be.closeTo(0.2, 1e-15);
    expect(v).to.be.closeTo(0.3, 1e-15);
  });

  it("a projection outside is moved to the corner or edge of SOFA's rule (closed forms)", () => {
    expect(coords(A, B, C, [-1, -1, 0.5])).to.deep.equal([0, 0]); // behind A
    const ab = coords(A, B, C, [0.8, -0.3, 0.5]); // beyond AB, foot at x = 0.8
    expect(ab[0]).to.be.closeTo(0.4, 1e-15);
    expect(ab[1]).to.equal(0);
    const ac = coords(A, B, C, [-0.5, 0.6, 0]); // beyond AC, foot at y = 0.6
    expect(ac[0]).to.equal(0);
    expect(ac[1]).to.be.closeTo(0.6, 1e-15);
    // beyond BC: BQ·BC/|BC|² = ((−0.5, 1)·(−2, 1))/5 = 0.4 → B + 0.4·BC = 0.6·B + 0.4·C
    const bc = coords(A, B, C, [1.5, 1, 0]);
    expect(bc[0]).to.be.closeTo(0.6, 1e-15);
    expect(bc[1]).to.be.closeTo(0.4, 1e-15);
    expect(coords(A, B, C, [3, -0.5, 0])).to.deep.equal([1, 0]); // past B
    expect(coords(A, B, C, [-0.2, 2, 0])).to.deep.equal([0, 1]); // past C
  });

  it('on an acute triangle, gives the closest point of the triangle to the projection (random points)', () => {
    const r = rng(7);
    const P: V = [0.1, -0.2, 0.3],
      Q: V = [2.1, 0.3, 0.1],
      R: V = [0.9, 1.8, -0.2];
    // acute: every corner's edge vectors have a positive dot product
    expect(dot(sub(Q, P), sub(R, P))).to.be.greaterThan(0);
    expect(dot(sub(P, Q), sub(R, Q))).to.be.greaterThan(0);
    expect(dot(sub(P, R), sub(Q, R))).to.be.greaterThan(0);
    const AB = sub(Q, P),
      AC = sub(R, P);
    const n: V = [AB[1] * AC[2] - AB[2] * AC[1], AB[2] * AC[0] - AB[0] * AC[2], AB[0] * AC[1] - AB[1] * AC[0]];
    let outside = 0;
    for (let k = 0; k < 400; k++) {
      const q: V = [1 + 2.5 * r(), 0.6 + 2.5 * r(), 2 * r()];
      const [u, v] = coords(P, Q, R, q);
      const got: V = [0, 1, 2].map((i) => P[i] + u * AB[i] + v * AC[i]) as V;
      // independent: project on the plane, keep it if inside, else the closest point of the three edges
      const s = dot(sub(q, P), n) / dot(n, n);
      const proj: V = [q[0] - s * n[0], q[1] - s * n[1], q[2] - s * n[2]];
      const signs = [
        [P, Q],
        [Q, R],
        [R, P],
      ].map(([a, b]) => {
        const e = sub(b!, a!),
          w = sub(proj, a!);
        return dot([e[1] * w[2] - e[2] * w[1], e[2] * w[0] - e[0] * w[2], e[0] * w[1] - e[1] * w[0]], n);
      });
      let want = proj;
      if (signs.some((x) => x < 0)) {
        outside++;
        const cands = [closestOnSegment(P, Q, proj), closestOnSegment(Q, R, proj), closestOnSegment(R, P, proj)];
        want = cands.reduce((best, c) => (dist2(c, proj) < dist2(best, proj) ? c : best));
      }
      for (let i = 0; i < 3; i++) expect(got[i]).to.be.closeTo(want[i], 1e-12);
    }
    expect(outside).to.be.greaterThan(100);
  });

  it('ContactSide.attach weights a triangle point by those coordinates (1 − u − v, u, v)', () => {
    const tri = new TriangleCollisionModel();
    meshNode(undefined, 'floor', [...A, ...B, ...C], { triangles: [0, 1, 2] }, tri);
    const side = new ContactSide();
    side.attach(0, tri, 0, [0.8, -0.3, 0.5], 0); // beyond AB: the point of AB at x = 0.8
    expect(side.n[0]).to.equal(3);
    expect(Array.from(side.idx.subarray(0, 3))).to.deep.equal([0, 1, 2]);
    const w = Array.from(side.w.subarray(0, 3));
    expect(w[0]).to.be.closeTo(0.6, 1e-15);
    expect(w[1]).to.be.closeTo(0.4, 1e-15);
    expect(w[2]).to.equal(0);
  });
});

describe('contact points on segments (SOFA createPointInLine)', () => {
  it('weights a point by f = (P − a)·(b − a)/|b − a|² (closed form)', () => {
    const line = new LineCollisionModel();
    meshNode(undefined, 'wire', [1, 0, 0, 5, 0, 0], { edges: [0, 1] }, line);
    const side = new ContactSide();
    side.attach(0, line, 0, [2, 0.5, 0], 0);
    expect(side.n[0]).to.equal(2);
    expect(Array.from(side.w.subarray(0, 2))).to.deep.equal([0.75, 0.25]);
  });

  it('a segment of zero length gets finite weights that give its point, and says so', () => {
    const line = new LineCollisionModel();
    const node = meshNode(undefined, 'wire', [3, 1, 2, 3, 1, 2], { edges: [0, 1] }, line);
    const side = new ContactSide();
    side.attach(0, line, 0, [3, 1, 2], 0);
    const w = Array.from(side.w.subarray(0, 2));
    expect(w.every(Number.isFinite)).to.equal(true);
    expect(w[0] + w[1]).to.equal(1);
    expect(
      sceneWarnings(node)
        .map((e) => e.message)
        .join('\n'),
    ).to.match(/segment of zero length/);
  });
});
