import { expect } from 'chai';
import { cableArea, closestPointOnTriangle, closestSurfacePoint } from './cable-action-area.js';

/**
 * The pulled areas of CableConstraint's sphere and geodesic methods on a flat triangulated grid,
 * whose shortest edge paths and discs have closed forms; the closest point of a triangle against a
 * dense sampling of it.
 */

/** An (n+1)×(n+1) grid of unit squares in z = 0, each split along the diagonal (i, j)–(i+1, j+1). */
function grid(n: number): { positions: Float64Array; triangles: Uint32Array; id: (i: number, j: number) => number } {
  const id = (i: number, j: number): number => j * (n + 1) + i;
  const positions = new Float64Array(3 * (n + 1) * (n + 1));
  for (let j = 0; j <= n; j++)
    for (let i = 0; i <= n; i++) {
      positions[3 * id(i, j)] = i;
      positions[3 * id(i, j) + 1] = j;
    }
  const tris: number[] = [];
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) tris.push(id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j), id(i + 1, j + 1), id(i, j + 1));
  return { positions, triangles: Uint32Array.from(tris), id };
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 4294967296;
}

describe('cable pulled areas (CableConstraint method sphere / geodesic)', () => {
  it('geodesic: the weights are r − d over their sum, d the shortest path along the edges (closed form on a grid)', () => {
    const g = grid(8);
    const c = g.id(4, 4);
    const r = 3.2;
    const area = cableArea(g, 'geodesic', c, g.positions.subarray(3 * c, 3 * c + 3), r, undefined);
    // edges: unit steps and the diagonals (+1, +1): from (4, 4) to (4 + a, 4 + b) the path is
    // max(|a|, |b|) − min + min·√2 when a, b have the same sign, |a| + |b| otherwise
    const expected = new Map<number, number>();
    for (let j = 0; j <= 8; j++)
      for (let i = 0; i <= 8; i++) {
        const a = i - 4,
          b = j - 4;
        const d =
          a * b > 0
            ? Math.max(Math.abs(a), Math.abs(b)) - Math.min(Math.abs(a), Math.abs(b)) + Math.min(Math.abs(a), Math.abs(b)) * Math.SQRT2
            : Math.abs(a) + Math.abs(b);
        if (d < r) expected.set(g.id(i, j), r - d);
      }
    const total = [...expected.values()].reduce((s, w) => s + w, 0);
    expect(Array.from(area.points)).to.deep.equal([...expected.keys()].sort((p, q) => p - q));
    area.points.forEach((p, k) => expect(area.weights[k]).to.be.closeTo(expected.get(p)! / total, 1e-15));
    expect(area.weights.reduce((s, w) => s + w, 0)).to.be.closeTo(1, 1e-14);
  });

  it('sphere: the connected points within r of the attachment, weighted by r − |p − a| (closed form: a disc)', () => {
    const g = grid(8);
    const c = g.id(3, 5);
    const r = 2.5;
    const area = cableArea(g, 'sphere', c, g.positions.subarray(3 * c, 3 * c + 3), r, undefined);
    const inside: number[] = [];
    for (let j = 0; j <= 8; j++) for (let i = 0; i <= 8; i++) if (Math.hypot(i - 3, j - 5) < r) inside.push(g.id(i, j));
    expect(Array.from(area.points)).to.deep.equal(inside.sort((p, q) => p - q));
    const w = inside.map((p) => r - Math.hypot(g.positions[3 * p] - 3, g.positions[3 * p + 1] - 5));
    const total = w.reduce((s, x) => s + x, 0);
    area.points.forEach((p, k) => expect(area.weights[k]).to.be.closeTo(w[inside.indexOf(p)] / total, 1e-15));
  });

  it('sphere: a point of the disc that the surface does not connect to the attachment is not pulled', () => {
    // two strips of the grid side by side, not sharing points: the second is within r but apart
    const a = grid(2);
    const positions = new Float64Array(2 * a.positions.length);
    positions.set(a.positions);
    for (let k = 0; k < a.positions.length; k += 3) {
      positions[a.positions.length + k] = a.positions[k] + 2.5;
      positions[a.positions.length + k + 1] = a.positions[k + 1];
    }
    const n = a.positions.length / 3;
    const triangles = Uint32Array.from([...a.triangles, ...Array.from(a.triangles, (t) => t + n)]);
    const c = a.id(2, 1);
    const area = cableArea({ positions, triangles }, 'sphere', c, positions.subarray(3 * c, 3 * c + 3), 1.2, undefined);
    for (const p of area.points) expect(p).to.be.lessThan(n);
  });

  it('geodesic from a centre off the vertices: the three corners of the closest triangle start at |c − c′| + |c′ − t|', () => {
    const g = grid(6);
    const center = Float64Array.of(2.7, 2.2, 0.4); // above the triangle (2, 2), (3, 2), (3, 3)
    const v = closestSurfacePoint(g.positions, center);
    expect(v).to.equal(g.id(3, 2));
    const r = 1.5;
    const area = cableArea(g, 'geodesic', v, g.positions.subarray(3 * v, 3 * v + 3), r, center);
    // c′ = (2.7, 2.2, 0), at 0.4 from c; the corners at 0.4 + their in-plane distances (1.26, 0.76, 1.2); one edge more is beyond r
    const start = (i: number, j: number): number => 0.4 + Math.hypot(i - 2.7, j - 2.2);
    const expected = [
      [2, 2],
      [3, 2],
      [3, 3],
    ]
      .map(([i, j]) => [g.id(i, j), r - start(i, j)] as const)
      .filter(([, w]) => w > 0);
    const total = expected.reduce((s, [, w]) => s + w, 0);
    expect(Array.from(area.points)).to.deep.equal(expected.map(([p]) => p).sort((p, q) => p - q));
    for (const [p, w] of expected) expect(area.weights[area.points.indexOf(p)]).to.be.closeTo(w / total, 1e-15);
  });

  it('closestPointOnTriangle: no sampled point of the triangle is closer (random triangles and points)', () => {
    const rand = rng(7);
    const out = new Float64Array(3);
    for (let t = 0; t < 200; t++) {
      const a = [rand(), rand(), rand()],
        b = [rand(), rand(), rand()],
        c = [rand(), rand(), rand()];
      const p = [3 * rand() - 1, 3 * rand() - 1, 3 * rand() - 1];
      const d = closestPointOnTriangle(p, a, b, c, out);
      let best = Infinity;
      const N = 60;
      for (let i = 0; i <= N; i++)
        for (let j = 0; i + j <= N; j++) {
          const u = i / N,
            v = j / N;
          const q = [0, 1, 2].map((k) => a[k] + u * (b[k] - a[k]) + v * (c[k] - a[k]));
          best = Math.min(best, Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
        }
      expect(d).to.be.at.most(best + 1e-12);
      expect(best - d).to.be.lessThan(0.03); // the sampling's resolution
    }
  });
});
