import { Bool, sofaComponent } from '@sofa-ts/core';
import { addDistanceGridIntersectors } from '../distance-grid/distance-grid-intersections.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import type { LineCollisionModel } from '../model/LineCollisionModel.js';
import type { SphereCollisionModel } from '../model/SphereCollisionModel.js';
import type { TriangleCollisionModel } from '../model/TriangleCollisionModel.js';
import { BaseProximityIntersection } from './BaseProximityIntersection.js';
import type { DetectionOutputs } from './detection-outputs.js';
import { addOBBCapsuleIntersectors } from '../obb-capsule/obb-capsule-intersections.js';
import { biggerModelIndex, finishOutputs } from './intersection-method.js';
import {
  FLAG_E12,
  FLAG_E23,
  FLAG_E31,
  FLAG_P1,
  FLAG_P2,
  FLAG_P3,
  NEW_PROXIMITY_LINE_LINE,
  lineLine,
  linePointClamped,
  pointPoint,
  trianglePointFeatures,
  triangleSphereClosest,
} from './proximity-kernels.js';

/** Flags of the edges E12, E23, E31, in SOFA's order of the edge-edge tests. */
const EDGE_FLAGS = [FLAG_E12, FLAG_E23, FLAG_E31];

/**
 * SOFA's NewProximityIntersection: closest points between primitives within the alarm distance
 * (alarmDistance + contactDistance of both models, + radii for spheres); the value of an output is
 * the distance minus the contact distance. Tests:
 *   point-point, segment-point (clamped to the segment), segment-segment (interiors, useLineLine),
 *   triangle-point (any feature of the triangle, each shared feature owned by one triangle),
 *   triangle-segment (the triangle's owned corners against the segment, the segment ends against the
 *   triangle, and with useLineLine the owned edges against the segment), triangle-triangle (corners
 *   of each against the other, with useLineLine owned edges against owned edges; triangles of one
 *   model sharing a point are skipped), sphere-sphere, sphere-point, segment-sphere, triangle-sphere.
 * Contact ids follow SOFA (they decide which duplicate outputs the response merges).
 */
@sofaComponent({
  name: 'NewProximityIntersection',
  category: 'CollisionAlgorithm',
  module: 'Sofa.Component.Collision.Detection.Intersection',
  description: 'Optimized proximity intersection based on triangle-triangle tests.',
})
export class NewProximityIntersection extends BaseProximityIntersection {
  readonly useLineLine = this.initData({ name: 'useLineLine', type: Bool, default: false, help: 'line-line collision detection enabled' });

  private readonly closest = new Float64Array(4);
  /** Scratch: offsets of the end points of the edges of two triangles. */
  private readonly edgeEnds = new Int32Array(12);

  protected registerIntersectors(): void {
    this.add('cube', 'cube', () => 0);
    this.add('sphere', 'sphere', (a, i, b, j, out) => this.spheres(a, i, b, j, out));
    this.add('rigidsphere', 'rigidsphere', (a, i, b, j, out) => this.spheres(a, i, b, j, out));
    this.add('sphere', 'rigidsphere', (a, i, b, j, out) => this.spheres(a, i, b, j, out));
    this.add('point', 'point', (a, i, b, j, out) => this.pointPoint(a, i, b, j, out));
    this.add('line', 'point', (a, i, b, j, out) => this.linePoint(a as LineCollisionModel, i, b, j, out));
    this.add('line', 'line', (a, i, b, j, out) => this.lineLine(a as LineCollisionModel, i, b as LineCollisionModel, j, out));
    this.add('triangle', 'point', (a, i, b, j, out) => this.trianglePoint(a as TriangleCollisionModel, i, b, j, out));
    this.add('triangle', 'line', (a, i, b, j, out) => this.triangleLine(a as TriangleCollisionModel, i, b as LineCollisionModel, j, out));
    this.add('triangle', 'triangle', (a, i, b, j, out) =>
      this.triangleTriangle(a as TriangleCollisionModel, i, b as TriangleCollisionModel, j, out),
    );
    this.add('sphere', 'point', (a, i, b, j, out) => this.spherePoint(a as SphereCollisionModel, i, b, j, out));
    this.add('rigidsphere', 'point', (a, i, b, j, out) => this.spherePoint(a as SphereCollisionModel, i, b, j, out));
    this.add('line', 'sphere', (a, i, b, j, out) => this.lineSphere(a as LineCollisionModel, i, b as SphereCollisionModel, j, out));
    this.add('line', 'rigidsphere', (a, i, b, j, out) => this.lineSphere(a as LineCollisionModel, i, b as SphereCollisionModel, j, out));
    this.add('triangle', 'sphere', (a, i, b, j, out) =>
      this.triangleSphere(a as TriangleCollisionModel, i, b as SphereCollisionModel, j, out, false),
    );
    this.add('triangle', 'rigidsphere', (a, i, b, j, out) =>
      this.triangleSphere(a as TriangleCollisionModel, i, b as SphereCollisionModel, j, out, true),
    );
    addOBBCapsuleIntersectors(this, (k1, k2, test) => this.add(k1, k2, test));
    addDistanceGridIntersectors(this, (k1, k2, test) => this.add(k1, k2, test));
  }

  private alarm(a: CollisionModel, b: CollisionModel): number {
    return this.getAlarmDistance() + a.getProximity() + b.getProximity();
  }

  private contact(a: CollisionModel, b: CollisionModel): number {
    return this.getContactDistance() + a.getProximity() + b.getProximity();
  }

  private spheres(a: CollisionModel, i: number, b: CollisionModel, j: number, out: DetectionOutputs): number {
    const sa = a as SphereCollisionModel,
      sb = b as SphereCollisionModel;
    const r = sa.getRadius(i) + sb.getRadius(j);
    const alarm = this.alarm(a, b) + r;
    const n = pointPoint(out, alarm * alarm, a.x, sa.stride * i, b.x, sb.stride * j, biggerModelIndex(a, i, b, j), 'raw');
    return finishOutputs(out, n, i, j, this.contact(a, b) + r);
  }

  private pointPoint(a: CollisionModel, i: number, b: CollisionModel, j: number, out: DetectionOutputs): number {
    const alarm = this.alarm(a, b);
    const n = pointPoint(out, alarm * alarm, a.x, 3 * i, b.x, 3 * j, biggerModelIndex(a, i, b, j), 'raw');
    return finishOutputs(out, n, i, j, this.contact(a, b));
  }

  private linePoint(a: LineCollisionModel, i: number, b: CollisionModel, j: number, out: DetectionOutputs): number {
    const alarm = this.alarm(a, b);
    const e = a.edges;
    const n = linePointClamped(out, alarm * alarm, a.x, 3 * e[2 * i], 3 * e[2 * i + 1], b.x, 3 * j, j, false);
    return finishOutputs(out, n, i, j, this.contact(a, b));
  }

  private lineLine(a: LineCollisionModel, i: number, b: LineCollisionModel, j: number, out: DetectionOutputs): number {
    const alarm = this.alarm(a, b);
    const ea = a.edges,
      eb = b.edges;
    const n = lineLine(
      out,
      alarm * alarm,
      a.x,
      3 * ea[2 * i],
      3 * ea[2 * i + 1],
      b.x,
      3 * eb[2 * j],
      3 * eb[2 * j + 1],
      biggerModelIndex(a, i, b, j),
      NEW_PROXIMITY_LINE_LINE,
    );
    return finishOutputs(out, n, i, j, this.contact(a, b));
  }

  private trianglePoint(a: TriangleCollisionModel, i: number, b: CollisionModel, j: number, out: DetectionOutputs): number {
    const alarm = this.alarm(a, b);
    const t = a.triangles;
    const n = trianglePointFeatures(
      out,
      alarm * alarm,
      a.flags[i],
      a.x,
      3 * t[3 * i],
      3 * t[3 * i + 1],
      3 * t[3 * i + 2],
      b.x,
      3 * j,
      j,
      false,
    );
    return finishOutputs(out, n, i, j, this.contact(a, b));
  }

  private triangleLine(a: TriangleCollisionModel, i: number, b: LineCollisionModel, j: number, out: DetectionOutputs): number {
    const alarm = this.alarm(a, b);
    const d2 = alarm * alarm;
    const t = a.triangles,
      e = b.edges;
    const xa = a.x,
      xb = b.x;
    const p1 = 3 * t[3 * i],
      p2 = 3 * t[3 * i + 1],
      p3 = 3 * t[3 * i + 2];
    const q1 = 3 * e[2 * j],
      q2 = 3 * e[2 * j + 1];
    const f = a.flags[i];
    let n = 0;
    if (f & FLAG_P1) n += linePointClamped(out, d2, xb, q1, q2, xa, p1, j, true);
    if (f & FLAG_P2) n += linePointClamped(out, d2, xb, q1, q2, xa, p2, j, true);
    if (f & FLAG_P3) n += linePointClamped(out, d2, xb, q1, q2, xa, p3, j, true);
    n += trianglePointFeatures(out, d2, f, xa, p1, p2, p3, xb, q1, j, false);
    n += trianglePointFeatures(out, d2, f, xa, p1, p2, p3, xb, q2, j, false);
    if (this.useLineLine.value) {
      if (f & FLAG_E12) n += lineLine(out, d2, xa, p1, p2, xb, q1, q2, j, NEW_PROXIMITY_LINE_LINE);
      if (f & FLAG_E23) n += lineLine(out, d2, xa, p2, p3, xb, q1, q2, j, NEW_PROXIMITY_LINE_LINE);
      if (f & FLAG_E31) n += lineLine(out, d2, xa, p3, p1, xb, q1, q2, j, NEW_PROXIMITY_LINE_LINE);
    }
    return finishOutputs(out, n, i, j, this.contact(a, b));
  }

  private triangleTriangle(a: TriangleCollisionModel, i: number, b: TriangleCollisionModel, j: number, out: DetectionOutputs): number {
    const ta = a.triangles,
      tb = b.triangles;
    const a1 = ta[3 * i],
      a2 = ta[3 * i + 1],
      a3 = ta[3 * i + 2];
    const b1 = tb[3 * j],
      b2 = tb[3 * j + 1],
      b3 = tb[3 * j + 2];
    // Neighbouring triangles of one model (sharing a point) are not tested.
    if (a === b && (a1 === b1 || a1 === b2 || a1 === b3 || a2 === b1 || a2 === b2 || a2 === b3 || a3 === b1 || a3 === b2 || a3 === b3))
      return 0;
    const alarm = this.alarm(a, b);
    const d2 = alarm * alarm;
    const xa = a.x,
      xb = b.x;
    const p1 = 3 * a1,
      p2 = 3 * a2,
      p3 = 3 * a3;
    const q1 = 3 * b1,
      q2 = 3 * b2,
      q3 = 3 * b3;
    const f1 = a.flags[i],
      f2 = b.flags[j];
    const id1 = 3 * i; // contacts of the points of triangle i
    const id2 = 3 * a.size + 12 * j; // contacts of the points and edges of triangle j
    let n = 0;
    // The first point of triangle i is tested whatever its flag, as SOFA does.
    n += trianglePointFeatures(out, d2, f2, xb, q1, q2, q3, xa, p1, id1, true);
    if (f1 & FLAG_P2) n += trianglePointFeatures(out, d2, f2, xb, q1, q2, q3, xa, p2, id1 + 1, true);
    if (f1 & FLAG_P3) n += trianglePointFeatures(out, d2, f2, xb, q1, q2, q3, xa, p3, id1 + 2, true);
    if (f2 & FLAG_P1) n += trianglePointFeatures(out, d2, f1, xa, p1, p2, p3, xb, q1, id2, false);
    if (f2 & FLAG_P2) n += trianglePointFeatures(out, d2, f1, xa, p1, p2, p3, xb, q2, id2 + 1, false);
    if (f2 & FLAG_P3) n += trianglePointFeatures(out, d2, f1, xa, p1, p2, p3, xb, q3, id2 + 2, false);
    if (this.useLineLine.value) {
      // edges E12, E23, E31 of each triangle: end points (offsets) in `ends`, flags in EDGE_FLAGS
      const ends = this.edgeEnds;
      ends[0] = p1;
      ends[1] = p2;
      ends[2] = p2;
      ends[3] = p3;
      ends[4] = p3;
      ends[5] = p1;
      ends[6] = q1;
      ends[7] = q2;
      ends[8] = q2;
      ends[9] = q3;
      ends[10] = q3;
      ends[11] = q1;
      for (let u = 0; u < 3; u++) {
        if (!(f1 & EDGE_FLAGS[u])) continue;
        for (let v = 0; v < 3; v++) {
          if (f2 & EDGE_FLAGS[v])
            n += lineLine(
              out,
              d2,
              xa,
              ends[2 * u],
              ends[2 * u + 1],
              xb,
              ends[6 + 2 * v],
              ends[7 + 2 * v],
              id2 + 3 + 3 * u + v,
              NEW_PROXIMITY_LINE_LINE,
            );
        }
      }
    }
    return finishOutputs(out, n, i, j, this.contact(a, b));
  }

  private spherePoint(a: SphereCollisionModel, i: number, b: CollisionModel, j: number, out: DetectionOutputs): number {
    const r = a.getRadius(i);
    const alarm = this.alarm(a, b) + r;
    const n = pointPoint(out, alarm * alarm, a.x, a.stride * i, b.x, 3 * j, biggerModelIndex(a, i, b, j), 'raw');
    return finishOutputs(out, n, i, j, this.contact(a, b) + r);
  }

  private lineSphere(a: LineCollisionModel, i: number, b: SphereCollisionModel, j: number, out: DetectionOutputs): number {
    const r = b.getRadius(j);
    const alarm = this.alarm(a, b) + r;
    const e = a.edges;
    const n = linePointClamped(out, alarm * alarm, a.x, 3 * e[2 * i], 3 * e[2 * i + 1], b.x, b.stride * j, j, false);
    return finishOutputs(out, n, i, j, this.contact(a, b) + r);
  }

  /**
   * The sphere's contact point: its centre for a Vec3 sphere, the surface point facing the
   * triangle for a rigid one (SOFA's TSphere::getContactPointByNormal and its Vec3 specialisation).
   */
  private triangleSphere(
    a: TriangleCollisionModel,
    i: number,
    b: SphereCollisionModel,
    j: number,
    out: DetectionOutputs,
    surfacePoint: boolean,
  ): number {
    const r = b.getRadius(j);
    const alarm = this.alarm(a, b) + r;
    const t = a.triangles;
    const c = this.closest;
    const xb = b.x;
    const ic = b.stride * j;
    if (!triangleSphereClosest(c, alarm * alarm, a.flags[i], a.x, 3 * t[3 * i], 3 * t[3 * i + 1], 3 * t[3 * i + 2], xb, ic)) return 0;
    const k = out.push();
    const o = 3 * k;
    const d = c[3];
    let nx = 1,
      ny = 0,
      nz = 0;
    if (d > 1e-15) {
      nx = (xb[ic] - c[0]) / d;
      ny = (xb[ic + 1] - c[1]) / d;
      nz = (xb[ic + 2] - c[2]) / d;
    }
    out.elem1[k] = i;
    out.elem2[k] = j;
    out.id[k] = j;
    out.value[k] = d - (this.getContactDistance() + a.getProximity() + b.getProximity() + r);
    out.normal[o] = nx;
    out.normal[o + 1] = ny;
    out.normal[o + 2] = nz;
    out.point0[o] = c[0];
    out.point0[o + 1] = c[1];
    out.point0[o + 2] = c[2];
    const rr = surfacePoint ? r : 0;
    out.point1[o] = xb[ic] - nx * rr;
    out.point1[o + 1] = xb[ic + 1] - ny * rr;
    out.point1[o + 2] = xb[ic + 2] - nz * rr;
    return 1;
  }
}
