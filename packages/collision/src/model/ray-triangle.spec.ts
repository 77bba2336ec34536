import { expect } from 'chai';
import { rng } from '../test-support.js';
import { rayTriangleIntersection, type RayHit } from './ray-triangle.js';

/**
 * Oracle of another construction: the plane of the triangle, t = n·(p1 − o)/(n·d), then (u, v) of
 * the point X = o + t·d from the 2×2 normal equations of X − p1 = u·e1 + v·e2.
 */
function planeHit(p: number[], o: number[], d: number[]): { t: number; u: number; v: number } | undefined {
  const e1 = [p[3] - p[0], p[4] - p[1], p[5] - p[2]];
  const e2 = [p[6] - p[0], p[7] - p[1], p[8] - p[2]];
  const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
  const dot = (a: number[], b: number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const nd = dot(n, d);
  if (nd === 0) return undefined;
  const t = dot(n, [p[0] - o[0], p[1] - o[1], p[2] - o[2]]) / nd;
  const w = [o[0] + t * d[0] - p[0], o[1] + t * d[1] - p[1], o[2] + t * d[2] - p[2]];
  const a11 = dot(e1, e1),
    a12 = dot(e1, e2),
    a22 = dot(e2, e2);
  const b1 = dot(w, e1),
    b2 = dot(w, e2);
  const det = a11 * a22 - a12 * a12;
  return { t, u: (b1 * a22 - b2 * a12) / det, v: (a11 * b2 - a12 * b1) / det };
}

describe('ray–triangle intersection (SOFA geometry::Triangle::rayIntersection)', () => {
  const hit: RayHit = { t: 0, u: 0, v: 0 };

  it('a hand-computed hit: triangle (0,0,1) (2,0,1) (0,2,1), ray (0.5, 0.25, −1) + t·(0, 0, 2) → t = 1, u = 0.25, v = 0.125', () => {
    const x = [0, 0, 1, 2, 0, 1, 0, 2, 1];
    expect(rayTriangleIntersection(x, 0, 1, 2, 0.5, 0.25, -1, 0, 0, 2, hit)).to.equal(true);
    expect(hit.t).to.be.closeTo(1, 1e-15);
    expect(hit.u).to.be.closeTo(0.25, 1e-15);
    expect(hit.v).to.be.closeTo(0.125, 1e-15);
  });

  it('misses: a ray parallel to the plane, a triangle behind the origin, a point beside it, an origin on the triangle (t = 0)', () => {
    const x = [0, 0, 1, 2, 0, 1, 0, 2, 1];
    expect(rayTriangleIntersection(x, 0, 1, 2, 0.5, 0.25, 0, 1, 0, 0, hit), 'parallel').to.equal(false);
    expect(rayTriangleIntersection(x, 0, 1, 2, 0.5, 0.25, 2, 0, 0, 1, hit), 'behind').to.equal(false);
    expect(rayTriangleIntersection(x, 0, 1, 2, 1.5, 1.5, -1, 0, 0, 1, hit), 'beside (u + v = 1.5)').to.equal(false);
    expect(rayTriangleIntersection(x, 0, 1, 2, -0.1, 0.5, -1, 0, 0, 1, hit), 'beside (u < 0)').to.equal(false);
    expect(rayTriangleIntersection(x, 0, 1, 2, 0.5, 0.5, 1, 0, 0, 1, hit), 'origin on it').to.equal(false);
  });

  it('a ray through an edge or a vertex hits (the triangle is closed)', () => {
    const x = [0, 0, 1, 2, 0, 1, 0, 2, 1];
    expect(rayTriangleIntersection(x, 0, 1, 2, 1, 1, 0, 0, 0, 1, hit)).to.equal(true);
    expect(hit.u + hit.v).to.be.closeTo(1, 1e-15);
    expect(rayTriangleIntersection(x, 0, 1, 2, 2, 0, 0, 0, 0, 1, hit)).to.equal(true);
    expect(hit.u).to.be.closeTo(1, 1e-15);
  });

  it('equals the plane-and-normal-equations construction on 2000 random triangles and rays', () => {
    const r = rng(7);
    let hits = 0,
      misses = 0;
    for (let k = 0; k < 2000; k++) {
      const p = Array.from({ length: 9 }, () => 3 * r());
      const o = [4 * r(), 4 * r(), 4 * r()];
      // half the rays aimed near the triangle (around its parameter square [−0.3, 1.3]²)
      const a = 0.8 * r() + 0.5,
        b = 0.8 * r() + 0.5;
      const d = k % 2 === 0 ? [0, 1, 2].map((c) => p[c] + a * (p[3 + c] - p[c]) + b * (p[6 + c] - p[c]) - o[c]) : [r(), r(), r()];
      const ref = planeHit(p, o, d);
      const got = rayTriangleIntersection(p, 0, 1, 2, o[0], o[1], o[2], d[0], d[1], d[2], hit);
      if (!ref) continue;
      // away from the borders, where rounding decides
      const margin = Math.min(Math.abs(ref.u), Math.abs(ref.v), Math.abs(1 - ref.u - ref.v), Math.abs(ref.t));
      if (margin < 1e-6) continue;
      const inside = ref.u > 0 && ref.v > 0 && ref.u + ref.v < 1 && ref.t > 0;
      expect(got, `ray ${k}`).to.equal(inside);
      if (!inside) {
        misses++;
        continue;
      }
      hits++;
      expect(hit.t).to.be.closeTo(ref.t, 1e-9 * Math.max(1, Math.abs(ref.t)));
      expect(hit.u).to.be.closeTo(ref.u, 1e-9);
      expect(hit.v).to.be.closeTo(ref.v, 1e-9);
    }
    expect(hits).to.be.greaterThan(150);
    expect(misses).to.be.greaterThan(100);
  });
});
