import { CONTACT_SLOT, rotateByQuaternion } from '@sofa-ts/core';
import type { CollisionModel } from '../model/CollisionModel.js';
import type { SphereCollisionModel } from '../model/SphereCollisionModel.js';
import type { LineCollisionModel } from '../model/LineCollisionModel.js';
import type { TriangleCollisionModel } from '../model/TriangleCollisionModel.js';
import type { CapsuleCollisionModel } from '../obb-capsule/CapsuleCollisionModel.js';
import type { FFDDistanceGridCollisionModel } from '../distance-grid/FFDDistanceGridCollisionModel.js';

/**
 * Contact points attached to the elements of a collision model (SOFA's contact mappers, without the
 * extra mapped state they create): a point of a mesh element is a fixed combination of the
 * element's points, x = Σ_k w_k·x_{i_k}; a point of a rigid sphere is fixed in the frame,
 * x = c + R·l. The weights are taken at the positions of the detection:
 *   point, sphere (Vec3):  the point itself, weight 1 (a sphere's contact point is its centre; its
 *                          radius is added to the contact distance)
 *   segment (a, b):        f = (P − a)·(b − a)/|b − a|², weights (1 − f, f) (f = 0 when a = b)
 *   triangle (a, b, c):    SOFA's barycentric coordinates (u, v) of P's projection on the plane,
 *                          moved onto the triangle's border when they fall outside (see
 *                          triangleCoordinates) → weights (1 − u − v, u, v)
 *   triangle of a quad:    bilinear coordinates (fx, fy) of P in the quad (a, b, c, d), from
 *                          P − a = fx·(b − a) + fy·(d − a) + fz·n → weights
 *                          ((1−fx)(1−fy), fx(1−fy), fx·fy, (1−fx)fy)
 *   rigid sphere:          frame i, l = Rᵀ·(P − c)
 *   capsule (a, b):        as a segment, on the capsule's axis; its radius is added to the
 *                          contact distance (CollisionOBBCapsule's barycentric capsule mapper)
 *   oriented box:          frame i, l = Rᵀ·(P − c), P on the box's surface (its rigid mapper)
 *   rigid distance grid:   frame 0, l = P (the detection gives P in the grid's frame)
 *   FFD distance grid:     the cube's hexahedron, trilinear weights of the cube coordinates
 *                          b = (P − P0)/ΔP of P (the detection gives P in the undeformed grid):
 *                          corner (i, j, k) ∈ {0,1}³ gets Π_a (i_a ? b_a : 1 − b_a) (SOFA's
 *                          barycentric mapper on a sparse or regular grid, its addPointInCube)
 *
 * Storage per contact slot c of a side, S = CONTACT_SLOT: n[c] points (−1 for a rigid frame),
 * idx[S·c + k], w[S·c + k] (for a rigid frame, idx[S·c] is the frame and w[S·c..S·c+2] the local
 * offset l); sofaPoint[c] is
 * the index of the contact point in the state SOFA's contact mapper gives that side: the element
 * itself for points and spheres (IdentityContactMapper: the collision state), the slot c for the
 * mappers that create one mapped point per contact (barycentric on segments, triangles and quads,
 * rigid on rigid spheres and boxes, barycentric on FFD grids' cubes).
 */
export class ContactSide {
  n = new Int8Array(16);
  idx = new Uint32Array(16 * CONTACT_SLOT);
  w = new Float64Array(16 * CONTACT_SLOT);
  sofaPoint = new Uint32Array(16);

  ensure(capacity: number): void {
    if (this.n.length >= capacity) return;
    let cap = this.n.length;
    while (cap < capacity) cap *= 2;
    const n = new Int8Array(cap);
    n.set(this.n);
    const idx = new Uint32Array(CONTACT_SLOT * cap);
    idx.set(this.idx);
    const w = new Float64Array(CONTACT_SLOT * cap);
    w.set(this.w);
    const sp = new Uint32Array(cap);
    sp.set(this.sofaPoint);
    this.n = n;
    this.idx = idx;
    this.w = w;
    this.sofaPoint = sp;
  }

  /**
   * Attaches point P (array p at offset po) to element e of model m in slot c; returns the radius
   * the response adds to the contact distance (spheres), else 0.
   */
  attach(c: number, m: CollisionModel, e: number, p: ArrayLike<number>, po: number): number {
    const o = CONTACT_SLOT * c;
    const x = m.x;
    this.sofaPoint[c] = m.kind === 'point' || m.kind === 'sphere' ? e : c;
    switch (m.kind) {
      case 'point':
        this.n[c] = 1;
        this.idx[o] = e;
        this.w[o] = 1;
        return 0;
      case 'sphere':
        this.n[c] = 1;
        this.idx[o] = e;
        this.w[o] = 1;
        return (m as SphereCollisionModel).getRadius(e);
      case 'rigidsphere':
        this.attachToFrame(c, x, e, p, po);
        return (m as SphereCollisionModel).getRadius(e);
      case 'obb':
        this.attachToFrame(c, x, e, p, po);
        return 0;
      case 'rigiddistancegrid':
        // P is already in the grid's frame (SofaDistanceGrid's rigid mapper): l = P, on frame 0
        this.n[c] = -1;
        this.idx[o] = 0;
        for (let k = 0; k < 3; k++) this.w[o + k] = p[po + k];
        return 0;
      case 'ffddistancegrid':
        this.n[c] = 8;
        (m as FFDDistanceGridCollisionModel).cubeWeights(e, p, po, this.idx, this.w, o);
        return 0;
      case 'line':
      case 'capsule': {
        const l = m as LineCollisionModel | CapsuleCollisionModel;
        const a = l.edges[2 * e],
          b = l.edges[2 * e + 1];
        let num = 0,
          den = 0;
        for (let k = 0; k < 3; k++) {
          const pa = x[3 * b + k] - x[3 * a + k];
          num += pa * (p[po + k] - x[3 * a + k]);
          den += pa * pa;
        }
        // a segment of zero length (BeamAdapter's instruments gather their undeployed nodes at one
        // point): P is that point and any f gives it; SOFA's f = 0/0 would put NaN in the contact row
        let f = num / den;
        if (!(den > 0)) {
          f = 0;
          m.warn(
            'a contact point lies on a segment of zero length (its two points coincide): it is attached to the first point (SOFA divides 0 by 0 there, and its constraint row would not be finite)',
          );
        }
        this.n[c] = 2;
        this.idx[o] = a;
        this.idx[o + 1] = b;
        this.w[o] = 1 - f;
        this.w[o + 1] = f;
        return m.kind === 'capsule' ? (m as CapsuleCollisionModel).getRadius(e) : 0;
      }
      case 'triangle': {
        const t = m as TriangleCollisionModel;
        if (e < t.nTopologyTriangles) {
          const a = t.triangles[3 * e],
            b = t.triangles[3 * e + 1],
            cc = t.triangles[3 * e + 2];
          let posA = 0,
            posB = 0,
            aa = 0,
            bb = 0,
            ab = 0;
          for (let k = 0; k < 3; k++) {
            const p0 = x[3 * a + k];
            const pA = x[3 * b + k] - p0,
              pB = x[3 * cc + k] - p0,
              pos = p[po + k] - p0;
            posA += pos * pA;
            posB += pos * pB;
            aa += pA * pA;
            bb += pB * pB;
            ab += pA * pB;
          }
          triangleCoordinates(posA, posB, aa, bb, ab, uv);
          const u = uv[0],
            v = uv[1];
          this.n[c] = 3;
          this.idx[o] = a;
          this.idx[o + 1] = b;
          this.idx[o + 2] = cc;
          this.w[o] = 1 - u - v;
          this.w[o + 1] = u;
          this.w[o + 2] = v;
          return 0;
        }
        const q = Math.floor((e - t.nTopologyTriangles) / 2);
        const qa = t.quads[4 * q],
          qb = t.quads[4 * q + 1],
          qc = t.quads[4 * q + 2],
          qd = t.quads[4 * q + 3];
        const [fx, fy] = quadCoordinates(x, qa, qb, qd, p, po);
        this.n[c] = 4;
        this.idx[o] = qa;
        this.idx[o + 1] = qb;
        this.idx[o + 2] = qc;
        this.idx[o + 3] = qd;
        this.w[o] = (1 - fx) * (1 - fy);
        this.w[o + 1] = fx * (1 - fy);
        this.w[o + 2] = fx * fy;
        this.w[o + 3] = (1 - fx) * fy;
        return 0;
      }
      default:
        throw new Error(`no contact point on ${m.kind} elements`);
    }
  }

  /** Slot c = the point P fixed in frame e of the Rigid3 coordinates x: l = Rᵀ·(P − c). */
  private attachToFrame(c: number, x: Float64Array, e: number, p: ArrayLike<number>, po: number): void {
    const o = CONTACT_SLOT * c,
      s = 7 * e;
    const dx = p[po] - x[s],
      dy = p[po + 1] - x[s + 1],
      dz = p[po + 2] - x[s + 2];
    // rotation by the conjugate quaternion
    rotateByQuaternion(this.w, o, -x[s + 3], -x[s + 4], -x[s + 5], x[s + 6], dx, dy, dz);
    this.n[c] = -1;
    this.idx[o] = e;
  }
}

/**
 * SOFA's coordinates of a point Q in triangle (A, B, C) for a contact point (its
 * BarycentricMapperMeshTopology::createPointInTriangle), from the dot products of AB = B − A,
 * AC = C − A and AQ = Q − A: qb = AQ·AB, qc = AQ·AC, bb = AB·AB, cc = AC·AC, bc = AB·AC.
 * (u, v) solve the normal equations [bb bc; bc cc]·(u, v) = (qb, qc) (the projection of Q on the
 * plane is A + u·AB + v·AC). When that projection lies outside the triangle (u < 0, v < 0 or
 * u + v > 1), the point is moved onto the border by SOFA's rule, in this order:
 *   both edge parameters tAB = qb/bb and tAC = qc/cc negative  → corner A, (0, 0);
 *   tAB < 1 and v < 0                                          → on AB, (tAB, 0);
 *   tAC < 1 and u < 0                                          → on AC, (0, tAC);
 *   else on BC at tBC = (BQ·BC)/(BC·BC) = (qc − qb + bb − bc)/(bb + cc − 2·bc), kept in [0, 1]
 *                                                              → (1 − tBC, tBC).
 * Contact points come from the detection on (or within rounding of) their element, so this only
 * decides the coordinates of points a hair outside. Writes (u, v) to out[0], out[1].
 */
export function triangleCoordinates(qb: number, qc: number, bb: number, cc: number, bc: number, out: Float64Array): void {
  const det = bb * cc - bc * bc;
  let u = (qb * cc - qc * bc) / det;
  let v = (qc * bb - qb * bc) / det;
  if (u < 0 || v < 0 || u + v > 1) {
    const tAB = qb / bb;
    const tAC = qc / cc;
    if (tAB < 0 && tAC < 0) {
      u = 0;
      v = 0;
    } else if (tAB < 1 && v < 0) {
      u = tAB;
      v = 0;
    } else if (tAC < 1 && u < 0) {
      u = 0;
      v = tAC;
    } else {
      const tBC = (qc - qb + bb - bc) / (bb + cc - 2 * bc);
      if (tBC < 0) {
        u = 1;
        v = 0;
      } else if (tBC > 1) {
        u = 0;
        v = 1;
      } else {
        u = 1 - tBC;
        v = tBC;
      }
    }
  }
  out[0] = u;
  out[1] = v;
}

/** Scratch (u, v) of ContactSide.attach. */
const uv = new Float64Array(2);

/** (fx, fy) with P − a = fx·(b − a) + fy·(d − a) + fz·((b − a) × (d − a)). */
function quadCoordinates(x: Float64Array, a: number, b: number, d: number, p: ArrayLike<number>, po: number): [number, number] {
  const ux = x[3 * b] - x[3 * a],
    uy = x[3 * b + 1] - x[3 * a + 1],
    uz = x[3 * b + 2] - x[3 * a + 2];
  const vx = x[3 * d] - x[3 * a],
    vy = x[3 * d + 1] - x[3 * a + 1],
    vz = x[3 * d + 2] - x[3 * a + 2];
  const nx = uy * vz - uz * vy,
    ny = uz * vx - ux * vz,
    nz = ux * vy - uy * vx;
  const rx = p[po] - x[3 * a],
    ry = p[po + 1] - x[3 * a + 1],
    rz = p[po + 2] - x[3 * a + 2];
  // Cramer's rule on the columns (u, v, n)
  const det = ux * (vy * nz - vz * ny) - vx * (uy * nz - uz * ny) + nx * (uy * vz - uz * vy);
  const fx = (rx * (vy * nz - vz * ny) - vx * (ry * nz - rz * ny) + nx * (ry * vz - rz * vy)) / det;
  const fy = (ux * (ry * nz - rz * ny) - rx * (uy * nz - uz * ny) + nx * (uy * rz - uz * ry)) / det;
  return [fx, fy];
}
