import { Bool, Real, sofaComponent, type BaseMeshTopology } from '@sofa-ts/core';
import { addDistanceGridIntersectors } from '../distance-grid/distance-grid-intersections.js';
import type { CollisionModel } from '../model/CollisionModel.js';
import type { LineCollisionModel } from '../model/LineCollisionModel.js';
import type { PointCollisionModel } from '../model/PointCollisionModel.js';
import type { SphereCollisionModel } from '../model/SphereCollisionModel.js';
import type { TriangleCollisionModel } from '../model/TriangleCollisionModel.js';
import { BaseProximityIntersection } from './BaseProximityIntersection.js';
import type { DetectionOutputs } from './detection-outputs.js';
import { biggerModelIndex, finishOutputs } from './intersection-method.js';
import { LOCAL_MIN_LINE_LINE, lineLine, pointPoint, trianglePointInterior } from './proximity-kernels.js';

/** Neighbourhoods of a mesh model's topology used by the validity cones. */
interface Neighbourhood {
  revision: number;
  trianglesAroundVertex: number[][];
  edgesAroundVertex: number[][];
  /** Per edge of the topology: its triangles, a triangle along the edge's direction first. */
  trianglesAroundEdge: number[][];
  triangles: Uint32Array;
  edges: Uint32Array;
}

/**
 * SOFA's LocalMinDistance: the minimal-distance tests of MinProximityIntersection restricted to
 * closest points strictly inside segments and triangles (point-point, segment-point, segment-segment,
 * triangle-point, and the same with spheres), each kept only when it is a local minimum of the
 * distance: with filterIntersection, the direction PQ to the other primitive must lie in the cone
 * of directions the primitive can be touched from:
 *   triangle: (p2 − p1) × (p3 − p1) · PQ ≥ 0 (unless bothSide);
 *   segment between two triangles: PQ on the side of their mean normal and within each triangle's
 *     half-plane, widened by coneFactor·(n_mean · tangent) + angleCone; a free segment: PQ
 *     orthogonal to it (within angleCone);
 *   point: PQ on the side of the mean normal of its triangles (or mean direction of its edges) and
 *     within the cone of each of its edges.
 * Points whose node has no line model are not filtered. useLMDFilters (external cones) skips these
 * filters.
 */
@sofaComponent({
  name: 'LocalMinDistance',
  category: 'CollisionAlgorithm',
  module: 'Sofa.Component.Collision.Detection.Intersection',
  description: 'A set of methods to compute (for constraint methods) if two primitives are close enough to consider they collide.',
})
export class LocalMinDistance extends BaseProximityIntersection {
  readonly filterIntersection = this.initData({ name: 'filterIntersection', type: Bool, default: true, help: 'activate LMD filter' });
  readonly angleCone = this.initData({ name: 'angleCone', type: Real, default: 0, help: 'filtering cone extension angle' });
  readonly coneFactor = this.initData({
    name: 'coneFactor',
    type: Real,
    default: 0.5,
    help: 'factor for filtering cone angle computation',
  });
  readonly useLMDFilters = this.initData({ name: 'useLMDFilters', type: Bool, default: false, help: 'use external cone computation' });

  private readonly neighbourhoods = new WeakMap<CollisionModel, Neighbourhood>();
  private readonly pq = new Float64Array(3);

  protected registerIntersectors(): void {
    this.add('cube', 'cube', () => 0);
    // SOFA adds the SofaDistanceGrid tests to every method derived from DiscreteIntersection
    addDistanceGridIntersectors(this, (k1, k2, test) => this.add(k1, k2, test));
    this.add('sphere', 'sphere', (a, i, b, j, out) => this.pointLike(a, i, b, j, out));
    this.add('sphere', 'point', (a, i, b, j, out) => this.pointLike(a, i, b, j, out));
    this.add('point', 'point', (a, i, b, j, out) => this.pointLike(a, i, b, j, out));
    this.add('line', 'line', (a, i, b, j, out) => this.lineLine(a as LineCollisionModel, i, b as LineCollisionModel, j, out));
    this.add('line', 'point', (a, i, b, j, out) => this.linePoint(a as LineCollisionModel, i, b, j, out));
    this.add('line', 'sphere', (a, i, b, j, out) => this.linePoint(a as LineCollisionModel, i, b, j, out));
    this.add('triangle', 'point', (a, i, b, j, out) => this.trianglePoint(a as TriangleCollisionModel, i, b, j, out));
    this.add('triangle', 'sphere', (a, i, b, j, out) => this.trianglePoint(a as TriangleCollisionModel, i, b, j, out));
    this.ignore('triangle', 'line');
    this.ignore('triangle', 'triangle');
  }

  private radius(m: CollisionModel, i: number): number {
    return m.kind === 'sphere' || m.kind === 'rigidsphere' ? (m as SphereCollisionModel).getRadius(i) : 0;
  }

  private stride(m: CollisionModel): number {
    return m.kind === 'sphere' || m.kind === 'rigidsphere' ? (m as SphereCollisionModel).stride : 3;
  }

  private alarm(a: CollisionModel, b: CollisionModel): number {
    return this.getAlarmDistance() + a.getProximity() + b.getProximity();
  }

  private contact(a: CollisionModel, b: CollisionModel): number {
    return this.getContactDistance() + a.getProximity() + b.getProximity();
  }

  /** Validity of both elements of the last output (PQ = point1 − point0): false removes it. */
  private validLast(out: DetectionOutputs, a: CollisionModel, i: number, b: CollisionModel, j: number): boolean {
    if (this.useLMDFilters.value) return true;
    const o = 3 * (out.count - 1);
    const pq = this.pq;
    for (let c = 0; c < 3; c++) pq[c] = out.point1[o + c] - out.point0[o + c];
    if (!this.valid(a, i, pq, 1)) return false;
    return this.valid(b, j, pq, -1);
  }

  private pointLike(a: CollisionModel, i: number, b: CollisionModel, j: number, out: DetectionOutputs): number {
    const r = this.radius(a, i) + this.radius(b, j);
    const alarm = this.alarm(a, b) + r;
    if (!pointPoint(out, alarm * alarm, a.x, this.stride(a) * i, b.x, this.stride(b) * j, biggerModelIndex(a, i, b, j), 'raw')) return 0;
    if (!this.validLast(out, a, i, b, j)) {
      out.pop();
      return 0;
    }
    return finishOutputs(out, 1, i, j, this.contact(a, b) + r);
  }

  private lineLine(a: LineCollisionModel, i: number, b: LineCollisionModel, j: number, out: DetectionOutputs): number {
    const alarm = this.alarm(a, b);
    const ea = a.edges,
      eb = b.edges;
    if (
      !lineLine(
        out,
        alarm * alarm,
        a.x,
        3 * ea[2 * i],
        3 * ea[2 * i + 1],
        b.x,
        3 * eb[2 * j],
        3 * eb[2 * j + 1],
        biggerModelIndex(a, i, b, j),
        LOCAL_MIN_LINE_LINE,
      )
    )
      return 0;
    if (!this.validLast(out, a, i, b, j)) {
      out.pop();
      return 0;
    }
    return finishOutputs(out, 1, i, j, this.contact(a, b));
  }

  /** Segment i and point (or sphere centre) j: closest point strictly inside the segment. */
  private linePoint(a: LineCollisionModel, i: number, b: CollisionModel, j: number, out: DetectionOutputs): number {
    const r = this.radius(b, j);
    const alarm = this.alarm(a, b) + r;
    const x = a.x,
      q = b.x;
    const p1 = 3 * a.edges[2 * i],
      p2 = 3 * a.edges[2 * i + 1],
      iq = this.stride(b) * j;
    const abx = x[p2] - x[p1],
      aby = x[p2 + 1] - x[p1 + 1],
      abz = x[p2 + 2] - x[p1 + 2];
    const apx = q[iq] - x[p1],
      apy = q[iq + 1] - x[p1 + 1],
      apz = q[iq + 2] - x[p1 + 2];
    if (Math.hypot(abx, aby, abz) < 1e-12 * Math.hypot(apx, apy, apz)) return 0;
    const alpha = (apx * abx + apy * aby + apz * abz) / (abx * abx + aby * aby + abz * abz);
    if (alpha < 0.000001 || alpha > 0.999999) return 0;
    const qx = x[p1] + abx * alpha,
      qy = x[p1 + 1] + aby * alpha,
      qz = x[p1 + 2] + abz * alpha;
    const dx = q[iq] - qx,
      dy = q[iq + 1] - qy,
      dz = q[iq + 2] - qz;
    if (dx * dx + dy * dy + dz * dz >= alarm * alarm) return 0;
    const k = out.push();
    const o = 3 * k;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    out.id[k] = j;
    out.point0[o] = qx;
    out.point0[o + 1] = qy;
    out.point0[o + 2] = qz;
    for (let c = 0; c < 3; c++) out.point1[o + c] = q[iq + c];
    out.normal[o] = dx / d;
    out.normal[o + 1] = dy / d;
    out.normal[o + 2] = dz / d;
    out.value[k] = d;
    if (!this.validLast(out, a, i, b, j)) {
      out.pop();
      return 0;
    }
    return finishOutputs(out, 1, i, j, this.contact(a, b) + r);
  }

  private trianglePoint(a: TriangleCollisionModel, i: number, b: CollisionModel, j: number, out: DetectionOutputs): number {
    const r = this.radius(b, j);
    const alarm = this.alarm(a, b) + r;
    const t = a.triangles;
    if (
      !trianglePointInterior(out, alarm * alarm, a.x, 3 * t[3 * i], 3 * t[3 * i + 1], 3 * t[3 * i + 2], b.x, this.stride(b) * j, j, 'raw')
    )
      return 0;
    if (!this.validLast(out, a, i, b, j)) {
      out.pop();
      return 0;
    }
    return finishOutputs(out, 1, i, j, this.contact(a, b) + r);
  }

  /**
   * Whether element `e` of model m may be touched from direction sign·pq (pq from the first model's
   * point to the second's; the first element looks along +pq towards the other, the second along −pq).
   */
  private valid(m: CollisionModel, e: number, pq: Float64Array, sign: number): boolean {
    if (!this.filterIntersection.value) return true;
    // SOFA's tests take PQ from the element to the other one: the first model's element sees
    // Q − P, the second's P − Q; `dir` is that vector.
    const dx = sign * pq[0],
      dy = sign * pq[1],
      dz = sign * pq[2];
    switch (m.kind) {
      case 'triangle':
        return this.validTriangle(m as TriangleCollisionModel, e, dx, dy, dz);
      case 'line':
        return this.validLine(m as LineCollisionModel, e, dx, dy, dz);
      case 'point':
        return this.validPoint(m as PointCollisionModel, e, dx, dy, dz);
      default:
        return true;
    }
  }

  private validTriangle(m: TriangleCollisionModel, e: number, dx: number, dy: number, dz: number): boolean {
    if (m.bothSide.value) return true;
    const x = m.x,
      t = m.triangles;
    const a = 3 * t[3 * e],
      b = 3 * t[3 * e + 1],
      c = 3 * t[3 * e + 2];
    const ux = x[b] - x[a],
      uy = x[b + 1] - x[a + 1],
      uz = x[b + 2] - x[a + 2];
    const vx = x[c] - x[a],
      vy = x[c + 1] - x[a + 1],
      vz = x[c + 2] - x[a + 2];
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    return nx * dx + ny * dy + nz * dz >= 0;
  }

  private neighbourhood(m: CollisionModel, topo: BaseMeshTopology): Neighbourhood {
    let nb = this.neighbourhoods.get(m);
    if (nb && nb.revision === topo.revision) return nb;
    const tris = topo.getTriangles();
    const edges = topo.getEdges();
    const nP = m.getMechanicalState().size;
    const tav: number[][] = Array.from({ length: nP }, () => []);
    for (let t = 0; t < tris.length / 3; t++) for (let k = 0; k < 3; k++) tav[tris[3 * t + k]]?.push(t);
    const eav: number[][] = Array.from({ length: nP }, () => []);
    const edgeOf = new Map<number, number>();
    for (let e = 0; e < edges.length / 2; e++) {
      const a = edges[2 * e],
        b = edges[2 * e + 1];
      eav[a]?.push(e);
      eav[b]?.push(e);
      const key = a < b ? a * 4294967296 + b : b * 4294967296 + a;
      if (!edgeOf.has(key)) edgeOf.set(key, e);
    }
    const tae: number[][] = Array.from({ length: edges.length / 2 }, () => []);
    for (let t = 0; t < tris.length / 3; t++) {
      for (let k = 0; k < 3; k++) {
        const a = tris[3 * t + ((k + 1) % 3)],
          b = tris[3 * t + ((k + 2) % 3)];
        const e = edgeOf.get(a < b ? a * 4294967296 + b : b * 4294967296 + a);
        if (e === undefined) continue;
        if (edges[2 * e] === a) tae[e].unshift(t);
        else tae[e].push(t);
      }
    }
    nb = { revision: topo.revision, trianglesAroundVertex: tav, edgesAroundVertex: eav, trianglesAroundEdge: tae, triangles: tris, edges };
    this.neighbourhoods.set(m, nb);
    return nb;
  }

  private validLine(m: LineCollisionModel, e: number, dx: number, dy: number, dz: number): boolean {
    const topo = m.topology.get() ?? this.topologyOf(m);
    const x = m.x;
    const i1 = m.edges[2 * e],
      i2 = m.edges[2 * e + 1];
    let abx = x[3 * i2] - x[3 * i1],
      aby = x[3 * i2 + 1] - x[3 * i1 + 1],
      abz = x[3 * i2 + 2] - x[3 * i1 + 2];
    const ab = Math.hypot(abx, aby, abz);
    if (ab > 0) {
      abx /= ab;
      aby /= ab;
      abz /= ab;
    }
    const pqn = Math.hypot(dx, dy, dz);
    const around = topo ? (this.neighbourhood(m, topo).trianglesAroundEdge[e] ?? []) : [];
    if (around.length === 2) {
      const tris = topo!.getTriangles();
      const t0 = around[0];
      const a0 = tris[3 * t0],
        b0 = tris[3 * t0 + 1],
        c0 = tris[3 * t0 + 2];
      const leftFirst = (i1 === a0 && i2 === b0) || (i1 === b0 && i2 === c0) || (i1 === c0 && i2 === a0);
      const right = leftFirst ? around[1] : around[0];
      const left = leftFirst ? around[0] : around[1];
      const n1 = this.unitNormal(x, tris, right);
      const n2 = this.unitNormal(x, tris, left);
      let mx = n1[0] + n2[0],
        my = n1[1] + n2[1],
        mz = n1[2] + n2[2];
      const ml = Math.hypot(mx, my, mz);
      if (ml > 0) {
        mx /= ml;
        my /= ml;
        mz /= ml;
      }
      if (mx * dx + my * dy + mz * dz < 0 && !m.bothSide.value) return false;
      // t1 = n1 × AB, t2 = AB × n2 (normalised)
      const t1 = unit(n1[1] * abz - n1[2] * aby, n1[2] * abx - n1[0] * abz, n1[0] * aby - n1[1] * abx);
      const t2 = unit(aby * n2[2] - abz * n2[1], abz * n2[0] - abx * n2[2], abx * n2[1] - aby * n2[0]);
      let cone = (mx * t1[0] + my * t1[1] + mz * t1[2]) * this.coneFactor.value;
      if (cone < 0) cone = 0;
      cone += this.angleCone.value;
      if (t1[0] * dx + t1[1] * dy + t1[2] * dz < -cone * pqn) return false;
      cone = (mx * t2[0] + my * t2[1] + mz * t2[2]) * this.coneFactor.value;
      if (cone < 0) cone = 0;
      cone += this.angleCone.value;
      if (t2[0] * dx + t2[1] * dy + t2[2] * dz < -cone * pqn) return false;
      return true;
    }
    const c = pqn > 0 ? Math.abs((abx * dx + aby * dy + abz * dz) / pqn) : 0;
    return !(c > this.angleCone.value + 0.0001);
  }

  private validPoint(m: PointCollisionModel, p: number, dx: number, dy: number, dz: number): boolean {
    if (!m.context.objects.some((o) => (o as CollisionModel).isCollisionModel && (o as CollisionModel).kind === 'line')) return true;
    const topo = this.topologyOf(m);
    if (!topo) return true;
    const nb = this.neighbourhood(m, topo);
    const x = m.x;
    const px = x[3 * p],
      py = x[3 * p + 1],
      pz = x[3 * p + 2];
    let mx = 0,
      my = 0,
      mz = 0;
    const tris = nb.trianglesAroundVertex[p] ?? [];
    for (const t of tris) {
      const n = this.unitNormal(x, nb.triangles, t);
      mx += n[0];
      my += n[1];
      mz += n[2];
    }
    const edges = nb.edgesAroundVertex[p] ?? [];
    const edgeDir = (e: number): [number, number, number] => {
      const a = 3 * nb.edges[2 * e],
        b = 3 * nb.edges[2 * e + 1];
      return unit(px - x[a] + (px - x[b]), py - x[a + 1] + (py - x[b + 1]), pz - x[a + 2] + (pz - x[b + 2]));
    };
    if (tris.length === 0) {
      for (const e of edges) {
        const l = edgeDir(e);
        mx += l[0];
        my += l[1];
        mz += l[2];
      }
    }
    const pqn = Math.hypot(dx, dy, dz);
    const ml = Math.hypot(mx, my, mz);
    if (ml > 0.0000000001) {
      mx /= ml;
      my /= ml;
      mz /= ml;
      if (mx * dx + my * dy + mz * dz < -this.angleCone.value * pqn && !m.bothSide.value) return false;
    }
    for (const e of edges) {
      const l = edgeDir(e);
      let cone = (mx * l[0] + my * l[1] + mz * l[2]) * this.coneFactor.value;
      if (cone < 0) cone = 0;
      cone += this.angleCone.value;
      if (l[0] * dx + l[1] * dy + l[2] * dz < -cone * pqn) return false;
    }
    return true;
  }

  private topologyOf(m: CollisionModel): BaseMeshTopology | undefined {
    return (m as unknown as { resolveTopology(): BaseMeshTopology | undefined }).resolveTopology();
  }

  private unitNormal(x: Float64Array, tris: Uint32Array, t: number): [number, number, number] {
    const a = 3 * tris[3 * t],
      b = 3 * tris[3 * t + 1],
      c = 3 * tris[3 * t + 2];
    const ux = x[b] - x[a],
      uy = x[b + 1] - x[a + 1],
      uz = x[b + 2] - x[a + 2];
    const vx = x[c] - x[a],
      vy = x[c + 1] - x[a + 1],
      vz = x[c + 2] - x[a + 2];
    return unit(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
  }
}

function unit(x: number, y: number, z: number): [number, number, number] {
  const l = Math.hypot(x, y, z);
  return l > 0 ? [x / l, y / l, z / l] : [x, y, z];
}
