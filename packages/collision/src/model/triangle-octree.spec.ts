import { expect } from 'chai';
import { rng } from '../test-support.js';
import { boxMesh } from './box-mesh-test-support.js';
import { rayTriangleIntersection, type RayHit } from './ray-triangle.js';
import { TriangleOctree, type TraceResult } from './triangle-octree.js';

/** The nearest hit over every triangle, in index order (the octree's oracle). */
function bruteForce(x: Float64Array, tri: Uint32Array, o: number[], d: number[]): { tid: number; t: number } {
  const h: RayHit = { t: 0, u: 0, v: 0 };
  let best = { tid: -1, t: Infinity };
  for (let t = 0; t < tri.length / 3; t++) {
    if (!rayTriangleIntersection(x, tri[3 * t], tri[3 * t + 1], tri[3 * t + 2], o[0], o[1], o[2], d[0], d[1], d[2], h)) continue;
    if (h.t < best.t) best = { tid: t, t: h.t };
  }
  return best;
}

/** n random triangles in [−10, 10]³, sizes from 0.01 to 8 (points shared by neighbours). */
function soup(r: () => number, n: number): { x: Float64Array; tri: Uint32Array } {
  const x: number[] = [];
  const tri: number[] = [];
  for (let t = 0; t < n; t++) {
    const c = [10 * r(), 10 * r(), 10 * r()];
    const s = 0.01 * Math.pow(800, 0.5 * (r() + 1));
    const v = x.length / 3;
    for (let k = 0; k < 3; k++) x.push(c[0] + s * r(), c[1] + s * r(), c[2] + s * r());
    tri.push(v, v + 1, v + 2);
  }
  return { x: Float64Array.from(x), tri: Uint32Array.from(tri) };
}

describe('TriangleOctree (ray queries over a triangle mesh)', () => {
  const res: TraceResult = { tid: -1, t: 0, u: 0, v: 0 };

  it('the nearest hit of 3000 random rays (axis-aligned ones too) is that of a test of every triangle', () => {
    const r = rng(3);
    const { x, tri } = soup(r, 600);
    const oct = new TriangleOctree();
    oct.build(x, tri, tri.length / 3);
    expect(oct.nodeCount).to.be.greaterThan(50);
    let hits = 0;
    for (let k = 0; k < 3000; k++) {
      const o = [15 * r(), 15 * r(), 15 * r()];
      const d = [r(), r(), r()];
      if (k % 5 === 0) d[k % 3] = 0;
      if (k % 15 === 0) d[(k + 1) % 3] = 0;
      const ref = bruteForce(x, tri, o, d);
      const got = oct.trace(o[0], o[1], o[2], d[0], d[1], d[2], res);
      expect(got, `ray ${k}`).to.equal(ref.tid);
      if (got >= 0) {
        hits++;
        expect(res.t).to.equal(ref.t);
      }
    }
    expect(hits).to.be.greaterThan(500);
  });

  it('built again on moved points (storage reused), it answers for the new positions', () => {
    const r = rng(5);
    const { x, tri } = soup(r, 200);
    const oct = new TriangleOctree();
    oct.build(x, tri, tri.length / 3);
    for (let i = 0; i < x.length; i++) x[i] = 0.5 * x[i] + 2 * r();
    oct.build(x, tri, tri.length / 3);
    for (let k = 0; k < 500; k++) {
      const o = [12 * r(), 12 * r(), 12 * r()];
      const d = [r(), r(), r()];
      expect(oct.trace(o[0], o[1], o[2], d[0], d[1], d[2], res), `ray ${k}`).to.equal(bruteForce(x, tri, o, d).tid);
    }
  });

  it('rays from the vertices of a closed box along their inward normals leave it where a test of every triangle says', () => {
    const m = boxMesh([-1, -2, 0.5], [1.5, 1, 3]);
    const x = Float64Array.from(m.x),
      tri = Uint32Array.from(m.triangles);
    const oct = new TriangleOctree();
    oct.build(x, tri, tri.length / 3);
    const r = rng(9);
    for (let p = 0; p < x.length / 3; p++) {
      for (let k = 0; k < 20; k++) {
        const o = [x[3 * p], x[3 * p + 1], x[3 * p + 2]];
        // towards the box's inside (its centre, jittered)
        const d = [0.25 + 0.3 * r() - o[0], -0.5 + 0.3 * r() - o[1], 1.75 + 0.3 * r() - o[2]];
        const ref = bruteForce(x, tri, o, d);
        expect(ref.tid, 'a closed box is left').to.be.at.least(0);
        expect(oct.trace(o[0], o[1], o[2], d[0], d[1], d[2], res)).to.equal(ref.tid);
        expect(res.t).to.equal(ref.t);
      }
    }
  });

  it('no hit: a ray pointing away from the mesh, a non-finite ray, an empty mesh', () => {
    const m = boxMesh([0, 0, 0], [1, 1, 1]);
    const oct = new TriangleOctree();
    oct.build(Float64Array.from(m.x), Uint32Array.from(m.triangles), m.triangles.length / 3);
    expect(oct.trace(5, 5, 5, 1, 1, 1, res)).to.equal(-1);
    expect(oct.trace(0.5, 0.5, 0.5, NaN, 0, 1, res)).to.equal(-1);
    expect(oct.trace(0.5, 0.5, 0.5, 0, 0, 0, res), 'zero direction').to.equal(-1);
    expect(oct.trace(0.5, 0.5, 0.5, 0, 0, 1, res), 'from inside').to.be.at.least(0);
    expect(res.t).to.be.closeTo(0.5, 1e-15);
    oct.build(new Float64Array(0), new Uint32Array(0), 0);
    expect(oct.trace(0, 0, 0, 1, 0, 0, res)).to.equal(-1);
  });
});
