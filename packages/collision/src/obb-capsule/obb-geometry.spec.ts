import { expect } from 'chai';
import { rng } from '../test-support.js';
import { Closest } from './closest-points.js';
import { BOX_SIZE, boxBox, boxCorners, boxFromRigid, boxPoint, boxSegment, triangleBox } from './obb-geometry.js';

const f = (...v: number[]): Float64Array => Float64Array.from(v);
const close = (a: ArrayLike<number>, b: readonly number[], tol = 1e-12): void => {
  for (let k = 0; k < 3; k++) expect(a[k]).to.be.closeTo(b[k], tol);
};

/** Box centred at (x, y, z), rotated by angle θ about the unit axis u, half-extents e. */
function box(x: number, y: number, z: number, u: readonly number[], theta: number, e: readonly number[]): Float64Array {
  const s = Math.sin(theta / 2);
  const b = new Float64Array(BOX_SIZE);
  boxFromRigid(b, f(x, y, z, u[0] * s, u[1] * s, u[2] * s, Math.cos(theta / 2)), 0, f(...e), 0);
  return b;
}
const unitCube = (x = 0, y = 0, z = 0): Float64Array => box(x, y, z, [0, 0, 1], 0, [1, 1, 1]);

describe('oriented boxes: closest points and overlaps (closed forms)', () => {
  const c = new Closest();
  const cs = Array.from({ length: 17 }, () => new Closest());

  it('a frame gives the box of its rotation: corners of a cube turned 90° about z', () => {
    const b = box(1, 2, 3, [0, 0, 1], Math.PI / 2, [2, 1, 0.5]);
    close(b.subarray(3, 6), [0, 1, 0], 1e-15); // a0 = R·x = y
    close(b.subarray(6, 9), [-1, 0, 0], 1e-15); // a1 = R·y = −x
    const v = new Float64Array(24);
    boxCorners(v, b);
    close(v.subarray(0, 3), [1 + 1, 2 - 2, 3 - 0.5], 1e-15); // c − 2·a0 − 1·a1 − 0.5·a2
  });

  it('point and box: outside (clamped), inside (nearest face, negative distance)', () => {
    const b = unitCube();
    boxPoint(c, b, f(2, 3, 0.5), 0);
    close(c.p, [1, 1, 0.5]);
    expect(c.d).to.be.closeTo(Math.sqrt(5), 1e-15);
    close(c.n, [1 / Math.sqrt(5), 2 / Math.sqrt(5), 0]);
    boxPoint(c, b, f(0.2, -0.7, 0.1), 0); // nearest face y = −1, depth 0.3
    close(c.p, [0.2, -1, 0.1]);
    close(c.n, [0, -1, 0]);
    expect(c.d).to.be.closeTo(-0.3, 1e-15);
  });

  it('segment and box: parallel to a face (its middle), past a corner (its end), through the box (deepest point)', () => {
    const b = unitCube();
    boxSegment(c, b, f(-0.5, 0, 1.5, 0.5, 0, 1.5), 0, 3);
    expect(c.s).to.be.closeTo(0.5, 1e-15);
    close(c.p, [0, 0, 1]);
    close(c.q, [0, 0, 1.5]);
    expect(c.d).to.be.closeTo(0.5, 1e-15);
    boxSegment(c, b, f(2, 2, 2, 3, 3, 3), 0, 3);
    expect(c.s).to.equal(0);
    close(c.p, [1, 1, 1]);
    expect(c.d).to.be.closeTo(Math.sqrt(3), 1e-15);
    // skew over an edge: segment along y at x = 2, z = 2, closest to the edge x = z = 1: distance √2
    boxSegment(c, b, f(2, -3, 2, 2, 5, 2), 0, 3);
    close(c.p, [1, c.q[1], 1]);
    expect(c.q[1]).to.be.within(-1, 1);
    expect(c.d).to.be.closeTo(Math.SQRT2, 1e-14);
    // through the box along x at y = 0.8, z = 0: deepest points are 0.2 under the face y = 1
    boxSegment(c, b, f(-3, 0.8, 0, 3, 0.8, 0), 0, 3);
    expect(c.d).to.be.closeTo(-0.2, 1e-14);
    close(c.n, [0, 1, 0]);
    expect(c.p[1]).to.be.closeTo(1, 1e-14);
  });

  it('box–box, separating axis a face normal: a cube on a cube turned 45° about z, depth 0.2', () => {
    // B spans z ∈ [0.8, 2.8] whatever its turn about z, A spans [−1, 1]: overlap 1 − 0.8 = 0.2 along z;
    // along x and y B's half-width is √2, overlap 1 + √2; the edge products give z again or x, y.
    const A = unitCube(),
      B = box(0, 0, 1.8, [0, 0, 1], Math.PI / 4, [1, 1, 1]);
    // no corner of either lies over the other's face (B's bottom corners are at distance √2 from the axis)
    expect(boxBox(cs, A, B, 0)).to.equal(1);
    const c = cs[0];
    expect(c.d).to.be.closeTo(-0.2, 1e-14);
    close(c.n, [0, 0, 1]);
    close(c.q, [0, 0, 0.8]); // centre of B's bottom face (mean of its 4 deepest corners)
    close(c.p, [0, 0, 1]); // its projection on A's top face
  });

  it('box–box, separating axis an edge product: two ridges crossing, depth 0.1', () => {
    // A turned 45° about y: its top ridge is the edge along y at height √2 (axis A_y = y).
    // B turned 45° about x, centred at z = 2√2 − 0.1: its bottom ridge along x at z = √2 − 0.1 (B_x = x).
    // Along z = ±A_y × B_x both project to half-width √2 → overlap √2 + √2 − (2√2 − 0.1) = 0.1.
    // A's face normal (√½, 0, √½): rA = 1, rB = √½ + ½ + ½, T·n = (2√2 − 0.1)·√½ → overlap 0.778 > 0.1,
    // likewise B's faces; so the depth is the edge axis's 0.1, the contact the two ridges' crossing.
    const A = box(0, 0, 0, [0, 1, 0], Math.PI / 4, [1, 1, 1]),
      B = box(0, 0, 2 * Math.SQRT2 - 0.1, [1, 0, 0], Math.PI / 4, [1, 1, 1]);
    expect(boxBox(cs, A, B, 0)).to.equal(1);
    const c = cs[0];
    expect(c.d).to.be.closeTo(-0.1, 1e-14);
    close(c.n, [0, 0, 1]);
    close(c.p, [0, 0, Math.SQRT2], 1e-14);
    close(c.q, [0, 0, Math.SQRT2 - 0.1], 1e-14);
  });

  it('box–box face on face: one contact per corner over the other face (the corners of the overlap)', () => {
    // B = A shifted by (0.5, 0, 1.9): depth 0.1 along z; B's corners x = −0.5 lie over A's top face,
    // A's corners x = 1 over B's bottom face: the overlap rectangle [−0.5, 1] × [−1, 1]
    const n = boxBox(cs, unitCube(), unitCube(0.5, 0, 1.9), 0);
    expect(n).to.equal(4);
    const corners = cs.slice(0, n).map((k) => {
      expect(k.d).to.be.closeTo(-0.1, 1e-14);
      close(k.n, [0, 0, 1]);
      for (let m = 0; m < 3; m++) expect(k.q[m] - k.p[m]).to.be.closeTo(k.d * k.n[m], 1e-14);
      return [k.p[0], k.p[1]].map((x) => Math.round(x * 1e9) / 1e9).join(' ');
    });
    expect(corners.sort()).to.deep.equal(['-0.5 -1', '-0.5 1', '1 -1', '1 1']);
  });

  it('box–box apart: face–face (corners over the faces), edge–edge and corner–corner distances; beyond the alarm, no contact', () => {
    const A = unitCube();
    // B at (3, 0, 0.5): gap 1 along x; B's corners z = −0.5 over A's face, A's corners z = 1 over B's
    expect(boxBox(cs, A, unitCube(3, 0, 0.5), 2)).to.equal(4);
    for (const k of cs.slice(0, 4)) {
      expect(k.d).to.be.closeTo(1, 1e-14);
      close(k.n, [1, 0, 0]);
    }
    expect(boxBox(cs, A, unitCube(3, 3, 0.5), 2)).to.equal(1);
    expect(cs[0].d).to.be.closeTo(Math.SQRT2, 1e-14);
    close(cs[0].n, [Math.SQRT1_2, Math.SQRT1_2, 0]);
    expect(boxBox(cs, A, unitCube(3, 3, 3), 2)).to.equal(1);
    expect(cs[0].d).to.be.closeTo(Math.sqrt(3), 1e-14);
    close(cs[0].p, [1, 1, 1]);
    close(cs[0].q, [2, 2, 2]);
    expect(boxBox(cs, A, unitCube(3, 3, 3), 1.5)).to.equal(0);
  });

  it('box–box apart agrees with a dense sampling of both surfaces; normals unit, from A to B (random pairs)', () => {
    const r = rng(5);
    const va = new Float64Array(24);
    let tested = 0;
    for (let trial = 0; trial < 10; trial++) {
      const u = [r(), r(), r()],
        w = [r(), r(), r()];
      const lu = Math.hypot(u[0], u[1], u[2]),
        lw = Math.hypot(w[0], w[1], w[2]);
      const A = box(
        0,
        0,
        0,
        u.map((x) => x / lu),
        3 * r(),
        [0.5 + 0.5 * Math.abs(r()), 0.5, 1],
      );
      const B = box(
        3 + r(),
        2 * r(),
        2 * r(),
        w.map((x) => x / lw),
        3 * r(),
        [0.7, 0.4 + 0.5 * Math.abs(r()), 0.6],
      );
      const n = boxBox(cs, A, B, 10);
      if (n === 0) continue;
      // the least distance of the contacts is the boxes' distance
      let c = cs[0];
      for (let k = 1; k < n; k++) if (cs[k].d < c.d) c = cs[k];
      if (c.d <= 0) continue;
      tested++;
      // sampled surfaces: 21×21 points on each face
      const samples = (b: Float64Array): Float64Array => {
        const N = 20,
          out = new Float64Array(6 * (N + 1) * (N + 1) * 3);
        let o = 0;
        for (let k = 0; k < 3; k++)
          for (const sg of [-1, 1])
            for (let i = 0; i <= N; i++)
              for (let j = 0; j <= N; j++) {
                const l = [0, 0, 0];
                l[k] = sg * b[12 + k];
                l[(k + 1) % 3] = ((2 * i) / N - 1) * b[12 + ((k + 1) % 3)];
                l[(k + 2) % 3] = ((2 * j) / N - 1) * b[12 + ((k + 2) % 3)];
                for (let m = 0; m < 3; m++) out[o++] = b[m] + l[0] * b[3 + m] + l[1] * b[6 + m] + l[2] * b[9 + m];
              }
        return out;
      };
      const sa = samples(A),
        sb = samples(B);
      let best = Infinity;
      for (let i = 0; i < sa.length; i += 3)
        for (let j = 0; j < sb.length; j += 3)
          best = Math.min(best, (sa[i] - sb[j]) ** 2 + (sa[i + 1] - sb[j + 1]) ** 2 + (sa[i + 2] - sb[j + 2]) ** 2);
      best = Math.sqrt(best);
      expect(c.d).to.be.at.most(best + 1e-12);
      expect(best - c.d).to.be.below(0.12); // grid spacing ≤ 0.1 on each side
      expect(Math.hypot(c.n[0], c.n[1], c.n[2])).to.be.closeTo(1, 1e-14);
      for (let k = 0; k < 3; k++) expect(c.q[k] - c.p[k]).to.be.closeTo(c.d * c.n[k], 1e-12);
      // from A to B: B's corners lie beyond A's along n, by at least the distance
      boxCorners(va, B);
      for (let v = 0; v < 8; v++) {
        const h = (va[3 * v] - c.p[0]) * c.n[0] + (va[3 * v + 1] - c.p[1]) * c.n[1] + (va[3 * v + 2] - c.p[2]) * c.n[2];
        expect(h).to.be.at.least(c.d - 1e-12);
      }
    }
    expect(tested).to.be.at.least(8);
  });

  it('triangle–box: apart over the top face, and sunk 0.1 into it: a contact per top corner, normal from the triangle to the box', () => {
    const b = unitCube();
    const t = f(-3, -3, 1.5, 3, -3, 1.5, 0, 4, 1.5); // its projection covers the box's top face
    const check = (n: number, d: number, z: number): void => {
      expect(n).to.equal(4);
      const seen = cs.slice(0, n).map((k) => {
        expect(k.d).to.be.closeTo(d, 1e-14);
        close(k.n, [0, 0, -1]);
        expect(k.p[2]).to.be.closeTo(z, 1e-14); // on the triangle
        expect(k.q[2]).to.be.closeTo(1, 1e-14); // the box's top corners
        return `${Math.round(k.q[0])} ${Math.round(k.q[1])}`;
      });
      expect(seen.sort()).to.deep.equal(['-1 -1', '-1 1', '1 -1', '1 1']);
    };
    check(triangleBox(cs, t, 0, 3, 6, b, 1), 0.5, 1.5);
    check(triangleBox(cs, f(-3, -3, 0.9, 3, -3, 0.9, 0, 4, 0.9), 0, 3, 6, b, 0), -0.1, 0.9);
    expect(triangleBox(cs, t, 0, 3, 6, b, 0.4)).to.equal(0);
  });

  it('triangle–box, a small triangle tilted over an edge: the single closest pair', () => {
    // triangle in the plane x + z = 3 (normal (1, 0, 1)/√2), over the edge x = z = 1 of the unit cube
    const t = f(2, -0.5, 1, 1, 0.5, 2, 1.5, 0.8, 1.5);
    const n = triangleBox(cs, t, 0, 3, 6, unitCube(), 2);
    expect(n).to.equal(1);
    expect(cs[0].d).to.be.closeTo(1 / Math.SQRT2, 1e-14); // distance of the edge x = z = 1 to x + z = 3
    close(cs[0].n, [-Math.SQRT1_2, 0, -Math.SQRT1_2]);
    expect(cs[0].q[0]).to.be.closeTo(1, 1e-14);
    expect(cs[0].q[2]).to.be.closeTo(1, 1e-14);
  });
});
