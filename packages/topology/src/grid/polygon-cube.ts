/**
 * Does a triangle intersect the cube [−½, ½]³? The test SOFA's SparseGridTopology uses to find the
 * cells a surface crosses (Graphics Gems "fast polygon–cube intersection", D. Green and D. Hatch,
 * 1994): trivial accept/reject against the 6 face planes, 12 edge planes and 8 corner planes of the
 * cube, then an exact test (an edge crosses the cube, or the cube diagonal closest to the normal
 * pierces the polygon).
 *
 * SOFA runs it in single precision; every operation here is rounded to float32 (Math.fround) in the
 * same order, so that cells on the edge of the surface are classified as SOFA classifies them.
 */

const f = Math.fround;

type Vec = readonly [number, number, number];

/** Bits of the planes the point is outside of, among the planes in `mask`. */
function outcodes(values: readonly number[], limit: number, mask: number): number {
  let out = 0;
  for (let k = 0; k < values.length; k++) {
    const pos = 1 << (2 * k);
    const neg = pos << 1;
    if (mask & (pos | neg)) {
      const v = values[k];
      if (mask & pos && v > limit) out |= pos;
      else if (mask & neg && v < -limit) out |= neg;
    }
  }
  return out;
}

function facePlanes(p: Vec, mask: number): number {
  return outcodes([p[0], p[1], p[2]], 0.5, mask);
}

function edgePlanes(p: Vec, mask: number): number {
  return outcodes([f(p[0] + p[1]), f(p[0] - p[1]), f(p[0] + p[2]), f(p[0] - p[2]), f(p[1] + p[2]), f(p[1] - p[2])], 1.0, mask);
}

function cornerPlanes(p: Vec, mask: number): number {
  const s = f(p[0] + p[1]);
  const d = f(p[0] - p[1]);
  return outcodes([f(s + p[2]), f(s - p[2]), f(d + p[2]), f(d - p[2])], 1.5, mask);
}

/** 1: a vertex is inside the cube; 0: all vertices are outside one plane; −1: undecided. */
export function trivialVertexTests(verts: readonly Vec[]): number {
  let all = ~0;
  for (const v of verts) {
    const bits = facePlanes(v, ~0);
    if (bits === 0) return 1;
    all &= bits;
  }
  if (all !== 0) return 0;
  all = ~0;
  for (const v of verts) if ((all = edgePlanes(v, all)) === 0) break;
  if (all !== 0) return 0;
  all = ~0;
  for (const v of verts) if ((all = cornerPlanes(v, all)) === 0) break;
  if (all !== 0) return 0;
  return -1;
}

/** Does segment v0–v1 meet the cube? (the origin lies in the cube dragged along the segment) */
export function segmentIntersectsCube(v0: Vec, v1: Vec): boolean {
  const e = [f(v1[0] - v0[0]), f(v1[1] - v0[1]), f(v1[2] - v0[2])];
  const s = e.map((x) => (x < 0 ? -1 : 1));
  for (let i = 0; i < 3; i++) {
    if (f(v0[i] * s[i]) > 0.5) return false;
    if (f(v1[i] * s[i]) < -0.5) return false;
  }
  for (let i = 0; i < 3; i++) {
    const i1 = (i + 1) % 3;
    const i2 = (i + 2) % 3;
    const dotV0 = f(f(e[i2] * v0[i1]) - f(e[i1] * v0[i2]));
    const dotEdge = f(0.5 * f(f(e[i2] * s[i1]) + f(e[i1] * s[i2])));
    if (f(dotV0 * dotV0) > f(dotEdge * dotEdge)) return false;
  }
  return true;
}

/** Multiplicity of containment of `point` (in the polygon's plane) in the polygon. */
export function polygonContainsPoint(verts: readonly Vec[], normal: Vec, point: Vec): number {
  const a = [Math.abs(normal[0]), Math.abs(normal[1]), Math.abs(normal[2])];
  const zaxis = a[0] > a[2] ? (a[0] > a[1] ? 0 : 1) : a[1] > a[2] ? 1 : 2;
  const xaxis = normal[zaxis] < 0 ? (zaxis + 2) % 3 : (zaxis + 1) % 3;
  const yaxis = normal[zaxis] < 0 ? (zaxis + 1) % 3 : (zaxis + 2) % 3;
  const crosses = (lo: number, hi: number, x: number): number => Number(hi > x) - Number(lo > x);
  let count = 0;
  for (let i = 0; i < verts.length; i++) {
    const v = verts[i];
    const w = verts[(i + 1) % verts.length];
    const xdir = crosses(v[xaxis], w[xaxis], point[xaxis]);
    if (!xdir) continue;
    if (crosses(v[yaxis], w[yaxis], point[yaxis])) {
      const lhs = f(f(xdir * f(point[xaxis] - v[xaxis])) * f(w[yaxis] - v[yaxis]));
      const rhs = f(f(xdir * f(point[yaxis] - v[yaxis])) * f(w[xaxis] - v[xaxis]));
      if (lhs <= rhs) count += xdir;
    } else if (v[yaxis] <= point[yaxis]) {
      count += xdir;
    }
  }
  return count;
}

/** Polygon normal: sum of the cross products of a fan triangulation (not normalised). */
export function polygonNormal(verts: readonly Vec[]): [number, number, number] {
  const n: [number, number, number] = [0, 0, 0];
  const v0 = verts[0];
  let prev = [f(verts[1][0] - v0[0]), f(verts[1][1] - v0[1]), f(verts[1][2] - v0[2])];
  for (let i = 2; i < verts.length; i++) {
    const cur = [f(verts[i][0] - v0[0]), f(verts[i][1] - v0[1]), f(verts[i][2] - v0[2])];
    const cx = f(f(prev[1] * cur[2]) + f(prev[2] * -cur[1]));
    const cy = -f(f(prev[0] * cur[2]) + f(prev[2] * -cur[0]));
    const cz = f(f(prev[0] * cur[1]) + f(prev[1] * -cur[0]));
    n[0] = f(n[0] + cx);
    n[1] = f(n[1] + cy);
    n[2] = f(n[2] + cz);
    prev = cur;
  }
  return n;
}

/** The exact test, once vertices are known to be outside the cube. */
export function polygonIntersectsCube(verts: readonly Vec[], normal: Vec): number {
  for (let i = 0; i < verts.length; i++) if (segmentIntersectsCube(verts[i], verts[(i + 1) % verts.length])) return 1;
  if (normal[0] === 0 && normal[1] === 0 && normal[2] === 0) return 0;
  const d = [normal[0] < 0 ? -1 : 1, normal[1] < 0 ? -1 : 1, normal[2] < 0 ? -1 : 1];
  const num = f(f(f(normal[0] * verts[0][0]) + f(normal[1] * verts[0][1])) + f(normal[2] * verts[0][2]));
  const den = f(f(f(normal[0] * d[0]) + f(normal[1] * d[1])) + f(normal[2] * d[2]));
  const t = f(num / den);
  if (!((t + 0.5) * (t - 0.5) <= 0)) return 0;
  const p: Vec = [f(t * d[0]), f(t * d[1]), f(t * d[2])];
  return polygonContainsPoint(verts, normal, p);
}

/** Does the polygon (float32 coordinates, cube of side 1 at the origin) meet the cube? */
export function fastPolygonIntersectsCube(verts: readonly Vec[], normal: Vec): boolean {
  const quick = trivialVertexTests(verts);
  if (quick === -1) return polygonIntersectsCube(verts, normal) !== 0;
  return quick !== 0;
}
