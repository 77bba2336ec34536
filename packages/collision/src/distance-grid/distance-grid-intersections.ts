import type { CollisionModel, ElementKind } from '../model/CollisionModel.js';
import type { SphereCollisionModel } from '../model/SphereCollisionModel.js';
import type { TriangleCollisionModel } from '../model/TriangleCollisionModel.js';
import type { DetectionOutputs } from '../detection/detection-outputs.js';
import type { ElementIntersector, IntersectionMethod } from '../detection/intersection-method.js';
import type { RigidDistanceGridCollisionModel } from './RigidDistanceGridCollisionModel.js';
import type { FFDDistanceGridCollisionModel } from './FFDDistanceGridCollisionModel.js';

/** SOFA's TriangleCollisionModel flags: the triangle owns vertex j (1 << j) or border edge j (64 << j). */
const FLAG_POINTS = 7,
  FLAG_BEDGES = 64 | 128 | 256;

/**
 * The element tests of SOFA's RigidDistanceGridDiscreteIntersection, which SOFA adds to every
 * intersection method derived from DiscreteIntersection (the proximity ones included), for a grid
 * φ (see distance-grid.ts) against points, spheres and triangles. A world point p is taken to the
 * grid, l = Rᵀ·(p − c); with D = the intersection's contact distance + both models' contactDistance
 * (+ the radius for a sphere) and margin = D + 0.001, a point of the object's box enlarged by margin
 * gives one output when d = φ(l) < margin:
 *   point0 = l − ĝ·d (grid coordinates: the contact mapper fixes it in the frame), point1 = p,
 *   normal = R·ĝ (ĝ = grad φ normalised), value = d − D,
 *   id = the point's index (a sphere's: its index; a triangle's vertex j: 6·triangle + j, the
 *   middle of its border edge j: 6·triangle + 3 + j, the vertices and edges the triangle owns).
 * A point of that box outside the grid (0.1 cell from its border) is reported (SOFA's "margin less
 * than" error) and skipped. Flipped grids (flipNormals) test points anywhere in the grid with −φ.
 */
export function addDistanceGridIntersectors(
  method: IntersectionMethod,
  add: (k1: ElementKind, k2: ElementKind, test: ElementIntersector) => void,
): void {
  const l = new Float64Array(3),
    g = new Float64Array(3),
    mid = new Float64Array(3);
  let reported = false;
  const outsideGrid = (m: RigidDistanceGridCollisionModel, margin: number): void => {
    if (reported) return;
    reported = true;
    m.warn(
      `margin less than ${margin} in the distance grid (${method.describe()}): a point near the object lies outside its grid and is not tested`,
      'enlarge the grid (its box)',
    );
  };

  /** The test of world point p (offset po); returns 1 when an output was appended. */
  const testPoint = (
    m: RigidDistanceGridCollisionModel,
    i: number,
    b: CollisionModel,
    j: number,
    p: ArrayLike<number>,
    po: number,
    d0: number,
    id: number,
    out: DetectionOutputs,
  ): number => {
    const grid = m.grid!;
    const margin = 0.001 + d0;
    const flipped = m.flipNormals.value;
    m.toGrid(p, po, l);
    if (flipped) {
      if (!grid.inGrid(l)) return 0;
    } else {
      if (!grid.inBBox(l, 0, margin)) return 0;
      if (!grid.inGrid(l)) {
        outsideGrid(m, margin);
        return 0;
      }
    }
    let d = grid.interp(l);
    if (flipped) d = -d;
    if (d >= margin) return 0;
    grid.grad(l, 0, g);
    if (flipped) for (let c = 0; c < 3; c++) g[c] = -g[c];
    const r = Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    if (r > Number.EPSILON) for (let c = 0; c < 3; c++) g[c] /= r;
    const k = out.push();
    out.elem1[k] = i;
    out.elem2[k] = j;
    out.id[k] = id;
    for (let c = 0; c < 3; c++) {
      out.point0[3 * k + c] = l[c] - g[c] * d;
      out.point1[3 * k + c] = p[po + c];
    }
    m.toWorldDirection(g);
    for (let c = 0; c < 3; c++) out.normal[3 * k + c] = g[c];
    out.value[k] = d - d0;
    return 1;
  };

  const contact = (a: CollisionModel, b: CollisionModel): number => method.getContactDistance() + a.getProximity() + b.getProximity();

  const gridPoint: ElementIntersector = (a, i, b, j, out) =>
    testPoint(a as RigidDistanceGridCollisionModel, i, b, j, b.x, 3 * j, contact(a, b), j, out);
  const gridSphere: ElementIntersector = (a, i, b, j, out) => {
    const s = b as SphereCollisionModel;
    return testPoint(a as RigidDistanceGridCollisionModel, i, b, j, b.x, s.stride * j, contact(a, b) + s.getRadius(j), j, out);
  };
  const gridTriangle: ElementIntersector = (a, i, b, j, out) => {
    const t = b as TriangleCollisionModel;
    const f = t.flags[j] ?? 0;
    if (!(f & (FLAG_POINTS | FLAG_BEDGES))) return 0;
    const d0 = contact(a, b);
    const x = b.x;
    const tri = t.triangles;
    let n = 0;
    for (let v = 0; v < 3; v++) {
      if (!(f & (1 << v))) continue;
      n += testPoint(a as RigidDistanceGridCollisionModel, i, b, j, x, 3 * tri[3 * j + v], d0, 6 * j + v, out);
    }
    for (let e = 0; e < 3; e++) {
      if (!(f & (64 << e))) continue;
      const p1 = 3 * tri[3 * j + ((e + 1) % 3)],
        p2 = 3 * tri[3 * j + ((e + 2) % 3)];
      for (let c = 0; c < 3; c++) mid[c] = (x[p1 + c] + x[p2 + c]) * 0.5;
      n += testPoint(a as RigidDistanceGridCollisionModel, i, b, j, mid, 0, d0, 6 * j + 3 + e, out);
    }
    return n;
  };

  add('rigiddistancegrid', 'point', gridPoint);
  add('rigiddistancegrid', 'sphere', gridSphere);
  add('rigiddistancegrid', 'triangle', gridTriangle);

  const b = new Float64Array(3),
    q = new Float64Array(3),
    gd = new Float64Array(3),
    m = new Float64Array(9);
  /**
   * SOFA's FFDDistanceGridDiscreteIntersection test of world point p (offset po) against cube i of
   * FFD grid `a`: margin = D + 0.001 (D as above); the point's undeformed position q (see
   * FFDDistanceGridCollisionModel.locate) gives one output when d = φ(q) < margin:
   *   point0 = q − ĝ·d (undeformed: the contact mapper takes its cube coordinates), point1 = p,
   *   normal = (∂x/∂b)·ĝ' normalised, ĝ' = ĝ in cube coordinates (SOFA's deformDir, at the cube
   *   coordinates of point0), value = d − D.
   */
  const testDeformedPoint = (
    ffd: FFDDistanceGridCollisionModel,
    i: number,
    j: number,
    p: ArrayLike<number>,
    po: number,
    d0: number,
    id: number,
    out: DetectionOutputs,
  ): number => {
    const margin = Math.fround(0.001) + d0;
    if (ffd.locate(i, p, po, margin, b) < 0) return 0;
    const grid = ffd.grid!;
    ffd.initPos(i, b, q);
    const d = grid.interp(q);
    if (!(d < margin)) return 0;
    grid.grad(q, 0, gd);
    normalize(gd);
    for (let c = 0; c < 3; c++) q[c] -= gd[c] * d;
    ffd.baryCoords(i, q, 0, b);
    ffd.jacobian(i, b, m);
    const nx = m[0] * gd[0] + m[1] * gd[1] + m[2] * gd[2],
      ny = m[3] * gd[0] + m[4] * gd[1] + m[5] * gd[2],
      nz = m[6] * gd[0] + m[7] * gd[1] + m[8] * gd[2];
    gd[0] = nx;
    gd[1] = ny;
    gd[2] = nz;
    normalize(gd);
    const k = out.push();
    out.elem1[k] = i;
    out.elem2[k] = j;
    out.id[k] = id;
    for (let c = 0; c < 3; c++) {
      out.point0[3 * k + c] = q[c];
      out.point1[3 * k + c] = p[po + c];
      out.normal[3 * k + c] = gd[c];
    }
    out.value[k] = d - d0;
    return 1;
  };
  const ffdPoint: ElementIntersector = (a, i, b2, j, out) =>
    testDeformedPoint(a as FFDDistanceGridCollisionModel, i, j, b2.x, 3 * j, contact(a, b2), j, out);
  // SOFA tests a sphere's centre with D enlarged by its radius; point1 is the centre (the response adds the radius)
  const ffdSphere: ElementIntersector = (a, i, b2, j, out) => {
    const s = b2 as SphereCollisionModel;
    return testDeformedPoint(a as FFDDistanceGridCollisionModel, i, j, b2.x, s.stride * j, contact(a, b2) + s.getRadius(j), j, out);
  };
  // SOFA's FFD test of a triangle: the vertices it owns only (no edge middles), id 3·triangle + vertex
  const ffdTriangle: ElementIntersector = (a, i, b2, j, out) => {
    const t = b2 as TriangleCollisionModel;
    const f = t.flags[j] ?? 0;
    if (!(f & FLAG_POINTS)) return 0;
    const d0 = contact(a, b2);
    let n = 0;
    for (let v = 0; v < 3; v++) {
      if (!(f & (1 << v))) continue;
      n += testDeformedPoint(a as FFDDistanceGridCollisionModel, i, j, b2.x, 3 * t.triangles[3 * j + v], d0, 3 * j + v, out);
    }
    return n;
  };
  add('ffddistancegrid', 'point', ffdPoint);
  add('ffddistancegrid', 'sphere', ffdSphere);
  add('ffddistancegrid', 'triangle', ffdTriangle);
}

/** v /= |v| when |v| > ε (SOFA's Vec::normalize). */
function normalize(v: Float64Array): void {
  const r = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (r > Number.EPSILON) for (let c = 0; c < 3; c++) v[c] /= r;
}
