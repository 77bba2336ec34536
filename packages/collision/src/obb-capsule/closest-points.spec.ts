import { expect } from 'chai';
import { rng } from '../test-support.js';
import { Closest, segmentPoint, segmentSegment, segmentTriangle, trianglePoint } from './closest-points.js';

const f = (...v: number[]): Float64Array => Float64Array.from(v);
const close = (a: ArrayLike<number>, b: readonly number[], tol = 1e-14): void => {
  for (let k = 0; k < 3; k++) expect(a[k]).to.be.closeTo(b[k], tol);
};
const norm = (a: ArrayLike<number>): number => Math.hypot(a[0], a[1], a[2]);

describe('closest points of capsule axes (closed forms)', () => {
  const c = new Closest();

  it('two skew segments: the feet of their common perpendicular', () => {
    // x axis from −1 to 1, and a segment along y at x = 0.3, z = 2: common perpendicular along z
    segmentSegment(c, f(-1, 0, 0, 1, 0, 0), 0, 3, f(0.3, -1, 2, 0.3, 1, 2), 0, 3);
    close(c.p, [0.3, 0, 0]);
    close(c.q, [0.3, 0, 2]);
    close(c.n, [0, 0, 1]);
    expect(c.d).to.be.closeTo(2, 1e-14);
    expect(c.s).to.be.closeTo(0.65, 1e-14);
    expect(c.t).to.be.closeTo(0.5, 1e-14);
  });

  it('skew segments at 60°: the perpendicular foot by hand', () => {
    // b along (cos 60°, sin 60°, 0) through (0, 0, 1), from −1 to 1 of its length: feet at the origin and (0,0,1)
    const cx = 0.5,
      sy = Math.sqrt(3) / 2;
    segmentSegment(c, f(-2, 0, 0, 2, 0, 0), 0, 3, f(-cx, -sy, 1, cx, sy, 1), 0, 3);
    close(c.p, [0, 0, 0]);
    close(c.q, [0, 0, 1]);
    expect(c.d).to.be.closeTo(1, 1e-14);
  });

  it('segments whose perpendicular feet fall outside: clamped to an end', () => {
    // b beyond the end (1, 0, 0) of a: closest pair (1, 0, 0), (2, 0, 1), distance √2
    segmentSegment(c, f(-1, 0, 0, 1, 0, 0), 0, 3, f(2, -1, 1, 2, 1, 1), 0, 3);
    close(c.p, [1, 0, 0]);
    close(c.q, [2, 0, 1]);
    expect(c.d).to.be.closeTo(Math.SQRT2, 1e-14);
    close(c.n, [Math.SQRT1_2, 0, Math.SQRT1_2]);
  });

  it('crossing segments: distance 0, a unit normal orthogonal to both', () => {
    segmentSegment(c, f(-1, 0, 0, 1, 0, 0), 0, 3, f(0, -1, 0, 0, 1, 0), 0, 3);
    expect(c.d).to.equal(0);
    expect(norm(c.n)).to.be.closeTo(1, 1e-15);
    expect(Math.abs(c.n[2])).to.be.closeTo(1, 1e-15);
  });

  it('a capsule end touching a sphere: the end, the normal along end → centre, distance = r1 + r2', () => {
    // axis (0,0,0)–(0,0,2), r1 = 0.5; centre (0.6, 0, 2.8), r2 = 0.5: |(0.6, 0, 0.8)| = 1 = r1 + r2
    segmentPoint(c, f(0, 0, 0, 0, 0, 2), 0, 3, f(0.6, 0, 2.8), 0);
    expect(c.s).to.equal(1);
    close(c.p, [0, 0, 2]);
    close(c.n, [0.6, 0, 0.8]);
    expect(c.d - 0.5 - 0.5).to.be.closeTo(0, 1e-15);
  });

  it('triangle and point: face, edge and corner regions', () => {
    const t = f(0, 0, 0, 2, 0, 0, 0, 2, 0);
    trianglePoint(c, t, 0, 3, 6, f(0.5, 0.5, 3), 0);
    close(c.p, [0.5, 0.5, 0]);
    expect(c.d).to.be.closeTo(3, 1e-15);
    trianglePoint(c, t, 0, 3, 6, f(2, 2, 0), 0); // beyond the hypotenuse: foot (1, 1, 0)
    close(c.p, [1, 1, 0]);
    expect(c.d).to.be.closeTo(Math.SQRT2, 1e-15);
    trianglePoint(c, t, 0, 3, 6, f(-1, -1, 1), 0); // corner region of (0, 0, 0)
    close(c.p, [0, 0, 0]);
    expect(c.d).to.be.closeTo(Math.sqrt(3), 1e-15);
  });

  it('segment and triangle: apart (end over the face, edge against edge) and crossing', () => {
    const t = f(0, 0, 0, 2, 0, 0, 0, 2, 0);
    segmentTriangle(c, f(0.5, 0.5, 1, 0.5, 0.5, 3), 0, 3, t, 0, 3, 6);
    close(c.p, [0.5, 0.5, 1]);
    close(c.q, [0.5, 0.5, 0]);
    close(c.n, [0, 0, -1]);
    expect(c.d).to.be.closeTo(1, 1e-15);
    // a segment parallel to the hypotenuse's normal plane, over x + y = 3 at z = 0: foot on the edge
    segmentTriangle(c, f(1.5, 1.5, -1, 1.5, 1.5, 1), 0, 3, t, 0, 3, 6);
    close(c.p, [1.5, 1.5, 0]);
    close(c.q, [1, 1, 0]);
    expect(c.d).to.be.closeTo(Math.SQRT1_2, 1e-15);
    // through the face, 0.2 below and 1 above: the lower end is brought back, d = −0.2
    segmentTriangle(c, f(0.5, 0.5, -0.2, 0.5, 0.5, 1), 0, 3, t, 0, 3, 6);
    close(c.p, [0.5, 0.5, -0.2]);
    close(c.q, [0.5, 0.5, 0]);
    expect(c.d).to.be.closeTo(-0.2, 1e-15);
    close(c.n, [0, 0, -1]); // the segment lies mostly above: the triangle is towards −z of it
    for (let k = 0; k < 3; k++) expect(c.q[k] - c.p[k]).to.be.closeTo(c.d * c.n[k], 1e-15);
  });

  it('segment–segment agrees with a dense search of (s, t) (random pairs)', () => {
    const r = rng(11);
    const a = new Float64Array(6),
      b = new Float64Array(6);
    for (let trial = 0; trial < 30; trial++) {
      for (let k = 0; k < 6; k++) ((a[k] = 2 * r()), (b[k] = 2 * r()));
      segmentSegment(c, a, 0, 3, b, 0, 3);
      let best = Infinity;
      const N = 200;
      for (let i = 0; i <= N; i++)
        for (let j = 0; j <= N; j++) {
          const s = i / N,
            t = j / N;
          let d2 = 0;
          for (let k = 0; k < 3; k++) d2 += (a[k] + s * (a[3 + k] - a[k]) - b[k] - t * (b[3 + k] - b[k])) ** 2;
          best = Math.min(best, d2);
        }
      expect(c.d).to.be.at.most(Math.sqrt(best) + 1e-12);
      expect(Math.sqrt(best) - c.d).to.be.below(0.03);
      expect(norm(c.n)).to.be.closeTo(1, 1e-14);
      for (let k = 0; k < 3; k++) expect(c.q[k] - c.p[k]).to.be.closeTo(c.d * c.n[k], 1e-13);
    }
  });
});
