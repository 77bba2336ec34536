import { Real, Vec3, sofaComponent } from '@sofa-ts/core';
import { Reals, Vec3s } from '../engine-support.js';
import { BaseROI, type RoiElementKind } from './BaseROI.js';

/**
 * SOFA's SphereROI: selects the points, edges, triangles, quads, tetrahedra and hexahedra lying in a
 * set of spheres (centers c_j, radii r_j; one radius for several centers applies to all).
 *   point p is in when |p − c_j| ≤ r_j for some j;
 *   an edge (a, b) is in when both points are in the same sphere and, if edgeAngle > 0, its
 *     direction is within edgeAngle of ±`direction`: |û·d̂| ≥ |cos(edgeAngle)|, û = unit(b − a);
 *   a triangle (a, b, c) is in when its three points are in the same sphere and, if triAngle > 0,
 *     n̂·`normal` ≥ cos(triAngle) with n̂ = unit((c − a) × (b − a)) (SOFA's orientation);
 *   quads, tetrahedra and hexahedra follow BaseROI's rule (all points in, or the centroid with
 *     strict = 0).
 * SOFA's current SphereROI tests edges and triangles with the point test inverted (an edge is
 * "in" when none of its points is); sofa-ts keeps the documented meaning above.
 * Angles are in degrees. Inputs, outputs and defaults otherwise as BaseROI.
 */
@sofaComponent({
  name: 'SphereROI',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Find the primitives (vertex/edge/triangle/quad/tetrahedron/hexahedron) inside given spheres.',
  templates: ['Vec3d', 'Rigid3d'],
})
export class SphereROI extends BaseROI {
  readonly centers = this.initData({ name: 'centers', type: Vec3s, default: new Float64Array(0), help: 'center(s) of the sphere(s)' });
  readonly radii = this.initData({
    name: 'radii',
    type: Reals,
    default: new Float64Array(0),
    help: 'radius(i) of the sphere(s); one radius applies to every center',
  });
  readonly direction = this.initData({
    name: 'direction',
    type: Vec3,
    default: new Float64Array(3),
    help: 'edge direction (used when edgeAngle > 0)',
  });
  readonly normal = this.initData({
    name: 'normal',
    type: Vec3,
    default: new Float64Array(3),
    help: 'normal direction of the triangles (used when triAngle > 0)',
  });
  readonly edgeAngle = this.initData({
    name: 'edgeAngle',
    type: Real,
    default: 0,
    unit: 'deg',
    help: 'max angle between the direction of the selected edges and the given direction',
  });
  readonly triAngle = this.initData({
    name: 'triAngle',
    type: Real,
    default: 0,
    unit: 'deg',
    help: 'max angle between the normal of the selected triangles and the given normal',
    aliases: ['angle'],
  });

  /** Radii, one per center, for the current update. */
  private r: Float64Array = new Float64Array(0);
  private dir = [0, 0, 0];
  private nrm = [0, 0, 0];

  constructor() {
    super();
    this.addInput(this.centers, this.radii, this.direction, this.normal, this.edgeAngle, this.triAngle);
  }

  /** `pointIndices`: SOFA's old name of `indices` (TrianglesInSphereROI). */
  override findData(name: string): ReturnType<BaseROI['findData']> {
    return name === 'pointIndices' ? this.indices : super.findData(name);
  }

  protected override roiDoUpdate(): boolean {
    const c = this.centers.value;
    const rad = this.radii.value;
    const nc = c.length / 3;
    if (nc === 0) return false;
    if (rad.length === 1) this.r = new Float64Array(nc).fill(rad[0]);
    else if (rad.length === nc) this.r = rad;
    else {
      this.warn(`${nc} sphere centers but ${rad.length} radii: give one radius, or one per center`);
      return false;
    }
    this.dir = unit(this.direction.value);
    this.nrm = unit(this.normal.value);
    return true;
  }

  protected isPointInROI(p: Float64Array): boolean {
    const c = this.centers.value;
    for (let j = 0; j < this.r.length; j++) if (inSphere(p, c, j, this.r[j])) return true;
    return false;
  }

  protected override isElementInROI(kind: RoiElementKind, e: Uint32Array, strict: boolean, inside: Uint8Array): boolean {
    if (kind !== 'edge' && kind !== 'triangle') return super.isElementInROI(kind, e, strict, inside);
    const c = this.centers.value;
    const pts = Array.from(e, (i) => {
      const p = new Float64Array(3);
      this.pointAt(i, p);
      return p;
    });
    const eAngle = this.edgeAngle.value,
      tAngle = this.triAngle.value;
    for (let j = 0; j < this.r.length; j++) {
      if (!pts.every((p) => inSphere(p, c, j, this.r[j]))) continue;
      if (kind === 'edge' && eAngle > 0) {
        const u = unit([pts[1][0] - pts[0][0], pts[1][1] - pts[0][1], pts[1][2] - pts[0][2]]);
        if (Math.abs(dot(u, this.dir)) < Math.abs(Math.cos((eAngle * Math.PI) / 180))) continue;
      }
      if (kind === 'triangle' && tAngle > 0) {
        const [a, b, cc] = pts as [Float64Array, Float64Array, Float64Array];
        const u = [cc[0] - a[0], cc[1] - a[1], cc[2] - a[2]];
        const v = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        const n = unit([u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]);
        if (dot(n, this.nrm) < Math.cos((tAngle * Math.PI) / 180)) continue;
      }
      return true;
    }
    return false;
  }
}

/** |p − c_j| ≤ r. */
function inSphere(p: ArrayLike<number>, c: Float64Array, j: number, r: number): boolean {
  const dx = p[0] - c[3 * j],
    dy = p[1] - c[3 * j + 1],
    dz = p[2] - c[3 * j + 2];
  return Math.sqrt(dx * dx + dy * dy + dz * dz) <= r;
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/** a/|a|, or a when |a| is below machine epsilon (SOFA's normalize). */
function unit(a: ArrayLike<number>): number[] {
  const r = Math.sqrt(dot(a, a));
  return r > Number.EPSILON ? [a[0] / r, a[1] / r, a[2] / r] : [a[0], a[1], a[2]];
}
