import { sofaComponent } from '@sofa-ts/core';
import { addDistanceGridIntersectors } from '../distance-grid/distance-grid-intersections.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import type { LineCollisionModel } from '../model/LineCollisionModel.js';
import type { SphereCollisionModel } from '../model/SphereCollisionModel.js';
import type { TriangleCollisionModel } from '../model/TriangleCollisionModel.js';
import type { DetectionOutputs } from './detection-outputs.js';
import { addOBBCapsuleIntersectors } from '../obb-capsule/obb-capsule-intersections.js';
import { IntersectionMethod, biggerModelIndex, finishOutputs } from './intersection-method.js';
import { sphereSphere, triangleSegmentCrossing } from './proximity-kernels.js';

/**
 * SOFA's DiscreteIntersection: exact intersections, no alarm or contact distance (only the models'
 * contactDistance): overlapping spheres (normal along the centres, points on both surfaces, value =
 * distance − radii, negative when they overlap) and a segment crossing a triangle (one output at
 * the crossing point, the triangle's normal, value 0). Boxes overlap when they touch.
 */
@sofaComponent({
  name: 'DiscreteIntersection',
  category: 'CollisionAlgorithm',
  module: 'Sofa.Component.Collision.Detection.Intersection',
  description: 'Intersection tests between primitives without proximity (spheres, segment-triangle).',
})
export class DiscreteIntersection extends IntersectionMethod {
  getAlarmDistance(): number {
    return 0;
  }

  getContactDistance(): number {
    return 0;
  }

  protected registerIntersectors(): void {
    this.add('cube', 'cube', () => 0);
    this.add('sphere', 'sphere', (a, i, b, j, out) => this.spheres(a, i, b, j, out));
    this.add('rigidsphere', 'rigidsphere', (a, i, b, j, out) => this.spheres(a, i, b, j, out));
    this.add('sphere', 'rigidsphere', (a, i, b, j, out) => this.spheres(a, i, b, j, out));
    this.add('triangle', 'line', (a, i, b, j, out) => this.triangleLine(a as TriangleCollisionModel, i, b as LineCollisionModel, j, out));
    addOBBCapsuleIntersectors(this, (k1, k2, test) => this.add(k1, k2, test));
    addDistanceGridIntersectors(this, (k1, k2, test) => this.add(k1, k2, test));
  }

  private spheres(a: CollisionModel, i: number, b: CollisionModel, j: number, out: DetectionOutputs): number {
    const sa = a as SphereCollisionModel,
      sb = b as SphereCollisionModel;
    const prox = a.getProximity() + b.getProximity();
    const n = sphereSphere(
      out,
      prox,
      prox,
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

  private triangleLine(a: TriangleCollisionModel, i: number, b: LineCollisionModel, j: number, out: DetectionOutputs): number {
    const t = a.triangles,
      e = b.edges;
    const n = triangleSegmentCrossing(out, a.x, 3 * t[3 * i], 3 * t[3 * i + 1], 3 * t[3 * i + 2], b.x, 3 * e[2 * j], 3 * e[2 * j + 1], j);
    if (n > 0) {
      const o = 3 * (out.count - 1);
      for (let c = 0; c < 3; c++) out.normal[o + c] = a.normals[3 * i + c];
    }
    return finishOutputs(out, n, i, j, 0);
  }
}
