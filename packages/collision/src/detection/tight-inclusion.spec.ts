import { expect } from 'chai';
import { TightInclusionCCD } from './tight-inclusion.js';

/**
 * The Tight-Inclusion root finder against closed forms: a point crossing a triangle at a known time
 * (moving point, moving triangle, minimum separation), edges crossing, misses, coplanar and
 * degenerate motions, and the conservative bound (never later than the true time, by at most the
 * tolerance earlier) on random crossings and on a rotating triangle whose coplanarity time is found
 * by bisection of the triple product.
 */

type V = readonly [number, number, number];

/** Query input: 4 points at t = 0, then at t = 1. */
function query(s: readonly V[], e: readonly V[]): Float64Array {
  return Float64Array.from([...s.flat(), ...e.flat()]);
}

/** Boxes per query: enough for the point-like root sets below to reach the tolerance. */
const LIMIT = 100000;

describe('TightInclusionCCD', () => {
  const ccd = new TightInclusionCCD();
  const tri: V[] = [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
  ];

  it('vertex-face: a point crossing a fixed triangle at t = 0.5 (conservative, within the tolerance)', () => {
    const q = query([[0.2, 0.3, 1], ...tri], [[0.2, 0.3, -1], ...tri]);
    expect(ccd.vertexFaceCCD(q, 0, 1e-6, 1, LIMIT)).to.equal(true);
    expect(ccd.toi).to.be.at.most(0.5);
    expect(ccd.toi).to.be.at.least(0.5 - 1e-6);
  });

  it('vertex-face with a minimum separation: contact when the point is ms above the plane (t = (1 − ms)/2)', () => {
    // The roots fill a volume whose earliest face is refined level by level: the search ends at the
    // iteration limit with the first box of its last level (conservative, coarser with fewer boxes).
    const ms = 0.1;
    const q = query([[0.2, 0.3, 1], ...tri], [[0.2, 0.3, -1], ...tri]);
    expect(ccd.vertexFaceCCD(q, ms, 1e-8, 1, 20000)).to.equal(true);
    expect(ccd.hitMaxIterations).to.equal(true);
    expect(ccd.toi).to.be.at.most(0.45);
    expect(ccd.toi).to.be.at.least(0.45 - 0.02);
    expect(ccd.vertexFaceCCD(q, ms, 1e-8, 1, 100)).to.equal(true);
    expect(ccd.toi).to.be.at.most(0.45);
    // already within ms at the start: time 0
    const close = query([[0.2, 0.3, 0.05], ...tri], [[0.2, 0.3, 0.01], ...tri]);
    expect(ccd.vertexFaceCCD(close, ms, 1e-8, 1, LIMIT)).to.equal(true);
    expect(ccd.toi).to.equal(0);
  });

  it('vertex-face: a triangle moving up through a fixed point (t = 0.25)', () => {
    const up = (z: number): V[] => tri.map(([x, y]) => [x, y, z] as V);
    const p: V = [0.1, 0.1, 0];
    const q = query([p, ...up(-1)], [p, ...up(3)]);
    expect(ccd.vertexFaceCCD(q, 0, 1e-7, 1, LIMIT)).to.equal(true);
    expect(ccd.toi).to.be.at.most(0.25);
    expect(ccd.toi).to.be.at.least(0.25 - 1e-6);
  });

  it('vertex-face: t_max cuts the motion', () => {
    const q = query([[0.2, 0.3, 1], ...tri], [[0.2, 0.3, -1], ...tri]);
    expect(ccd.vertexFaceCCD(q, 0, 1e-6, 0.4, LIMIT)).to.equal(false);
    expect(ccd.vertexFaceCCD(q, 0, 1e-6, 0.6, LIMIT)).to.equal(true);
  });

  it('vertex-face misses: beside the triangle (u + v > 1), parallel above it, moving away', () => {
    expect(ccd.vertexFaceCCD(query([[0.8, 0.8, 1], ...tri], [[0.8, 0.8, -1], ...tri]), 0, 1e-6, 1, LIMIT)).to.equal(false);
    expect(ccd.vertexFaceCCD(query([[-1, 0.2, 0.5], ...tri], [[2, 0.2, 0.5], ...tri]), 0, 1e-6, 1, LIMIT)).to.equal(false);
    expect(ccd.vertexFaceCCD(query([[0.2, 0.2, 0.1], ...tri], [[0.2, 0.2, 1], ...tri]), 0, 1e-6, 1, LIMIT)).to.equal(false);
    // a near miss beside the hypotenuse, 1e-3 away, with ms below and above that gap
    const near = query([[0.5005, 0.5005, 1], ...tri], [[0.5005, 0.5005, -1], ...tri]);
    expect(ccd.vertexFaceCCD(near, 0, 1e-9, 1, LIMIT)).to.equal(false);
    expect(ccd.vertexFaceCCD(near, 2e-3, 1e-9, 1, 20000)).to.equal(true);
    expect(ccd.toi).to.be.at.most(0.5 - 1e-3);
  });

  it('vertex-face, degenerate motions: a point sliding in the plane of the triangle enters it at t = 0.5', () => {
    // the roots form a curve: the level-by-level search needs the iteration limit to stop, and its
    // answer is then the conservative time of the first box of the last level
    const q = query([[-1, 0.2, 0], ...tri], [[1, 0.2, 0], ...tri]);
    expect(ccd.vertexFaceCCD(q, 0, 1e-7, 1, 20000)).to.equal(true);
    expect(ccd.toi).to.be.at.most(0.5);
    expect(ccd.toi).to.be.at.least(0.5 - 0.05);
    // with a minimum separation the boxes fall inside the ε-box and the time is close
    expect(ccd.vertexFaceCCD(q, 1e-3, 1e-7, 1, 20000)).to.equal(true);
    expect(ccd.toi).to.be.at.most(0.4995);
    expect(ccd.toi).to.be.at.least(0.4995 - 0.05);
    // sliding in the plane beside the triangle: no contact
    expect(ccd.vertexFaceCCD(query([[-1, 1.2, 0], ...tri], [[1, 1.2, 0], ...tri]), 0, 1e-7, 1, 20000)).to.equal(false);
  });

  it('vertex-face, degenerate triangle (three equal points): found when the point meets it', () => {
    const c: V = [0.5, 0.5, 0.5];
    const q = query([[0.5, 0.5, 2], c, c, c], [[0.5, 0.5, -2], c, c, c]);
    expect(ccd.vertexFaceCCD(q, 0, 1e-7, 1, LIMIT)).to.equal(true);
    expect(ccd.toi).to.be.at.most(0.375);
    expect(ccd.toi).to.be.at.least(0.375 - 1e-6);
    expect(ccd.vertexFaceCCD(query([[0.6, 0.5, 2], c, c, c], [[0.6, 0.5, -2], c, c, c]), 0, 1e-7, 1, LIMIT)).to.equal(false);
  });

  it('edge-edge: an edge falling across a fixed one (t = 0.5), a parallel pair, skew misses', () => {
    const fixed: V[] = [
      [0, -1, 0],
      [0, 1, 0],
    ];
    const q = query([[-1, 0, 1], [1, 0, 1], ...fixed], [[-1, 0, -1], [1, 0, -1], ...fixed]);
    expect(ccd.edgeEdgeCCD(q, 0, 1e-7, 1, LIMIT)).to.equal(true);
    expect(ccd.toi).to.be.at.most(0.5);
    expect(ccd.toi).to.be.at.least(0.5 - 1e-6);
    // parallel edges overlapping in x: contact at t = 0.5 (ms = 0) or t = 0.45 (ms = 0.1)
    const along: V[] = [
      [0, 0, 0],
      [1, 0, 0],
    ];
    // (a segment of roots: the search stops at the limit, conservatively)
    const par = query([[0.5, 0, 1], [1.5, 0, 1], ...along], [[0.5, 0, -1], [1.5, 0, -1], ...along]);
    expect(ccd.edgeEdgeCCD(par, 0, 1e-7, 1, 20000)).to.equal(true);
    expect(ccd.toi).to.be.at.most(0.5);
    expect(ccd.toi).to.be.at.least(0.5 - 0.05);
    expect(ccd.edgeEdgeCCD(par, 0.1, 1e-8, 1, 20000)).to.equal(true);
    expect(ccd.toi).to.be.at.most(0.45);
    expect(ccd.toi).to.be.at.least(0.45 - 0.05);
    // parallel but apart along x: no contact
    const apart = query([[2, 0, 1], [3, 0, 1], ...along], [[2, 0, -1], [3, 0, -1], ...along]);
    expect(ccd.edgeEdgeCCD(apart, 0, 1e-7, 1, 20000)).to.equal(false);
    // the falling edge passes beyond the end of the fixed one
    const beyond = query([[-1, 2, 1], [1, 2, 1], ...fixed], [[-1, 2, -1], [1, 2, -1], ...fixed]);
    expect(ccd.edgeEdgeCCD(beyond, 0, 1e-7, 1, LIMIT)).to.equal(false);
  });

  it('conservative on random crossings of a fixed triangle: toi in [t* − tolerance bound, t*], hits and misses agree away from the border', () => {
    let seed = 7;
    const rand = (): number => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    let hits = 0,
      misses = 0;
    for (let k = 0; k < 300; k++) {
      const z0 = 0.1 + rand(),
        z1 = -0.1 - rand();
      const x0 = rand() * 1.4 - 0.2,
        y0 = rand() * 1.4 - 0.2,
        x1 = rand() * 1.4 - 0.2,
        y1 = rand() * 1.4 - 0.2;
      const ts = z0 / (z0 - z1); // plane crossing, exact
      const cx = x0 + ts * (x1 - x0),
        cy = y0 + ts * (y1 - y0);
      // signed distance of the crossing point to the triangle's border (> 0 inside)
      const inside = Math.min(cx, cy, (1 - cx - cy) / Math.SQRT2);
      if (Math.abs(inside) < 1e-6) continue;
      const hit = ccd.vertexFaceCCD(query([[x0, y0, z0], ...tri], [[x1, y1, z1], ...tri]), 0, 1e-9, 1, LIMIT);
      expect(hit, `query ${k}`).to.equal(inside > 0);
      if (hit) {
        hits++;
        expect(ccd.toi).to.be.at.most(ts);
        expect(ccd.toi).to.be.at.least(ts - 1e-6);
      } else misses++;
    }
    expect(hits).to.be.greaterThan(50);
    expect(misses).to.be.greaterThan(50);
  });

  it('a rotating triangle (cubic coplanarity): toi never after the root of the triple product, found by bisection', () => {
    // triangle rotating about the x axis by up to 90°, the vertices moving on chords; fixed point
    const a0: V = [0, 0, 0],
      b0: V = [1, 0, 0],
      c0: V = [0, 1, 0];
    const a1: V = [0, 0, 0],
      b1: V = [1, 0, 0.2],
      c1: V = [0, 0, 1];
    const p: V = [0.2, 0.3, 0.4];
    const lerp = (u: V, w: V, t: number): V => [u[0] + t * (w[0] - u[0]), u[1] + t * (w[1] - u[1]), u[2] + t * (w[2] - u[2])];
    const triple = (t: number): number => {
      const a = lerp(a0, a1, t),
        b = lerp(b0, b1, t),
        c = lerp(c0, c1, t);
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
        v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
        w = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
      return w[0] * (u[1] * v[2] - u[2] * v[1]) + w[1] * (u[2] * v[0] - u[0] * v[2]) + w[2] * (u[0] * v[1] - u[1] * v[0]);
    };
    expect(triple(0)).to.be.greaterThan(0);
    expect(triple(1)).to.be.lessThan(0);
    let lo = 0,
      hi = 1;
    for (let k = 0; k < 100; k++) {
      const m = 0.5 * (lo + hi);
      if (triple(m) > 0) lo = m;
      else hi = m;
    }
    // the point lies inside the triangle at that time (checked by its barycentric coordinates)
    const q = query([p, a0, b0, c0], [p, a1, b1, c1]);
    expect(ccd.vertexFaceCCD(q, 0, 1e-9, 1, LIMIT)).to.equal(true);
    expect(ccd.toi).to.be.at.most(hi);
    expect(ccd.toi).to.be.at.least(lo - 1e-6);
  });

  it('maxIterations: a query stopped early reports a collision at a time no later than the true one', () => {
    const near = query([[0.5005, 0.5005, 1], ...tri], [[0.5005, 0.5005, -1], ...tri]);
    expect(ccd.vertexFaceCCD(near, 0, 1e-12, 1, 5)).to.equal(true);
    expect(ccd.hitMaxIterations).to.equal(true);
    expect(ccd.iterations).to.equal(5);
    const q = query([[0.2, 0.3, 1], ...tri], [[0.2, 0.3, -1], ...tri]);
    expect(ccd.vertexFaceCCD(q, 0, 1e-12, 1, 10)).to.equal(true);
    expect(ccd.toi).to.be.at.most(0.5);
  });
});
