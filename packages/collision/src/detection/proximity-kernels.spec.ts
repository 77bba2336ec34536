import { expect } from 'chai';
import { DetectionOutputs } from './detection-outputs.js';
import {
  FLAG_E12,
  FLAG_E23,
  FLAG_E31,
  FLAG_P1,
  FLAG_P2,
  FLAG_P3,
  LOCAL_MIN_LINE_LINE,
  MIN_PROXIMITY_LINE_LINE,
  NEW_PROXIMITY_LINE_LINE,
  lineLine,
  linePointClamped,
  linePointEnds,
  pointPoint,
  sphereSphere,
  trianglePointFeatures,
  trianglePointInterior,
  triangleSegmentCrossing,
  triangleSphereClosest,
} from './proximity-kernels.js';
import { rng } from '../test-support.js';

const ALL = FLAG_P1 | FLAG_P2 | FLAG_P3 | FLAG_E12 | FLAG_E23 | FLAG_E31;

function vec(out: DetectionOutputs, which: 'point0' | 'point1' | 'normal', k = 0): number[] {
  return Array.from(out[which].subarray(3 * k, 3 * k + 3));
}

function expectVec(a: number[], b: number[], tol = 1e-12): void {
  for (let c = 0; c < 3; c++) expect(a[c]).to.be.closeTo(b[c], tol);
}

const cross = (a: number[], b: number[]): number[] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const add = (a: number[], b: number[], s = 1): number[] => a.map((v, i) => v + s * b[i]);
const norm = (a: number[]): number => Math.hypot(a[0], a[1], a[2]);
const unit = (a: number[]): number[] => a.map((v) => v / norm(a));

describe('collision proximity kernels (closed-form geometry)', () => {
  it('point-point: distance, unit normal from p to q, both points; none beyond the alarm distance', () => {
    const out = new DetectionOutputs();
    const p = [1, 2, 3],
      q = [1 + 0.3, 2 - 0.4, 3];
    expect(pointPoint(out, 1, p, 0, q, 0, 7, 'raw')).to.equal(1);
    expect(out.value[0]).to.be.closeTo(0.5, 1e-15);
    expectVec(vec(out, 'normal'), [0.6, -0.8, 0]);
    expectVec(vec(out, 'point0'), p);
    expectVec(vec(out, 'point1'), q);
    expect(out.id[0]).to.equal(7);
    expect(pointPoint(out, 0.24, p, 0, q, 0, 7, 'raw')).to.equal(0);
    const z = new DetectionOutputs();
    pointPoint(z, 1, p, 0, p, 0, 0, 'guard');
    expectVec(vec(z, 'normal'), [1, 0, 0]);
  });

  it('segment-segment: closest points of skew segments, the common perpendicular as normal', () => {
    // [(-1,0,0),(3,0,0)] and [(1,-2,h),(1,2,h)]: closest points (1,0,0) and (1,0,h)
    for (const tol of [NEW_PROXIMITY_LINE_LINE, MIN_PROXIMITY_LINE_LINE, LOCAL_MIN_LINE_LINE]) {
      const h = 0.25;
      const a = [-1, 0, 0, 3, 0, 0],
        b = [1, -2, h, 1, 2, h];
      const out = new DetectionOutputs();
      const params = new Float64Array(2);
      expect(lineLine(out, 1, a, 0, 3, b, 0, 3, 5, tol, params)).to.equal(1);
      expect(out.value[0]).to.be.closeTo(h, 1e-15);
      expectVec(vec(out, 'point0'), [1, 0, 0]);
      expectVec(vec(out, 'point1'), [1, 0, h]);
      expectVec(vec(out, 'normal'), [0, 0, 1]);
      expect(params[0]).to.be.closeTo(0.5, 1e-15);
      expect(params[1]).to.be.closeTo(0.5, 1e-15);
      // closest points outside a segment: none
      expect(lineLine(out, 1, a, 0, 3, [4, -2, h, 4, 2, h], 0, 3, 5, tol)).to.equal(0);
    }
  });

  it('segment-segment: parallel segments meet at their middles', () => {
    const out = new DetectionOutputs();
    expect(lineLine(out, 4, [0, 0, 0, 2, 0, 0], 0, 3, [0, 1, 0, 4, 1, 0], 0, 3, 0, NEW_PROXIMITY_LINE_LINE)).to.equal(1);
    expectVec(vec(out, 'point0'), [1, 0, 0]);
    expectVec(vec(out, 'point1'), [2, 1, 0]);
    expect(out.value[0]).to.be.closeTo(Math.SQRT2, 1e-15);
  });

  it('segment-point: projection inside, clamped to the ends; swapped outputs go point → segment', () => {
    const seg = [0, 0, 0, 2, 0, 0];
    const out = new DetectionOutputs();
    expect(linePointClamped(out, 1, seg, 0, 3, [0.5, 0.6, 0], 0, 3, false)).to.equal(1);
    expectVec(vec(out, 'point0'), [0.5, 0, 0]);
    expectVec(vec(out, 'normal'), [0, 1, 0]);
    expect(out.value[0]).to.be.closeTo(0.6, 1e-15);
    expect(linePointClamped(out, 1, seg, 0, 3, [2.3, 0.4, 0], 0, 3, true)).to.equal(1);
    expectVec(vec(out, 'point0', 1), [2.3, 0.4, 0]);
    expectVec(vec(out, 'point1', 1), [2, 0, 0]);
    expectVec(vec(out, 'normal', 1), [-0.6, -0.8, 0]);
    expect(out.value[1]).to.be.closeTo(0.5, 1e-15);
    const ends = new DetectionOutputs();
    expect(linePointEnds(ends, 1, seg, 0, 3, [-0.3, 0, 0.4], 0, 0, 'guard')).to.equal(1);
    expectVec(vec(ends, 'point0'), [0, 0, 0]);
    expect(ends.value[0]).to.be.closeTo(0.5, 1e-15);
  });

  it('triangle-point: random triangles, points above the interior, beyond an edge and beyond a corner', () => {
    const r = rng(3);
    for (let trial = 0; trial < 200; trial++) {
      const A = [r(), r(), r()],
        B = add(A, [1 + r() * 0.5, r() * 0.5, r() * 0.5]),
        C = add(A, [r() * 0.5, 1 + r() * 0.5, r() * 0.5]);
      const t = [...A, ...B, ...C];
      const n = unit(cross(add(B, A, -1), add(C, A, -1)));
      const h = 0.1 + 0.3 * Math.abs(r());
      // interior: P = A + u·AB + v·AC, q = P + h·n
      const u = 0.2 + 0.2 * Math.abs(r()),
        v = 0.2 + 0.2 * Math.abs(r());
      const P = add(add(A, add(B, A, -1), u), add(C, A, -1), v);
      const q = add(P, n, h);
      for (const interior of [true, false]) {
        const out = new DetectionOutputs();
        const k = interior
          ? trianglePointInterior(out, 1, t, 0, 3, 6, q, 0, 9, 'guard')
          : trianglePointFeatures(out, 1, ALL, t, 0, 3, 6, q, 0, 9, false);
        expect(k).to.equal(1);
        expect(out.value[0]).to.be.closeTo(h, 1e-12);
        expectVec(vec(out, 'point0'), P, 1e-12);
        expectVec(vec(out, 'normal'), n, 1e-12);
      }
      // beyond edge AB (outward in-plane direction e = (AB × n)/|…| points away from C)
      const E = add(A, add(B, A, -1), 0.5);
      let e = unit(cross(add(B, A, -1), n));
      if (add(C, A, -1).reduce((s, x, i) => s + x * e[i], 0) > 0) e = e.map((x) => -x);
      const qe = add(add(E, e, 0.2), n, 0.1);
      const oe = new DetectionOutputs();
      expect(trianglePointFeatures(oe, 1, ALL, t, 0, 3, 6, qe, 0, 0, false)).to.equal(1);
      expectVec(vec(oe, 'point0'), E, 1e-12);
      expect(oe.value[0]).to.be.closeTo(Math.hypot(0.2, 0.1), 1e-12);
      expect(trianglePointFeatures(new DetectionOutputs(), 1, ALL & ~FLAG_E12, t, 0, 3, 6, qe, 0, 0, false)).to.equal(0);
      expect(trianglePointInterior(new DetectionOutputs(), 1, t, 0, 3, 6, qe, 0, 0, 'guard')).to.equal(0);
      // beyond corner A, along −(AB/|AB| + AC/|AC|) (inside the corner's region) and the normal
      const d = unit(add(unit(add(B, A, -1)), unit(add(C, A, -1))));
      const qa = add(add(A, d, -0.15), n, 0.05);
      const oa = new DetectionOutputs();
      expect(trianglePointFeatures(oa, 1, ALL, t, 0, 3, 6, qa, 0, 0, true)).to.equal(1);
      expectVec(vec(oa, 'point1'), A, 1e-12); // swapped: point1 on the triangle
      expectVec(vec(oa, 'point0'), qa, 0);
      expect(oa.value[0]).to.be.closeTo(Math.hypot(0.15, 0.05), 1e-12);
      expect(trianglePointFeatures(new DetectionOutputs(), 1, ALL & ~FLAG_P1, t, 0, 3, 6, qa, 0, 0, true)).to.equal(0);
    }
  });

  it('triangle-sphere: closest point of the triangle to the centre and its distance', () => {
    const t = [0, 0, 0, 2, 0, 0, 0, 2, 0];
    const c = new Float64Array(4);
    expect(triangleSphereClosest(c, 1, ALL, t, 0, 3, 6, [0.5, 0.5, 0.7], 0)).to.equal(1);
    expectVec(Array.from(c.subarray(0, 3)), [0.5, 0.5, 0]);
    expect(c[3]).to.be.closeTo(0.7, 1e-15);
    expect(triangleSphereClosest(c, 1, ALL, t, 0, 3, 6, [1.5, 1.5, 0], 0)).to.equal(1); // beyond BC
    expectVec(Array.from(c.subarray(0, 3)), [1, 1, 0]);
    expect(c[3]).to.be.closeTo(Math.SQRT1_2, 1e-12);
  });

  it('sphere-sphere: points on both surfaces, value = distance − radii − contact distance', () => {
    const out = new DetectionOutputs();
    expect(sphereSphere(out, 0, 0.1, [0, 0, 0], 0, 1, [0, 0, 1.5], 0, 0.75, 3)).to.equal(1);
    expectVec(vec(out, 'normal'), [0, 0, 1]);
    expectVec(vec(out, 'point0'), [0, 0, 1]);
    expectVec(vec(out, 'point1'), [0, 0, 0.75]);
    expect(out.value[0]).to.be.closeTo(1.5 - 1.75 - 0.1, 1e-15);
    expect(sphereSphere(out, 0, 0, [0, 0, 0], 0, 1, [0, 0, 1.8], 0, 0.75, 3)).to.equal(0);
  });

  it('segment crossing a triangle: the crossing point, none when the segment misses', () => {
    const t = [0, 0, 0, 2, 0, 0, 0, 2, 0];
    const out = new DetectionOutputs();
    expect(triangleSegmentCrossing(out, t, 0, 3, 6, [0.5, 0.25, 1, 0.5, 0.25, -3], 0, 3, 4)).to.equal(1);
    expectVec(vec(out, 'point0'), [0.5, 0.25, 0]);
    expectVec(vec(out, 'point1'), [0.5, 0.25, 0]);
    expect(triangleSegmentCrossing(out, t, 0, 3, 6, [0.5, 0.25, 1, 0.5, 0.25, 0.1], 0, 3, 4)).to.equal(0);
    expect(triangleSegmentCrossing(out, t, 0, 3, 6, [1.5, 1.5, 1, 1.5, 1.5, -1], 0, 3, 4)).to.equal(0);
  });
});
