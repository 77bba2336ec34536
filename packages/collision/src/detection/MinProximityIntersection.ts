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
import { MIN_PROXIMITY_LINE_LINE, lineLine, linePointEnds, pointPoint, sphereSphere, trianglePointInterior } from './proximity-kernels.js';

/**
 * SOFA's MinProximityIntersection: minimal-distance tests, each pair of features tested once by
 * the model that owns it (a mesh is usually given triangle, line and point models together):
 *   triangle-point only when the closest point is strictly inside the triangle, segment-point
 *   (closest point of the segment, its end points included; useLinePoint), segment-segment
 *   (interiors; useLineLine), point-point (usePointPoint), spheres; triangle-segment and
 *   triangle-triangle are not tested (left to the line and point models). With useSurfaceNormals,
 *   a triangle-point contact takes the triangle's normal. Zero distances give the normal (1, 0, 0).
 */
@sofaComponent({
  name: 'MinProximityIntersection',
  category: 'CollisionAlgorithm',
  module: 'Sofa.Component.Collision.Detection.Intersection',
  description: 'A set of methods to compute if two primitives are close enough to consider they collide.',
})
export class MinProximityIntersection extends BaseProximityIntersection {
  readonly useSphereTriangle = this.initData({
    name: 'useSphereTriangle',
    type: Bool,
    default: true,
    help: 'activate Sphere-Triangle intersection tests',
  });
  readonly usePointPoint = this.initData({
    name: 'usePointPoint',
    type: Bool,
    default: true,
    help: 'activate Point-Point intersection tests',
  });
  readonly useSurfaceNormals = this.initData({
    name: 'useSurfaceNormals',
    type: Bool,
    default: false,
    help: 'compute the normals of the detection outputs from the normals of the surfaces involved',
  });
  readonly useLinePoint = this.initData({
    name: 'useLinePoint',
    type: Bool,
    default: true,
    help: 'activate Line-Point intersection tests',
  });
  readonly useLineLine = this.initData({ name: 'useLineLine', type: Bool, default: true, help: 'activate Line-Line intersection tests' });

  protected registerIntersectors(): void {
    this.add('cube', 'cube', () => 0);
    this.add('sphere', 'sphere', (a, i, b, j, out) => this.spheres(a, i, b, j, out));
    this.add('rigidsphere', 'rigidsphere', (a, i, b, j, out) => this.spheres(a, i, b, j, out));
    this.add('sphere', 'rigidsphere', (a, i, b, j, out) => this.spheres(a, i, b, j, out));
    const opt = (
      on: boolean,
      k1: Parameters<typeof this.add>[0],
      k2: Parameters<typeof this.add>[1],
      test: Parameters<typeof this.add>[2],
    ): void => {
      if (on) this.add(k1, k2, test);
      else this.ignore(k1, k2);
    };
    opt(this.usePointPoint.value, 'point', 'point', (a, i, b, j, out) => this.pointPoint(a, i, b, j, out));
    opt(this.useLinePoint.value, 'line', 'point', (a, i, b, j, out) => this.linePoint(a as LineCollisionModel, i, b, j, 3, 0, out));
    opt(this.useLineLine.value, 'line', 'line', (a, i, b, j, out) =>
      this.lineLine(a as LineCollisionModel, i, b as LineCollisionModel, j, out),
    );
    this.add('triangle', 'point', (a, i, b, j, out) => this.trianglePoint(a as TriangleCollisionModel, i, b, j, 3, 0, out));
    this.ignore('triangle', 'line');
    this.ignore('triangle', 'triangle');
    const st = this.useSphereTriangle.value;
    opt(st, 'sphere', 'point', (a, i, b, j, out) => this.spherePoint(a as SphereCollisionModel, i, b, j, out));
    opt(st, 'rigidsphere', 'point', (a, i, b, j, out) => this.spherePoint(a as SphereCollisionModel, i, b, j, out));
    for (const k of ['sphere', 'rigidsphere'] as const) {
      opt(st, 'triangle', k, (a, i, b, j, out) =>
        this.trianglePoint(
          a as TriangleCollisionModel,
          i,
          b,
          j,
          (b as SphereCollisionModel).stride,
          (b as SphereCollisionModel).getRadius(j),
          out,
        ),
      );
      opt(st, 'line', k, (a, i, b, j, out) =>
        this.linePoint(a as LineCollisionModel, i, b, j, (b as SphereCollisionModel).stride, (b as SphereCollisionModel).getRadius(j), out),
      );
    }
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
    const n = sphereSphere(
      out,
      this.alarm(a, b),
      this.contact(a, b),
      a.x,
      sa.stride * i,
      sa.getRadius(i),
      b.x,
      sb.stride * j,
      sb.getRadius(j),
      biggerModelIndex(a, i, b, j),
    );
    return finishOutputs(out, n, i, j, 0);
  }

  private pointPoint(a: CollisionModel, i: number, b: CollisionModel, j: number, out: DetectionOutputs): number {
    const alarm = this.alarm(a, b);
    const n = pointPoint(out, alarm * alarm, a.x, 3 * i, b.x, 3 * j, biggerModelIndex(a, i, b, j), 'guard');
    return finishOutputs(out, n, i, j, this.contact(a, b));
  }

  /** Segment i of a and point (or sphere centre, radius r) j of b. */
  private linePoint(
    a: LineCollisionModel,
    i: number,
    b: CollisionModel,
    j: number,
    stride: number,
    r: number,
    out: DetectionOutputs,
  ): number {
    const alarm = this.alarm(a, b) + r;
    const e = a.edges;
    const n = linePointEnds(out, alarm * alarm, a.x, 3 * e[2 * i], 3 * e[2 * i + 1], b.x, stride * j, j, 'guard');
    return finishOutputs(out, n, i, j, this.contact(a, b) + r);
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
      MIN_PROXIMITY_LINE_LINE,
    );
    return finishOutputs(out, n, i, j, this.contact(a, b));
  }

  /** Triangle i of a and point (or sphere centre, radius r) j of b. */
  private trianglePoint(
    a: TriangleCollisionModel,
    i: number,
    b: CollisionModel,
    j: number,
    stride: number,
    r: number,
    out: DetectionOutputs,
  ): number {
    const alarm = this.alarm(a, b) + r;
    const t = a.triangles;
    const n = trianglePointInterior(out, alarm * alarm, a.x, 3 * t[3 * i], 3 * t[3 * i + 1], 3 * t[3 * i + 2], b.x, stride * j, j, 'guard');
    if (n > 0 && this.useSurfaceNormals.value) {
      const o = 3 * (out.count - 1);
      out.normal[o] = a.normals[3 * i];
      out.normal[o + 1] = a.normals[3 * i + 1];
      out.normal[o + 2] = a.normals[3 * i + 2];
    }
    return finishOutputs(out, n, i, j, this.contact(a, b) + r);
  }

  private spherePoint(a: SphereCollisionModel, i: number, b: CollisionModel, j: number, out: DetectionOutputs): number {
    const r = a.getRadius(i);
    const alarm = this.alarm(a, b) + r;
    const n = pointPoint(out, alarm * alarm, a.x, a.stride * i, b.x, 3 * j, biggerModelIndex(a, i, b, j), 'guard');
    return finishOutputs(out, n, i, j, this.contact(a, b) + r);
  }
}
