import { Bool, DataEngine, IndexArray, Indices, Real, RealArray, sofaComponent, type Data, type StateType } from '@sofa-ts/core';
import { Coords, engineStateType, followContextPositions, followContextTopology } from '../engine-support.js';

/** A slab prepared for point tests: SOFA's PlaneROI::computePlane. */
interface Slab {
  p0: number[];
  p2: number[];
  n: number[];
  plane0: number[];
  plane1: number[];
  plane2: number[];
  plane3: number[];
  width: number;
  length: number;
  depth: number;
}

/**
 * SOFA's PlaneROI: selects the points, edges, triangles and tetrahedra lying in a set of slabs.
 * Each `plane` is 10 numbers: three points p0, p1, p2 and a depth d. With n = unit((p1−p0)×(p2−p0))
 * and p3 = p0 + (p2 − p1), the slab is the parallelogram p0 p1 p2 p3 thickened by d/2 on both
 * sides along n. Its side planes have the unit normals
 *   m0 = unit((p1−p0)×n), m1 = unit((p2−p3)×n), m2 = unit((p3−p0)×n), m3 = unit((p2−p1)×n)
 * (each zero when degenerate, as SOFA's normalize leaves a zero vector), width = |(p2−p0)·m0|,
 * length = |(p2−p0)·m2|, and p is inside when
 *   |(p−p0)·m0| ≤ width, |(p−p2)·m1| ≤ width, |(p−p0)·m2| ≤ length, |(p−p2)·m3| ≤ length and
 *   |(p−p0)·n| ≤ |d|/2.
 * With d = 0 the side normals vanish and the slab is the whole plane through p0 (what SOFA does).
 * An element is in when all its points are in one slab. Positions not given follow the
 * rest_position of the first mechanical state of the node or above, else a loader's position;
 * element lists follow the context topology when their compute flag is on.
 */
@sofaComponent({
  name: 'PlaneROI',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Find the primitives (vertex/edge/triangle/tetrahedron) inside given planes (thick parallelograms).',
  templates: ['Vec3d', 'Rigid3d'],
})
export class PlaneROI extends DataEngine {
  readonly plane = this.initData({
    name: 'plane',
    type: RealArray(10, 'vector<Vec10d>'),
    default: new Float64Array(10),
    help: 'list of planes, each 3 points p0 p1 p2 and a depth: the parallelogram (p0, p1, p2, p0 + p2 − p1) thickened by depth/2 on both sides',
  });
  readonly position = this.initData({
    name: 'position',
    type: Coords,
    default: new Float64Array(0),
    help: 'rest positions of the points (default: the rest_position of the context state, else the position of a loader)',
    aliases: ['rest_position'],
  });
  readonly edges = this.initData({
    name: 'edges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'edge topology',
  });
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangle topology',
  });
  readonly tetrahedra = this.initData({
    name: 'tetrahedra',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'tetrahedron topology',
  });
  readonly computeEdges = this.initData({
    name: 'computeEdges',
    type: Bool,
    default: true,
    help: 'if true, compute the edge list and index list inside the ROI',
  });
  readonly computeTriangles = this.initData({
    name: 'computeTriangles',
    type: Bool,
    default: true,
    help: 'if true, compute the triangle list and index list inside the ROI',
  });
  readonly computeTetrahedra = this.initData({
    name: 'computeTetrahedra',
    type: Bool,
    default: true,
    help: 'if true, compute the tetrahedra list and index list inside the ROI',
  });
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: Uint32Array.of(0),
    help: 'indices of the points contained in the ROI',
    output: true,
  });
  readonly edgeIndices = this.initData({
    name: 'edgeIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the edges contained in the ROI',
    output: true,
  });
  readonly triangleIndices = this.initData({
    name: 'triangleIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the triangles contained in the ROI',
    output: true,
  });
  readonly tetrahedronIndices = this.initData({
    name: 'tetrahedronIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the tetrahedra contained in the ROI',
    output: true,
  });
  readonly pointsInROI = this.initData({
    name: 'pointsInROI',
    type: Coords,
    default: new Float64Array(0),
    help: 'points contained in the ROI',
    output: true,
  });
  readonly edgesInROI = this.initData({
    name: 'edgesInROI',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'edges contained in the ROI',
    output: true,
  });
  readonly trianglesInROI = this.initData({
    name: 'trianglesInROI',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangles contained in the ROI',
    output: true,
  });
  readonly tetrahedraInROI = this.initData({
    name: 'tetrahedraInROI',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'tetrahedra contained in the ROI',
    output: true,
  });
  readonly drawBoxes = this.initData({
    name: 'drawBoxes',
    type: Bool,
    default: false,
    help: 'draw the planes (drawing only: no effect in a batch run)',
    group: 'Visualization',
    aliases: ['isVisible'],
  });
  readonly drawPoints = this.initData({ name: 'drawPoints', type: Bool, default: false, help: 'draw points', group: 'Visualization' });
  readonly drawEdges = this.initData({ name: 'drawEdges', type: Bool, default: false, help: 'draw edges', group: 'Visualization' });
  readonly drawTriangles = this.initData({
    name: 'drawTriangles',
    type: Bool,
    default: false,
    help: 'draw triangles',
    group: 'Visualization',
  });
  readonly drawTetrahedra = this.initData({
    name: 'drawTetrahedra',
    type: Bool,
    default: false,
    help: 'draw tetrahedra',
    group: 'Visualization',
  });
  readonly drawSize = this.initData({
    name: 'drawSize',
    type: Real,
    default: 1,
    help: 'rendering size for the planes and topological elements',
    group: 'Visualization',
  });

  private stateType: StateType | undefined;

  constructor() {
    super();
    this.addInput(
      this.plane,
      this.position,
      this.edges,
      this.triangles,
      this.tetrahedra,
      this.computeEdges,
      this.computeTriangles,
      this.computeTetrahedra,
    );
    this.addOutput(
      this.indices,
      this.edgeIndices,
      this.triangleIndices,
      this.tetrahedronIndices,
      this.pointsInROI,
      this.edgesInROI,
      this.trianglesInROI,
      this.tetrahedraInROI,
    );
  }

  override init(): void {
    this.stateType = engineStateType(this, ['Vec3d', 'Rigid3d']);
    followContextPositions(this, this.position, { stateData: 'rest_position', search: 'up', required: true, purpose: 'select from' });
    followContextTopology(
      this,
      [
        [this.edges, 'edges', this.computeEdges.value],
        [this.triangles, 'triangles', this.computeTriangles.value],
        [this.tetrahedra, 'tetrahedra', this.computeTetrahedra.value],
      ],
      'up',
    );
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const slabs = slabsOf(this.plane.value);
    if (slabs.length === 0) return;
    const cs = this.stateType!.coordSize;
    const x = this.position.value;
    if (x.length % cs !== 0) throw this.error(`'position' has ${x.length} numbers, not a multiple of ${cs} (template ${this.template})`);
    const n = x.length / cs;
    // slabOf[i]: bit s set when point i is in slab s (an element must be in a single slab).
    const inSlab: Uint8Array[] = slabs.map((s) => {
      const m = new Uint8Array(n);
      for (let i = 0; i < n; i++) m[i] = isPointInSlab(x[i * cs], x[i * cs + 1], x[i * cs + 2], s) ? 1 : 0;
      return m;
    });
    const idx: number[] = [],
      pts: number[] = [];
    for (let i = 0; i < n; i++) {
      if (!inSlab.some((m) => m[i])) continue;
      idx.push(i);
      for (let k = 0; k < cs; k++) pts.push(x[i * cs + k]);
    }
    this.indices.value = Uint32Array.from(idx);
    this.pointsInROI.value = Float64Array.from(pts);
    const select = (elems: Uint32Array, nv: number, compute: boolean, outI: Data<Uint32Array>, outE: Data<Uint32Array>): void => {
      const ids: number[] = [],
        list: number[] = [];
      if (compute) {
        for (let e = 0; e * nv < elems.length; e++) {
          const el = elems.subarray(e * nv, e * nv + nv);
          if (el.some((v) => v >= n)) continue;
          if (!inSlab.some((m) => el.every((v) => m[v] === 1))) continue;
          ids.push(e);
          for (const v of el) list.push(v);
        }
      }
      outI.value = Uint32Array.from(ids);
      outE.value = Uint32Array.from(list);
    };
    select(this.edges.value, 2, this.computeEdges.value, this.edgeIndices, this.edgesInROI);
    select(this.triangles.value, 3, this.computeTriangles.value, this.triangleIndices, this.trianglesInROI);
    select(this.tetrahedra.value, 4, this.computeTetrahedra.value, this.tetrahedronIndices, this.tetrahedraInROI);
  }
}

const sub = (a: number[], b: number[]): number[] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: number[], b: number[]): number[] => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scaled = (a: number[], s: number): number[] => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: number[], b: number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: number[], b: number[]): number[] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
/** a/|a|, or a unchanged below machine epsilon (SOFA's normalize). */
function unit(a: number[]): number[] {
  const r = Math.sqrt(dot(a, a));
  return r > Number.EPSILON ? scaled(a, 1 / r) : a;
}

/** The slabs of a list of planes (10 numbers each). */
function slabsOf(v: Float64Array): Slab[] {
  const out: Slab[] = [];
  for (let i = 0; i + 10 <= v.length; i += 10) {
    const p0 = [v[i], v[i + 1], v[i + 2]];
    const p1 = [v[i + 3], v[i + 4], v[i + 5]];
    const p2 = [v[i + 6], v[i + 7], v[i + 8]];
    const depth = v[i + 9];
    const n = unit(cross(sub(p1, p0), sub(p2, p0)));
    const p3 = add(p0, sub(p2, p1));
    // p4 = p0 + n·d/2 and p6 = p2 + n·d/2 span the side planes (zero when d = 0).
    const p4 = add(p0, scaled(n, depth / 2));
    const p6 = add(p2, scaled(n, depth / 2));
    const plane0 = unit(cross(sub(p1, p0), sub(p4, p0)));
    const plane1 = unit(cross(sub(p2, p3), sub(p6, p3)));
    const plane2 = unit(cross(sub(p3, p0), sub(p4, p0)));
    const plane3 = unit(cross(sub(p2, p1), sub(p6, p2)));
    out.push({
      p0,
      p2,
      n,
      plane0,
      plane1,
      plane2,
      plane3,
      width: Math.abs(dot(sub(p2, p0), plane0)),
      length: Math.abs(dot(sub(p2, p0), plane2)),
      depth,
    });
  }
  return out;
}

function isPointInSlab(x: number, y: number, z: number, s: Slab): boolean {
  const p = [x, y, z];
  const pv0 = sub(p, s.p0);
  const pv1 = sub(p, s.p2);
  if (Math.abs(dot(pv0, s.plane0)) > s.width || Math.abs(dot(pv1, s.plane1)) > s.width) return false;
  if (Math.abs(dot(pv0, s.plane2)) > s.length || Math.abs(dot(pv1, s.plane3)) > s.length) return false;
  return Math.abs(dot(pv0, s.n)) <= Math.abs(s.depth / 2);
}
