import type { DetectionOutputs } from './detection-outputs.js';

/**
 * Closest-point tests between primitives, as SOFA's proximity intersections compute them. Every
 * point is given as (array, offset of its x coordinate). A test that finds the primitives closer
 * than sqrt(dist2) appends one output (points, normal from the first point to the second, value =
 * distance) and returns 1; otherwise it returns 0 and appends nothing. Callers set the elements and
 * subtract their contact distance from the value.
 *
 * Parameters of segments and triangles follow SOFA: on a segment P(α) = p1 + α·(p2 − p1); on a
 * triangle P(α, β) = p1 + α·(p2 − p1) + β·(p3 − p1), (α, β) from the 2×2 normal equations
 *   [AB·AB  AB·AC] [α]   [AQ·AB]
 *   [AB·AC  AC·AC] [β] = [AQ·AC]
 * Dot products are summed x, y, z in order, as SOFA's Vec does.
 */

/** Which features of a triangle the triangle owns (SOFA TriangleCollisionModel flags). */
export const FLAG_P1 = 1;
export const FLAG_P2 = 2;
export const FLAG_P3 = 4;
export const FLAG_E23 = 8;
export const FLAG_E31 = 16;
export const FLAG_E12 = 32;
export const FLAG_BE23 = 64;
export const FLAG_BE31 = 128;
export const FLAG_BE12 = 256;

function write(
  out: DetectionOutputs,
  id: number,
  pa: ArrayLike<number>,
  ia: number,
  pb: ArrayLike<number>,
  ib: number,
  nx: number,
  ny: number,
  nz: number,
  value: number,
): number {
  const k = out.push();
  const o = 3 * k;
  out.id[k] = id;
  out.point0[o] = pa[ia];
  out.point0[o + 1] = pa[ia + 1];
  out.point0[o + 2] = pa[ia + 2];
  out.point1[o] = pb[ib];
  out.point1[o + 1] = pb[ib + 1];
  out.point1[o + 2] = pb[ib + 2];
  out.normal[o] = nx;
  out.normal[o + 1] = ny;
  out.normal[o + 2] = nz;
  out.value[k] = value;
  return k;
}

/** Scratch for computed points (not re-entrant across threads; one JS thread). */
const P = new Float64Array(3);
const Q = new Float64Array(3);

/**
 * How a zero distance is handled: 'raw' divides anyway (SOFA's NewProximity point tests), 'guard'
 * gives the normal (1, 0, 0) below 1e-15 (SOFA's MinProximity tests).
 */
export type ZeroDistance = 'raw' | 'guard';

function normalOut(out: DetectionOutputs, k: number, dx: number, dy: number, dz: number, zero: ZeroDistance): void {
  const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const o = 3 * k;
  out.value[k] = d;
  if (zero === 'guard' && !(d > 1e-15)) {
    out.normal[o] = 1;
    out.normal[o + 1] = 0;
    out.normal[o + 2] = 0;
    return;
  }
  out.normal[o] = dx / d;
  out.normal[o + 1] = dy / d;
  out.normal[o + 2] = dz / d;
}

/** Point p and point q: pq = q − p. */
export function pointPoint(
  out: DetectionOutputs,
  dist2: number,
  p: ArrayLike<number>,
  ip: number,
  q: ArrayLike<number>,
  iq: number,
  id: number,
  zero: ZeroDistance,
): number {
  const dx = q[iq] - p[ip],
    dy = q[iq + 1] - p[ip + 1],
    dz = q[iq + 2] - p[ip + 2];
  const n2 = dx * dx + dy * dy + dz * dz;
  if (n2 >= dist2) return 0;
  const k = write(out, id, p, ip, q, iq, 0, 0, 0, 0);
  normalOut(out, k, dx, dy, dz, zero);
  return 1;
}

/** Options of the segment-segment test, which differ between SOFA's intersection methods. */
export interface LineLineTolerances {
  /** |det| of the normal equations at or below which the segments count as parallel (α = β = ½). */
  readonly det: number;
  /** α and β must lie in [eps, 1 − eps] (closest points strictly inside both segments). */
  readonly param: number;
  readonly zero: ZeroDistance;
}
export const NEW_PROXIMITY_LINE_LINE: LineLineTolerances = { det: 1e-12, param: 1e-6, zero: 'raw' };
export const MIN_PROXIMITY_LINE_LINE: LineLineTolerances = { det: 1e-15, param: 1e-6, zero: 'guard' };
export const LOCAL_MIN_LINE_LINE: LineLineTolerances = { det: 1e-30, param: 1e-15, zero: 'raw' };

/**
 * Segment [p1 p2] and segment [q1 q2]: closest points P = p1 + α·AB, Q = q1 + β·CD from
 *   [AB·AB  −AB·CD] [α]   [ AB·AC]
 *   [−AB·CD  CD·CD] [β] = [−CD·AC],   AC = q1 − p1
 * rejected when either parameter falls outside the segment interiors; parallel segments use their
 * middles. Writes (α, β) to `params` when given.
 */
export function lineLine(
  out: DetectionOutputs,
  dist2: number,
  a: ArrayLike<number>,
  i1: number,
  i2: number,
  b: ArrayLike<number>,
  j1: number,
  j2: number,
  id: number,
  tol: LineLineTolerances,
  params?: Float64Array,
): number {
  const abx = a[i2] - a[i1],
    aby = a[i2 + 1] - a[i1 + 1],
    abz = a[i2 + 2] - a[i1 + 2];
  const cdx = b[j2] - b[j1],
    cdy = b[j2 + 1] - b[j1 + 1],
    cdz = b[j2 + 2] - b[j1 + 2];
  const acx = b[j1] - a[i1],
    acy = b[j1 + 1] - a[i1 + 1],
    acz = b[j1 + 2] - a[i1 + 2];
  const a00 = abx * abx + aby * aby + abz * abz;
  const a11 = cdx * cdx + cdy * cdy + cdz * cdz;
  const a01 = -(cdx * abx + cdy * aby + cdz * abz);
  const b0 = abx * acx + aby * acy + abz * acz;
  const b1 = -(cdx * acx + cdy * acy + cdz * acz);
  const det = a00 * a11 - a01 * a01;
  let alpha = 0.5;
  let beta = 0.5;
  if (det < -tol.det || det > tol.det) {
    alpha = (b0 * a11 - b1 * a01) / det;
    beta = (b1 * a00 - b0 * a01) / det;
    if (alpha < tol.param || alpha > 1 - tol.param || beta < tol.param || beta > 1 - tol.param) return 0;
  }
  P[0] = a[i1] + abx * alpha;
  P[1] = a[i1 + 1] + aby * alpha;
  P[2] = a[i1 + 2] + abz * alpha;
  Q[0] = b[j1] + cdx * beta;
  Q[1] = b[j1 + 1] + cdy * beta;
  Q[2] = b[j1 + 2] + cdz * beta;
  const dx = Q[0] - P[0],
    dy = Q[1] - P[1],
    dz = Q[2] - P[2];
  if (dx * dx + dy * dy + dz * dz >= dist2) return 0;
  const k = write(out, id, P, 0, Q, 0, 0, 0, 0, 0);
  normalOut(out, k, dx, dy, dz, tol.zero);
  if (params) {
    params[0] = alpha;
    params[1] = beta;
  }
  return 1;
}

/**
 * Segment [p1 p2] and point q (SOFA NewProximity): α = AQ·AB / AB·AB clamped to [0, 1],
 * P = p1 + α·AB. Without swap the output goes segment → point; with swap, point → segment.
 */
export function linePointClamped(
  out: DetectionOutputs,
  dist2: number,
  a: ArrayLike<number>,
  i1: number,
  i2: number,
  q: ArrayLike<number>,
  iq: number,
  id: number,
  swap: boolean,
): number {
  const abx = a[i2] - a[i1],
    aby = a[i2 + 1] - a[i1 + 1],
    abz = a[i2 + 2] - a[i1 + 2];
  const aqx = q[iq] - a[i1],
    aqy = q[iq + 1] - a[i1 + 1],
    aqz = q[iq + 2] - a[i1 + 2];
  const A = abx * abx + aby * aby + abz * abz;
  const bb = aqx * abx + aqy * aby + aqz * abz;
  let alpha = bb / A;
  if (alpha < 0) alpha = 0;
  else if (alpha > 1) alpha = 1;
  P[0] = a[i1] + abx * alpha;
  P[1] = a[i1 + 1] + aby * alpha;
  P[2] = a[i1 + 2] + abz * alpha;
  const dx = q[iq] - P[0],
    dy = q[iq + 1] - P[1],
    dz = q[iq + 2] - P[2];
  const n2 = dx * dx + dy * dy + dz * dz;
  if (n2 >= dist2) return 0;
  const d = Math.sqrt(n2);
  if (swap) write(out, id, q, iq, P, 0, -dx / d, -dy / d, -dz / d, d);
  else write(out, id, P, 0, q, iq, dx / d, dy / d, dz / d, d);
  return 1;
}

/**
 * Segment [p1 p2] and point q (SOFA MinProximity / LocalMinDistance): the closest point of the
 * segment is an end point exactly when α ≤ 0 or α ≥ 1. Output segment → point.
 */
export function linePointEnds(
  out: DetectionOutputs,
  dist2: number,
  a: ArrayLike<number>,
  i1: number,
  i2: number,
  q: ArrayLike<number>,
  iq: number,
  id: number,
  zero: ZeroDistance,
): number {
  const abx = a[i2] - a[i1],
    aby = a[i2 + 1] - a[i1 + 1],
    abz = a[i2 + 2] - a[i1 + 2];
  const apx = q[iq] - a[i1],
    apy = q[iq + 1] - a[i1 + 1],
    apz = q[iq + 2] - a[i1 + 2];
  const A = abx * abx + aby * aby + abz * abz;
  const alpha = (apx * abx + apy * aby + apz * abz) / A;
  if (alpha <= 0) {
    P[0] = a[i1];
    P[1] = a[i1 + 1];
    P[2] = a[i1 + 2];
  } else if (alpha >= 1) {
    P[0] = a[i2];
    P[1] = a[i2 + 1];
    P[2] = a[i2 + 2];
  } else {
    P[0] = a[i1] + abx * alpha;
    P[1] = a[i1 + 1] + aby * alpha;
    P[2] = a[i1 + 2] + abz * alpha;
  }
  const dx = q[iq] - P[0],
    dy = q[iq + 1] - P[1],
    dz = q[iq + 2] - P[2];
  if (dx * dx + dy * dy + dz * dz >= dist2) return 0;
  const k = write(out, id, P, 0, q, iq, 0, 0, 0, 0);
  normalOut(out, k, dx, dy, dz, zero);
  return 1;
}

/** The α, β of the projection of q on the plane of triangle (p1, p2, p3) and the normal-equation terms. */
const T = new Float64Array(7);
function triangleParams(t: ArrayLike<number>, i1: number, i2: number, i3: number, q: ArrayLike<number>, iq: number): void {
  const abx = t[i2] - t[i1],
    aby = t[i2 + 1] - t[i1 + 1],
    abz = t[i2 + 2] - t[i1 + 2];
  const acx = t[i3] - t[i1],
    acy = t[i3 + 1] - t[i1 + 1],
    acz = t[i3 + 2] - t[i1 + 2];
  const aqx = q[iq] - t[i1],
    aqy = q[iq + 1] - t[i1 + 1],
    aqz = q[iq + 2] - t[i1 + 2];
  const a00 = abx * abx + aby * aby + abz * abz;
  const a11 = acx * acx + acy * acy + acz * acz;
  const a01 = abx * acx + aby * acy + abz * acz;
  const b0 = aqx * abx + aqy * aby + aqz * abz;
  const b1 = aqx * acx + aqy * acy + aqz * acz;
  const det = a00 * a11 - a01 * a01;
  T[0] = (b0 * a11 - b1 * a01) / det; // α
  T[1] = (b1 * a00 - b0 * a01) / det; // β
  T[2] = a00;
  T[3] = a11;
  T[4] = a01;
  T[5] = b0;
  T[6] = b1;
}

function trianglePoint(t: ArrayLike<number>, i1: number, i2: number, i3: number, alpha: number, beta: number): void {
  for (let c = 0; c < 3; c++) {
    const p = t[i1 + c];
    P[c] = p + (t[i2 + c] - p) * alpha + (t[i3 + c] - p) * beta;
  }
}

/**
 * Triangle (p1, p2, p3) and point q, closest point anywhere on the triangle (SOFA NewProximity's
 * doIntersectionTrianglePoint). When the projection leaves the triangle (α, β or 1 − α − β below
 * machine epsilon) the closest feature is found among the corners and edges; a feature the triangle
 * does not own (`flags`) gives no contact, so that shared vertices and edges are tested once.
 * Without swap the output goes triangle → point; with swap, point → triangle.
 */
export function trianglePointFeatures(
  out: DetectionOutputs,
  dist2: number,
  flags: number,
  t: ArrayLike<number>,
  i1: number,
  i2: number,
  i3: number,
  q: ArrayLike<number>,
  iq: number,
  id: number,
  swap: boolean,
): number {
  const eps = Number.EPSILON;
  triangleParams(t, i1, i2, i3, q, iq);
  let alpha = T[0],
    beta = T[1];
  const a00 = T[2],
    a11 = T[3],
    a01 = T[4],
    b0 = T[5],
    b1 = T[6];
  if (alpha < eps || beta < eps || alpha + beta > 1 - eps) {
    const pAB = b0 / a00;
    const pAC = b1 / a11;
    if (pAB < eps && pAC < eps) {
      if (!(flags & FLAG_P1)) return 0;
      alpha = 0;
      beta = 0;
    } else if (pAB < 1 - eps && pAB >= eps && beta < eps) {
      if (!(flags & FLAG_E12)) return 0;
      alpha = pAB;
      beta = 0;
    } else if (pAC < 1 - eps && pAC >= eps && alpha < eps) {
      if (!(flags & FLAG_E31)) return 0;
      alpha = 0;
      beta = pAC;
    } else {
      const pBC = (b1 - b0 + a00 - a01) / (a00 + a11 - 2 * a01);
      if (pBC < eps) {
        if (!(flags & FLAG_P2)) return 0;
        alpha = 1;
        beta = 0;
      } else if (pBC > 1 - eps) {
        if (!(flags & FLAG_P3)) return 0;
        alpha = 0;
        beta = 1;
      } else {
        if (!(flags & FLAG_E23)) return 0;
        alpha = 1 - pBC;
        beta = pBC;
      }
    }
  }
  trianglePoint(t, i1, i2, i3, alpha, beta);
  const dx = q[iq] - P[0],
    dy = q[iq + 1] - P[1],
    dz = q[iq + 2] - P[2];
  const n2 = dx * dx + dy * dy + dz * dz;
  if (n2 >= dist2) return 0;
  const d = Math.sqrt(n2);
  if (swap) write(out, id, q, iq, P, 0, -dx / d, -dy / d, -dz / d, d);
  else write(out, id, P, 0, q, iq, dx / d, dy / d, dz / d, d);
  return 1;
}

/**
 * Triangle and sphere centre (SOFA NewProximity's triangle-sphere test), the same search with the
 * fixed tolerance 1e-6, and SOFA's flag choices (the edge AC is checked against the E12 flag, as
 * SOFA does). Writes the closest triangle point in `P`-order: returns 1 and sets `closest` and the
 * distance in `closest[3]` when closer than sqrt(dist2). No output is appended.
 */
export function triangleSphereClosest(
  closest: Float64Array,
  dist2: number,
  flags: number,
  t: ArrayLike<number>,
  i1: number,
  i2: number,
  i3: number,
  q: ArrayLike<number>,
  iq: number,
): number {
  triangleParams(t, i1, i2, i3, q, iq);
  let alpha = T[0],
    beta = T[1];
  const a00 = T[2],
    a11 = T[3],
    a01 = T[4],
    b0 = T[5],
    b1 = T[6];
  if (alpha < 0.000001 || beta < 0.000001 || alpha + beta > 0.999999) {
    const pAB = b0 / a00;
    const pAC = b1 / a11;
    if (pAB < 0.000001 && pAC < 0.0000001) {
      if (!(flags & FLAG_P1)) return 0;
      alpha = 0;
      beta = 0;
    } else if (pAB < 0.999999 && beta < 0.000001) {
      if (!(flags & FLAG_E12)) return 0;
      alpha = pAB;
      beta = 0;
    } else if (pAC < 0.999999 && alpha < 0.000001) {
      if (!(flags & FLAG_E12)) return 0;
      alpha = 0;
      beta = pAC;
    } else {
      const pBC = (b1 - b0 + a00 - a01) / (a00 + a11 - 2 * a01);
      if (pBC < 0.000001) {
        if (!(flags & FLAG_P2)) return 0;
        alpha = 1;
        beta = 0;
      } else if (pBC > 0.999999) {
        if (!(flags & FLAG_P3)) return 0;
        alpha = 0;
        beta = 1;
      } else {
        if (!(flags & FLAG_E31)) return 0;
        alpha = 1 - pBC;
        beta = pBC;
      }
    }
  }
  trianglePoint(t, i1, i2, i3, alpha, beta);
  const dx = q[iq] - P[0],
    dy = q[iq + 1] - P[1],
    dz = q[iq + 2] - P[2];
  const n2 = dx * dx + dy * dy + dz * dz;
  if (n2 >= dist2) return 0;
  closest[0] = P[0];
  closest[1] = P[1];
  closest[2] = P[2];
  closest[3] = Math.sqrt(n2);
  return 1;
}

/**
 * Triangle and point, closest point strictly inside the triangle only (SOFA MinProximity and
 * LocalMinDistance): α, β ≥ 1e-6 and α + β ≤ 1 − 1e-6, else no contact (edges and corners are
 * left to the line and point models). Output triangle → point.
 */
export function trianglePointInterior(
  out: DetectionOutputs,
  dist2: number,
  t: ArrayLike<number>,
  i1: number,
  i2: number,
  i3: number,
  q: ArrayLike<number>,
  iq: number,
  id: number,
  zero: ZeroDistance,
): number {
  triangleParams(t, i1, i2, i3, q, iq);
  const alpha = T[0],
    beta = T[1];
  if (alpha < 0.000001 || beta < 0.000001 || alpha + beta > 0.999999) return 0;
  trianglePoint(t, i1, i2, i3, alpha, beta);
  const dx = q[iq] - P[0],
    dy = q[iq + 1] - P[1],
    dz = q[iq + 2] - P[2];
  if (dx * dx + dy * dy + dz * dz >= dist2) return 0;
  const k = write(out, id, P, 0, q, iq, 0, 0, 0, 0);
  normalOut(out, k, dx, dy, dz, zero);
  return 1;
}

/**
 * Two spheres (SOFA DiscreteIntersection's sphere test, also used by MinProximity): contact when
 * |c2 − c1| ≤ r1 + r2 + alarm; normal n = (c2 − c1)/|c2 − c1|, points on the surfaces c1 + r1·n
 * and c2 − r2·n, value = |c2 − c1| − r1 − r2 − contact.
 */
export function sphereSphere(
  out: DetectionOutputs,
  alarm: number,
  contact: number,
  c1: ArrayLike<number>,
  i1: number,
  r1: number,
  c2: ArrayLike<number>,
  i2: number,
  r2: number,
  id: number,
): number {
  const r = r1 + r2;
  const lim = alarm + r;
  const dx = c2[i2] - c1[i1],
    dy = c2[i2 + 1] - c1[i1 + 1],
    dz = c2[i2 + 2] - c1[i1 + 2];
  const n2 = dx * dx + dy * dy + dz * dz;
  if (n2 > lim * lim) return 0;
  const d = Math.sqrt(n2);
  const nx = dx / d,
    ny = dy / d,
    nz = dz / d;
  P[0] = c1[i1] + nx * r1;
  P[1] = c1[i1 + 1] + ny * r1;
  P[2] = c1[i1 + 2] + nz * r1;
  Q[0] = c2[i2] - nx * r2;
  Q[1] = c2[i2 + 1] - ny * r2;
  Q[2] = c2[i2 + 2] - nz * r2;
  write(out, id, P, 0, Q, 0, nx, ny, nz, d - r - contact);
  return 1;
}

/**
 * Segment [p q] crossing triangle (a, b, c) (SOFA MeshDiscreteIntersection): solves
 * a + s·AB + t·AC = p + u·PQ; a contact when s, t ≥ 0, s + t ≤ 1 and 0 ≤ u ≤ 1, at the crossing
 * point X (both points), value 0. Returns the number of outputs; the caller sets the normal.
 */
export function triangleSegmentCrossing(
  out: DetectionOutputs,
  t: ArrayLike<number>,
  i1: number,
  i2: number,
  i3: number,
  s: ArrayLike<number>,
  j1: number,
  j2: number,
  id: number,
): number {
  const abx = t[i2] - t[i1],
    aby = t[i2 + 1] - t[i1 + 1],
    abz = t[i2 + 2] - t[i1 + 2];
  const acx = t[i3] - t[i1],
    acy = t[i3 + 1] - t[i1 + 1],
    acz = t[i3 + 2] - t[i1 + 2];
  const pqx = -(s[j2] - s[j1]),
    pqy = -(s[j2 + 1] - s[j1 + 1]),
    pqz = -(s[j2 + 2] - s[j1 + 2]);
  const rx = s[j1] - t[i1],
    ry = s[j1 + 1] - t[i1 + 1],
    rz = s[j1 + 2] - t[i1 + 2];
  // M = [AB AC −PQ] (columns); Cramer's rule.
  const det = abx * (acy * pqz - acz * pqy) - acx * (aby * pqz - abz * pqy) + pqx * (aby * acz - abz * acy);
  if (det === 0 || !Number.isFinite(det)) return 0;
  const u0 = (rx * (acy * pqz - acz * pqy) - acx * (ry * pqz - rz * pqy) + pqx * (ry * acz - rz * acy)) / det;
  const u1 = (abx * (ry * pqz - rz * pqy) - rx * (aby * pqz - abz * pqy) + pqx * (aby * rz - abz * ry)) / det;
  const u2 = (abx * (acy * rz - acz * ry) - acx * (aby * rz - abz * ry) + rx * (aby * acz - abz * acy)) / det;
  if (u0 < 0 || u1 < 0 || u0 + u1 > 1) return 0;
  if (u2 < 0 || u2 > 1) return 0;
  P[0] = s[j1] - pqx * u2;
  P[1] = s[j1 + 1] - pqy * u2;
  P[2] = s[j1 + 2] - pqz * u2;
  write(out, id, P, 0, P, 0, 0, 0, 0, 0);
  return 1;
}
