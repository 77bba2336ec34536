import { sofaComponent } from '@sofa-ts/core';
import type { CollisionModel } from '../model/CollisionModel.js';
import type { TraceResult } from '../model/triangle-octree.js';
import { isTriangleOctreeModel, type TriangleOctreeCollisionModel } from '../model/TriangleOctreeCollisionModel.js';
import type { IntersectionMethod } from './intersection-method.js';
import { NarrowPhase } from './narrow-phase.js';
import { FLAG_P1 } from './proximity-kernels.js';

/**
 * SOFA's RayTraceNarrowPhase: for a pair of TriangleOctreeCollisionModels (A, B), both ways (A
 * against B, then B against A), each point P of A (tested once, by the triangle T that owns it),
 * with its unit normal n (TriangleOctreeCollisionModel's point normals), inside B's box, casts the
 * ray P − t·n into A:
 *   - the nearest triangle T2 of B it hits (at t = t₂) must face against T (n_T·n_T2 ≤ 0: there the
 *     ray leaves B's volume, so P is inside B);
 *   - the nearest triangle T1 of A it hits (at t = t₁, where the ray leaves A) must exist and be no
 *     nearer, t₁ ≥ t₂, and face against T too (n_T·n_T1 ≤ 0): B's surface is reached inside A.
 * A contact is then made between P (on T) and Q = P − t₂·n (on T2, barycentric (u, v) of the hit),
 * normal n, value −t₂ (the penetration along the ray), id 3·T + k (k the rank of P among the
 * points T owns), as SOFA writes it. A must be closed (a ray of an open A may leave it without
 * hitting it: its points give no contact); B may be open (a floor).
 * The intersection method's tests are not used (its contactDistance still sets the response's);
 * bounding trees are only needed at their root (broad phase).
 */
@sofaComponent({
  name: 'RayTraceNarrowPhase',
  aliases: ['RayTraceDetection'],
  category: 'CollisionAlgorithm',
  module: 'Sofa.Component.Collision.Detection.Algorithm',
  description:
    "Narrow phase of the collision detection using TriangleOctreeCollisionModel (alias RayTraceDetection: SOFA's deprecated name also adds a BruteForceBroadPhase, the alias does not).",
})
export class RayTraceNarrowPhase extends NarrowPhase {
  private readonly hitOther: TraceResult = { tid: -1, t: 0, u: 0, v: 0 };
  private readonly hitSelf: TraceResult = { tid: -1, t: 0, u: 0, v: 0 };
  /** Pairs already warned about (told once). */
  private readonly warned = new Map<CollisionModel, Set<CollisionModel>>();

  override get needsDeepBoundingTree(): boolean {
    return false;
  }

  protected addCollisionPair(a: CollisionModel, b: CollisionModel, _method: IntersectionMethod): void {
    if (!isTriangleOctreeModel(a) || !isTriangleOctreeModel(b)) {
      this.warnOnce(
        a,
        b,
        `${a.describe()} and ${b.describe()} get no contact: RayTraceNarrowPhase only tests pairs of TriangleOctreeCollisionModel (SOFA skips the others likewise)`,
        'use TriangleOctreeCollisionModel for both models, or BVHNarrowPhase',
      );
      return;
    }
    if (a === b) {
      this.warnOnce(
        a,
        b,
        `${a.describe()} is not tested against itself: RayTraceNarrowPhase would find each of its points inside its own volume`,
        'turn selfCollision off, or use BVHNarrowPhase for self collision',
      );
      return;
    }
    if (a.size === 0 || b.size === 0) return;
    this.findPairsVolume(a, b);
    this.findPairsVolume(b, a);
  }

  private warnOnce(a: CollisionModel, b: CollisionModel, detail: string, hint: string): void {
    let s = this.warned.get(a);
    if (!s) this.warned.set(a, (s = new Set()));
    if (s.has(b)) return;
    s.add(b);
    this.warn(detail, hint);
  }

  /** The points of m1 inside m2 (see the class comment), as outputs of the pair (m1, m2). */
  private findPairsVolume(m1: TriangleOctreeCollisionModel, m2: TriangleOctreeCollisionModel): void {
    const out = this.outputsFor(m1, m2);
    const oct1 = m1.getOctree(),
      oct2 = m2.getOctree();
    const box = m2.cubeBox;
    const x1 = m1.x,
      x2 = m2.x;
    const t1 = m1.triangles,
      t2 = m2.triangles;
    const f1 = m1.flags;
    const n1 = m1.normals,
      n2 = m2.normals;
    const pn = m1.pointNormals;
    const h = this.hitOther,
      h1 = this.hitSelf;
    for (let j = 0; j < m1.size; j++) {
      const flags = f1[j];
      let rank = 0;
      for (let k = 0; k < 3; k++) {
        if ((flags & (FLAG_P1 << k)) === 0) continue;
        const local = rank++;
        const p = 3 * t1[3 * j + k];
        const px = x1[p],
          py = x1[p + 1],
          pz = x1[p + 2];
        if (px < box[0] || px > box[3] || py < box[1] || py > box[4] || pz < box[2] || pz > box[5]) continue;
        const dx = -pn[p],
          dy = -pn[p + 1],
          dz = -pn[p + 2];
        const tid = oct2.trace(px, py, pz, dx, dy, dz, h);
        if (tid < 0) continue;
        // where the ray leaves B, B's triangle faces against T
        if (n1[3 * j] * n2[3 * tid] + n1[3 * j + 1] * n2[3 * tid + 1] + n1[3 * j + 2] * n2[3 * tid + 2] > 0) continue;
        // the ray leaves A no nearer than it reaches B's surface, through a triangle facing against T
        const tid1 = oct1.trace(px, py, pz, dx, dy, dz, h1);
        if (tid1 < 0 || h1.t < h.t) continue;
        if (n1[3 * j] * n1[3 * tid1] + n1[3 * j + 1] * n1[3 * tid1 + 1] + n1[3 * j + 2] * n1[3 * tid1 + 2] > 0) continue;
        const a = 3 * t2[3 * tid],
          b = 3 * t2[3 * tid + 1],
          c = 3 * t2[3 * tid + 2];
        const w = 1 - h.u - h.v;
        const o = out.push();
        out.elem1[o] = j;
        out.elem2[o] = tid;
        out.id[o] = 3 * j + local;
        out.point0[3 * o] = px;
        out.point0[3 * o + 1] = py;
        out.point0[3 * o + 2] = pz;
        for (let q = 0; q < 3; q++) out.point1[3 * o + q] = x2[a + q] * w + x2[b + q] * h.u + x2[c + q] * h.v;
        out.normal[3 * o] = -dx;
        out.normal[3 * o + 1] = -dy;
        out.normal[3 * o + 2] = -dz;
        out.value[o] = -h.t;
      }
    }
  }
}
