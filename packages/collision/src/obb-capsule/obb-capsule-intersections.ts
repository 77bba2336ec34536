import type { CollisionModel, ElementKind } from '../model/CollisionModel.js';
import type { LineCollisionModel } from '../model/LineCollisionModel.js';
import type { SphereCollisionModel } from '../model/SphereCollisionModel.js';
import type { TriangleCollisionModel } from '../model/TriangleCollisionModel.js';
import type { DetectionOutputs } from '../detection/detection-outputs.js';
import { biggerModelIndex, type ElementIntersector, type IntersectionMethod } from '../detection/intersection-method.js';
import { Closest, segmentPoint, segmentSegment, segmentTriangle } from './closest-points.js';
import type { CapsuleCollisionModel } from './CapsuleCollisionModel.js';
import type { OBBCollisionModel } from './OBBCollisionModel.js';
import { BOX_SIZE, boxBox, boxPoint, boxSegment, flip, triangleBox } from './obb-geometry.js';

/**
 * The element tests of SOFA's CollisionOBBCapsule plugin (its CapsuleDiscreteIntersection,
 * CapsuleMeshDiscreteIntersection, RigidDiscreteIntersection and RigidMeshDiscreteIntersection),
 * added to an intersection method's table. With the method's alarm distance A and contact
 * distance D, both enlarged by the two models' contactDistance, and r the radii (capsules and
 * spheres are tested on their axis and centre):
 *   a pair closer than A + r gives one output: points p (first primitive) and q (second), unit
 *   normal n from the first to the second, value = d − r − D, with d the signed distance
 *   (negative: the penetration depth of an overlap; see closest-points.ts and obb-geometry.ts).
 * Pairs (first, second): capsule–capsule, capsule–sphere, capsule–rigid sphere, capsule–box,
 * sphere–box, rigid sphere–box, box–box, triangle–box, capsule–triangle, capsule–segment.
 * Boxes (and a triangle and a box) lying face on face give one output per corner over the
 * other's face (see boxBox and triangleBox).
 * The id is 17 × the element of the model with more elements (as SOFA's point-like contacts) +
 * the corner of a face contact.
 */
export function addOBBCapsuleIntersectors(
  method: IntersectionMethod,
  add: (k1: ElementKind, k2: ElementKind, test: ElementIntersector) => void,
): void {
  const c = new Closest();
  /** The contacts of one pair of boxes (face contacts: up to 8 corners of each box, and the closest pair). */
  const manifold = Array.from({ length: 17 }, () => new Closest());
  const boxA = new Float64Array(BOX_SIZE),
    boxB = new Float64Array(BOX_SIZE);
  const alarm = (a: CollisionModel, b: CollisionModel): number => method.getAlarmDistance() + a.getProximity() + b.getProximity();
  const contact = (a: CollisionModel, b: CollisionModel): number => method.getContactDistance() + a.getProximity() + b.getProximity();
  const radius = (m: CollisionModel, i: number): number =>
    m.kind === 'capsule' ? (m as CapsuleCollisionModel).getRadius(i) : (m as SphereCollisionModel).getRadius(i);

  /** Appends c as the output of (a, i) and (b, j) when d < alarm + r; `sub` tells apart the contacts of one pair. */
  const emit = (
    a: CollisionModel,
    i: number,
    b: CollisionModel,
    j: number,
    r: number,
    out: DetectionOutputs,
    c: Closest,
    sub = 0,
  ): number => {
    if (!(c.d < alarm(a, b) + r)) return 0;
    const k = out.push();
    const o = 3 * k;
    out.elem1[k] = i;
    out.elem2[k] = j;
    out.id[k] = 17 * biggerModelIndex(a, i, b, j) + sub;
    for (let m = 0; m < 3; m++) {
      out.point0[o + m] = c.p[m];
      out.point1[o + m] = c.q[m];
      out.normal[o + m] = c.n[m];
    }
    out.value[k] = c.d - r - contact(a, b);
    return 1;
  };

  /** Offsets of the end points of segment i of a capsule or line model. */
  const end1 = (m: CollisionModel, i: number): number => 3 * (m as CapsuleCollisionModel | LineCollisionModel).edges[2 * i];
  const end2 = (m: CollisionModel, i: number): number => 3 * (m as CapsuleCollisionModel | LineCollisionModel).edges[2 * i + 1];

  const capsuleCapsule: ElementIntersector = (a, i, b, j, out) => {
    const a1 = end1(a, i),
      a2 = end2(a, i);
    const b1 = end1(b, j),
      b2 = end2(b, j);
    segmentSegment(c, a.x, a1, a2, b.x, b1, b2);
    return emit(a, i, b, j, radius(a, i) + radius(b, j), out, c);
  };
  const capsuleSphere: ElementIntersector = (a, i, b, j, out) => {
    const a1 = end1(a, i),
      a2 = end2(a, i);
    segmentPoint(c, a.x, a1, a2, b.x, (b as SphereCollisionModel).stride * j);
    return emit(a, i, b, j, radius(a, i) + radius(b, j), out, c);
  };
  const capsuleBox: ElementIntersector = (a, i, b, j, out) => {
    const a1 = end1(a, i),
      a2 = end2(a, i);
    (b as OBBCollisionModel).getBox(boxB, j);
    boxSegment(c, boxB, a.x, a1, a2);
    flip(c);
    return emit(a, i, b, j, radius(a, i), out, c);
  };
  const sphereBox: ElementIntersector = (a, i, b, j, out) => {
    (b as OBBCollisionModel).getBox(boxB, j);
    boxPoint(c, boxB, a.x, (a as SphereCollisionModel).stride * i);
    flip(c);
    return emit(a, i, b, j, radius(a, i), out, c);
  };
  const boxBoxTest: ElementIntersector = (a, i, b, j, out) => {
    (a as OBBCollisionModel).getBox(boxA, i);
    (b as OBBCollisionModel).getBox(boxB, j);
    const n = boxBox(manifold, boxA, boxB, alarm(a, b));
    let m = 0;
    for (let k = 0; k < n; k++) m += emit(a, i, b, j, 0, out, manifold[k], manifold[k].t + 1);
    return m;
  };
  const triangleBoxTest: ElementIntersector = (a, i, b, j, out) => {
    const t = (a as TriangleCollisionModel).triangles;
    (b as OBBCollisionModel).getBox(boxB, j);
    const n = triangleBox(manifold, a.x, 3 * t[3 * i], 3 * t[3 * i + 1], 3 * t[3 * i + 2], boxB, alarm(a, b));
    let m = 0;
    for (let k = 0; k < n; k++) m += emit(a, i, b, j, 0, out, manifold[k], manifold[k].t + 1);
    return m;
  };
  const capsuleTriangle: ElementIntersector = (a, i, b, j, out) => {
    const a1 = end1(a, i),
      a2 = end2(a, i);
    const t = (b as TriangleCollisionModel).triangles;
    segmentTriangle(c, a.x, a1, a2, b.x, 3 * t[3 * j], 3 * t[3 * j + 1], 3 * t[3 * j + 2]);
    return emit(a, i, b, j, radius(a, i), out, c);
  };
  const capsuleLine: ElementIntersector = (a, i, b, j, out) => {
    const a1 = end1(a, i),
      a2 = end2(a, i);
    const b1 = end1(b, j),
      b2 = end2(b, j);
    segmentSegment(c, a.x, a1, a2, b.x, b1, b2);
    return emit(a, i, b, j, radius(a, i), out, c);
  };

  add('capsule', 'capsule', capsuleCapsule);
  add('capsule', 'sphere', capsuleSphere);
  add('capsule', 'rigidsphere', capsuleSphere);
  add('capsule', 'obb', capsuleBox);
  add('sphere', 'obb', sphereBox);
  add('rigidsphere', 'obb', sphereBox);
  add('obb', 'obb', boxBoxTest);
  add('triangle', 'obb', triangleBoxTest);
  add('capsule', 'triangle', capsuleTriangle);
  add('capsule', 'line', capsuleLine);
}
