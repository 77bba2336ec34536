import { Enum, Int, Real, nonNegative, positive, sofaComponent } from '@sofa-ts/core';
import type { CollisionModel, ContinuousIntersectionType } from '../model/CollisionModel.js';
import type { LineCollisionModel } from '../model/LineCollisionModel.js';
import type { TriangleCollisionModel } from '../model/TriangleCollisionModel.js';
import { BaseProximityIntersection } from './BaseProximityIntersection.js';
import type { DetectionOutputs } from './detection-outputs.js';
import { biggerModelIndex } from './intersection-method.js';
import { TightInclusionCCD } from './tight-inclusion.js';

const CONTINUOUS_TYPES = ['None', 'Inertia', 'FreeMotion'] as const;

/**
 * SOFA's CCDTightInclusionIntersection: continuous collision detection between the positions of the
 * start of the step (x) and the free positions (x_free, the free motion of a FreeMotionAnimationLoop;
 * x itself for a state without free positions), with the Tight-Inclusion root finder
 * (tight-inclusion.ts). Primitives collide when they come within the minimum separation
 *   ms = contactDistance + contactDistance of both models
 * at some time t ∈ [0, 1] of the straight-line motion x(t) = (1 − t)·x + t·x_free. Tests:
 *   triangle–point: vertex–face query; on a hit at the (conservative) time of impact t*, with the
 *     positions x(t*): n = (b − a) × (c − a)/|…|, the point's projection on the triangle's plane in
 *     barycentric coordinates (α, β, γ); outputs point0 = α·a + β·b + γ·c and point1 = p at the start
 *     of the step, normal n (at t*), value = (point1 − point0)·n − ms (the distance at the start);
 *   segment–segment: edge–edge query; on a hit, the closest points of the two segments at t*
 *     (parameters clamped to the segments), taken with the same parameters on the segments at the
 *     start of the step as point0, point1, normal from the first to the second point at t*, value =
 *     their distance at t* − ms;
 *   cube–cube: the boxes of the bounding trees (alarmDistance + the models' contactDistance).
 * Ignored pairs (no contact, as in SOFA): sphere–sphere, sphere–point, point–point, segment–point,
 * segment–sphere, triangle–segment, triangle–triangle, triangle–sphere.
 * continuousCollisionType 'Inertia' or 'FreeMotion' makes the pipeline sweep the bounding boxes over
 * the motion x → x + dt·v or x → x_free ('None': boxes at x, the CCD queries still use x → x_free,
 * as in SOFA). The box tests reach alarmDistance + the models' contactDistance, not ms: with an
 * alarmDistance below the method's contactDistance, elements closer than ms can be skipped by the
 * boxes (SOFA's behaviour; its fallingSOFA demo gives the obstacle a contactDistance instead).
 */
@sofaComponent({
  name: 'CCDTightInclusionIntersection',
  category: 'CollisionAlgorithm',
  module: 'Sofa.Component.Collision.Detection.Intersection',
  description:
    'Continuous collision detection (Tight-Inclusion) between the positions at the start of the step and the free motion, for constraint-based contacts.',
})
export class CCDTightInclusionIntersection extends BaseProximityIntersection {
  readonly continuousCollisionType = this.initData({
    name: 'continuousCollisionType',
    type: Enum(CONTINUOUS_TYPES),
    default: 'None',
    help: "motion the bounding boxes of the collision models cover: 'None' (positions at the start of the step), 'Inertia' (x → x + dt·v) or 'FreeMotion' (x → free position); the CCD queries always go from the positions at the start of the step to the free positions",
  });
  readonly tolerance = this.initData({
    name: 'tolerance',
    type: Real,
    default: 1e-10,
    unit: 'm',
    range: nonNegative,
    help: 'distance tolerance of the Tight-Inclusion root finder (the parameter boxes are refined until F moves less than this across them)',
  });
  readonly maxIterations = this.initData({
    name: 'maxIterations',
    type: Int,
    default: 1000,
    range: positive,
    help: 'number of boxes the Tight-Inclusion root finder examines per query before it reports a collision at its conservative time (queries whose roots fill a curve or a volume, e.g. with a minimum separation, usually end there; sofa-ts refuses the unlimited search of a value ≤ 0, which such queries never finish)',
  });

  private readonly ccd = new TightInclusionCCD();
  /** Query input: 4 points at the start of the step, then at its end. */
  private readonly q = new Float64Array(24);
  private readonly scratch = new Float64Array(12);
  private readonly params = new Float64Array(2);

  override useContinuous(): boolean {
    return this.continuousCollisionType.value !== 'None';
  }

  override continuousIntersectionType(): ContinuousIntersectionType {
    const t = this.continuousCollisionType.value;
    return t === 'Inertia' ? 'inertia' : t === 'FreeMotion' ? 'freemotion' : 'none';
  }

  protected registerIntersectors(): void {
    this.add('cube', 'cube', () => 0);
    this.add('line', 'line', (a, i, b, j, out) => this.lineLine(a as LineCollisionModel, i, b as LineCollisionModel, j, out));
    this.add('triangle', 'point', (a, i, b, j, out) => this.trianglePoint(a as TriangleCollisionModel, i, b, j, out));
    this.ignore('sphere', 'sphere');
    this.ignore('sphere', 'point');
    this.ignore('point', 'point');
    this.ignore('line', 'point');
    this.ignore('line', 'sphere');
    this.ignore('triangle', 'line');
    this.ignore('triangle', 'triangle');
    this.ignore('triangle', 'sphere');
  }

  /** ms: the method's contactDistance and both models'. */
  private separation(a: CollisionModel, b: CollisionModel): number {
    return this.getContactDistance() + a.getProximity() + b.getProximity();
  }

  /** Copies point `ip` of x (start) and of xe (end) into slot k of the query. */
  private load(k: number, x: Float64Array, xe: Float64Array, ip: number): void {
    const q = this.q;
    q[3 * k] = x[ip];
    q[3 * k + 1] = x[ip + 1];
    q[3 * k + 2] = x[ip + 2];
    q[12 + 3 * k] = xe[ip];
    q[13 + 3 * k] = xe[ip + 1];
    q[14 + 3 * k] = xe[ip + 2];
  }

  /** Point k of the query at time t, into s[o..o+3). */
  private at(k: number, t: number, s: Float64Array, o: number): void {
    const q = this.q;
    for (let c = 0; c < 3; c++) s[o + c] = (1 - t) * q[3 * k + c] + t * q[12 + 3 * k + c];
  }

  private trianglePoint(a: TriangleCollisionModel, i: number, b: CollisionModel, j: number, out: DetectionOutputs): number {
    const tri = a.triangles;
    const ia = 3 * tri[3 * i],
      ib = 3 * tri[3 * i + 1],
      ic = 3 * tri[3 * i + 2];
    const xa = a.x,
      xaEnd = a.xFree,
      xb = b.x,
      xbEnd = b.xFree;
    this.load(0, xb, xbEnd, 3 * j);
    this.load(1, xa, xaEnd, ia);
    this.load(2, xa, xaEnd, ib);
    this.load(3, xa, xaEnd, ic);
    const ms = this.separation(a, b);
    if (!this.ccd.vertexFaceCCD(this.q, ms, this.tolerance.value, 1, this.maxIterations.value)) return 0;
    const t = this.ccd.toi;
    const s = this.scratch;
    this.at(0, t, s, 0); // p
    this.at(1, t, s, 3); // a
    this.at(2, t, s, 6); // b
    this.at(3, t, s, 9); // c
    const ux = s[6] - s[3],
      uy = s[7] - s[4],
      uz = s[8] - s[5];
    const vx = s[9] - s[3],
      vy = s[10] - s[4],
      vz = s[11] - s[5];
    let nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (l > 0) {
      nx /= l;
      ny /= l;
      nz /= l;
    }
    // Barycentric coordinates of the point's projection on the plane of the triangle at t*:
    // w = p − a (its normal part does not change them), β·u + γ·v = w in least squares.
    const wx = s[0] - s[3],
      wy = s[1] - s[4],
      wz = s[2] - s[5];
    const uu = ux * ux + uy * uy + uz * uz,
      uv = ux * vx + uy * vy + uz * vz,
      vv = vx * vx + vy * vy + vz * vz;
    const wu = wx * ux + wy * uy + wz * uz,
      wv = wx * vx + wy * vy + wz * vz;
    const det = uu * vv - uv * uv;
    let beta = 0,
      gamma = 0;
    if (det !== 0) {
      beta = (vv * wu - uv * wv) / det;
      gamma = (uu * wv - uv * wu) / det;
    }
    const alpha = 1 - beta - gamma;
    const k = out.push();
    const o = 3 * k;
    let value = 0;
    for (let c = 0; c < 3; c++) {
      const p0 = alpha * xa[ia + c] + beta * xa[ib + c] + gamma * xa[ic + c];
      out.point0[o + c] = p0;
      out.point1[o + c] = xb[3 * j + c];
    }
    out.normal[o] = nx;
    out.normal[o + 1] = ny;
    out.normal[o + 2] = nz;
    value =
      (out.point1[o] - out.point0[o]) * nx + (out.point1[o + 1] - out.point0[o + 1]) * ny + (out.point1[o + 2] - out.point0[o + 2]) * nz;
    out.value[k] = value - ms;
    out.elem1[k] = i;
    out.elem2[k] = j;
    out.id[k] = biggerModelIndex(a, i, b, j);
    return 1;
  }

  private lineLine(a: LineCollisionModel, i: number, b: LineCollisionModel, j: number, out: DetectionOutputs): number {
    const ea = a.edges,
      eb = b.edges;
    const a1 = 3 * ea[2 * i],
      a2 = 3 * ea[2 * i + 1],
      b1 = 3 * eb[2 * j],
      b2 = 3 * eb[2 * j + 1];
    const xa = a.x,
      xb = b.x;
    this.load(0, xa, a.xFree, a1);
    this.load(1, xa, a.xFree, a2);
    this.load(2, xb, b.xFree, b1);
    this.load(3, xb, b.xFree, b2);
    const ms = this.separation(a, b);
    if (!this.ccd.edgeEdgeCCD(this.q, ms, this.tolerance.value, 1, this.maxIterations.value)) return 0;
    const t = this.ccd.toi;
    const s = this.scratch;
    this.at(0, t, s, 0);
    this.at(1, t, s, 3);
    this.at(2, t, s, 6);
    this.at(3, t, s, 9);
    const fg = this.params;
    closestSegmentParameters(s, fg);
    const f = fg[0],
      g = fg[1];
    const k = out.push();
    const o = 3 * k;
    let nx = 0,
      ny = 0,
      nz = 0;
    for (let c = 0; c < 3; c++) {
      out.point0[o + c] = (1 - f) * xa[a1 + c] + f * xa[a2 + c];
      out.point1[o + c] = (1 - g) * xb[b1 + c] + g * xb[b2 + c];
      const d = (1 - g) * s[6 + c] + g * s[9 + c] - ((1 - f) * s[c] + f * s[3 + c]);
      if (c === 0) nx = d;
      else if (c === 1) ny = d;
      else nz = d;
    }
    const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (l > 0) {
      nx /= l;
      ny /= l;
      nz /= l;
    }
    out.normal[o] = nx;
    out.normal[o + 1] = ny;
    out.normal[o + 2] = nz;
    out.value[k] = l - ms;
    out.elem1[k] = i;
    out.elem2[k] = j;
    out.id[k] = biggerModelIndex(a, i, b, j);
    return 1;
  }
}

/**
 * Parameters (f, g) → out of the closest points of segments [s0, s1] and [s2, s3] (points at offsets
 * 0, 3, 6, 9 of s), each in [0, 1]: the unconstrained minimiser of |P(f) − Q(g)|², then clamped one
 * segment at a time (parallel segments: f = 0).
 */
export function closestSegmentParameters(s: ArrayLike<number>, out: Float64Array): void {
  let aa = 0,
    ab = 0,
    bb = 0,
    ar = 0,
    br = 0;
  for (let c = 0; c < 3; c++) {
    const d1 = s[3 + c] - s[c],
      d2 = s[9 + c] - s[6 + c],
      r = s[c] - s[6 + c];
    aa += d1 * d1;
    ab += d1 * d2;
    bb += d2 * d2;
    ar += d1 * r;
    br += d2 * r;
  }
  const clamp = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);
  out[0] = 0;
  out[1] = 0;
  if (aa === 0 && bb === 0) return;
  if (aa === 0) {
    out[1] = clamp(br / bb);
    return;
  }
  if (bb === 0) {
    out[0] = clamp(-ar / aa);
    return;
  }
  const det = aa * bb - ab * ab;
  let f = det > 1e-14 * aa * bb ? clamp((ab * br - bb * ar) / det) : 0;
  // g for this f, then f again for the clamped g
  let g = (ab * f + br) / bb;
  if (g < 0) {
    g = 0;
    f = clamp(-ar / aa);
  } else if (g > 1) {
    g = 1;
    f = clamp((ab - ar) / aa);
  }
  out[0] = f;
  out[1] = g;
}
