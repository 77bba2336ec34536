import {
  Bool,
  DataEngine,
  IndexArray,
  Indices,
  Real,
  RealArray,
  sofaComponent,
  UInt,
  Vec3,
  type Data,
  type StateType,
} from '@sofa-ts/core';
import { Coords, Reals, Vec3s, engineStateType, followContextPositions, followContextTopology, isGiven } from '../engine-support.js';

/**
 * SOFA's SubsetTopology: splits a mesh into the part inside a region (boxes, or spheres when
 * `centers` is given) and the part outside, as two topologies over the same or renumbered points.
 *   point p in box (xmin ymin zmin xmax ymax zmax) ⇔ min_k ≤ p_k ≤ max_k;  in sphere ⇔ |p − c| ≤ r;
 *   an element is in when all its points are in one region; every other element is out.
 * With `localIndices` the outputs are two separate meshes: pointsInROI and pointsOutROI are the
 * points of each part, and the elements are renumbered into them. The points on the border (in the
 * region and used by a triangle — or a tetrahedron when there are tetrahedra — that also has a point
 * outside) come first in both lists, in increasing index order, so both parts share them as their
 * first `nbrborder` points; then come the other points of each part in index order.
 * With `tetrahedraInput` (a list of tetrahedron indices) the inside part is those tetrahedra instead
 * of a region, and the points lists are the points of the inside and outside tetrahedra, in order of
 * first use.
 * Positions not given follow the position of the first mechanical state of the node or above (else
 * of a loader), element lists the context topology. Without `box` the box is 0 0 0 1 1 1.
 */
@sofaComponent({
  name: 'SubsetTopology',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Split a mesh into the elements inside a box or sphere and the others, possibly as two renumbered meshes.',
  templates: ['Vec3d', 'Rigid3d'],
})
export class SubsetTopology extends DataEngine {
  readonly box = this.initData({
    name: 'box',
    type: RealArray(6, 'vector<Vec6d>'),
    default: Float64Array.of(0, 0, 0, 1, 1, 1),
    help: 'boxes, each xmin ymin zmin xmax ymax zmax',
  });
  readonly centers = this.initData({
    name: 'centers',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'center(s) of the sphere(s); when given, spheres replace the boxes',
  });
  readonly radii = this.initData({
    name: 'radii',
    type: Reals,
    default: new Float64Array(0),
    help: 'radius(i) of the sphere(s), one per center',
  });
  readonly direction = this.initData({
    name: 'direction',
    type: Vec3,
    default: new Float64Array(3),
    help: 'edge direction (if edgeAngle > 0; not used by the selection, as in SOFA)',
  });
  readonly normal = this.initData({
    name: 'normal',
    type: Vec3,
    default: new Float64Array(3),
    help: 'normal direction of the triangles (if triAngle > 0; not used by the selection, as in SOFA)',
  });
  readonly edgeAngle = this.initData({
    name: 'edgeAngle',
    type: Real,
    default: 0,
    unit: 'deg',
    help: 'max angle between the selected edges and the direction (not used by the selection, as in SOFA)',
  });
  readonly triAngle = this.initData({
    name: 'triAngle',
    type: Real,
    default: 0,
    unit: 'deg',
    help: 'max angle between the selected triangle normals and the normal (not used by the selection, as in SOFA)',
  });
  readonly restPosition = this.initData({
    name: 'rest_position',
    type: Coords,
    default: new Float64Array(0),
    help: 'rest positions of the points (default: the position of the context state, else of a loader)',
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
  readonly quads = this.initData({
    name: 'quads',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'quad topology',
  });
  readonly tetrahedra = this.initData({
    name: 'tetrahedra',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'tetrahedron topology',
  });
  readonly hexahedra = this.initData({
    name: 'hexahedra',
    type: IndexArray(8, 'vector<Hexahedron>'),
    default: new Uint32Array(0),
    help: 'hexahedron topology',
  });
  readonly tetrahedraInput = this.initData({
    name: 'tetrahedraInput',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the tetrahedra to keep (replaces the region when given)',
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
  readonly quadIndices = this.initData({
    name: 'quadIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the quads contained in the ROI',
    output: true,
  });
  readonly tetrahedronIndices = this.initData({
    name: 'tetrahedronIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the tetrahedra contained in the ROI',
    output: true,
  });
  readonly hexahedronIndices = this.initData({
    name: 'hexahedronIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the hexahedra contained in the ROI',
    output: true,
  });
  readonly pointsInROI = this.initData({
    name: 'pointsInROI',
    type: Coords,
    default: new Float64Array(0),
    help: 'points contained in the ROI',
    output: true,
  });
  readonly pointsOutROI = this.initData({
    name: 'pointsOutROI',
    type: Coords,
    default: new Float64Array(0),
    help: 'points out of the ROI',
    output: true,
  });
  readonly edgesInROI = this.initData({
    name: 'edgesInROI',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'edges contained in the ROI',
    output: true,
  });
  readonly edgesOutROI = this.initData({
    name: 'edgesOutROI',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'edges out of the ROI',
    output: true,
  });
  readonly trianglesInROI = this.initData({
    name: 'trianglesInROI',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangles contained in the ROI',
    output: true,
  });
  readonly trianglesOutROI = this.initData({
    name: 'trianglesOutROI',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangles out of the ROI',
    output: true,
  });
  readonly quadsInROI = this.initData({
    name: 'quadsInROI',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'quads contained in the ROI',
    output: true,
  });
  readonly quadsOutROI = this.initData({
    name: 'quadsOutROI',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'quads out of the ROI',
    output: true,
  });
  readonly tetrahedraInROI = this.initData({
    name: 'tetrahedraInROI',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'tetrahedra contained in the ROI',
    output: true,
  });
  readonly tetrahedraOutROI = this.initData({
    name: 'tetrahedraOutROI',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'tetrahedra out of the ROI',
    output: true,
  });
  readonly hexahedraInROI = this.initData({
    name: 'hexahedraInROI',
    type: IndexArray(8, 'vector<Hexahedron>'),
    default: new Uint32Array(0),
    help: 'hexahedra contained in the ROI',
    output: true,
  });
  readonly hexahedraOutROI = this.initData({
    name: 'hexahedraOutROI',
    type: IndexArray(8, 'vector<Hexahedron>'),
    default: new Uint32Array(0),
    help: 'hexahedra out of the ROI',
    output: true,
  });
  readonly nbrborder = this.initData({
    name: 'nbrborder',
    type: UInt,
    default: 0,
    help: 'with localIndices: the number of border points, the first points of both output meshes',
    output: true,
  });

  readonly localIndices = this.initData({
    name: 'localIndices',
    type: Bool,
    default: false,
    help: 'if true, the output elements are renumbered into pointsInROI / pointsOutROI',
  });
  readonly drawROI = this.initData({
    name: 'drawROI',
    type: Bool,
    default: false,
    help: 'draw the ROI (drawing only)',
    group: 'Visualization',
  });
  readonly drawPoints = this.initData({ name: 'drawPoints', type: Bool, default: false, help: 'draw points', group: 'Visualization' });
  readonly drawEdges = this.initData({ name: 'drawEdges', type: Bool, default: false, help: 'draw edges', group: 'Visualization' });
  readonly drawTriangle = this.initData({
    name: 'drawTriangle',
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
    help: 'rendering size for the box and topological elements',
    group: 'Visualization',
  });

  private stateType: StateType | undefined;

  constructor() {
    super();
    this.addInput(
      this.box,
      this.centers,
      this.radii,
      this.direction,
      this.normal,
      this.edgeAngle,
      this.triAngle,
      this.tetrahedraInput,
      this.restPosition,
      this.edges,
      this.triangles,
      this.quads,
      this.tetrahedra,
      this.hexahedra,
      this.localIndices,
    );
    this.addOutput(
      this.indices,
      this.edgeIndices,
      this.triangleIndices,
      this.quadIndices,
      this.tetrahedronIndices,
      this.hexahedronIndices,
      this.pointsInROI,
      this.pointsOutROI,
      this.edgesInROI,
      this.edgesOutROI,
      this.trianglesInROI,
      this.trianglesOutROI,
      this.quadsInROI,
      this.quadsOutROI,
      this.tetrahedraInROI,
      this.tetrahedraOutROI,
      this.hexahedraInROI,
      this.hexahedraOutROI,
      this.nbrborder,
    );
  }

  override init(): void {
    this.stateType = engineStateType(this, ['Vec3d', 'Rigid3d']);
    followContextPositions(this, this.restPosition, { stateData: 'position', search: 'up', required: true, purpose: 'split' });
    followContextTopology(
      this,
      [
        [this.edges, 'edges'],
        [this.triangles, 'triangles'],
        [this.tetrahedra, 'tetrahedra'],
      ],
      'up',
    );
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const cs = this.stateType!.coordSize;
    const x = this.restPosition.value;
    if (x.length % cs !== 0)
      throw this.error(`'rest_position' has ${x.length} numbers, not a multiple of ${cs} (template ${this.template})`);
    const n = x.length / cs;
    const regions = this.regions();
    if (regions === undefined) return;
    // inRegion[r][i]: point i is in region r.
    const inRegion = regions.map((test) => {
      const m = new Uint8Array(n);
      for (let i = 0; i < n; i++) m[i] = test(x[i * cs], x[i * cs + 1], x[i * cs + 2]) ? 1 : 0;
      return m;
    });
    const inAny = new Uint8Array(n);
    for (const m of inRegion) for (let i = 0; i < n; i++) inAny[i] = inAny[i] | m[i];
    const elementIn = (el: Uint32Array): boolean => inRegion.some((m) => el.every((v) => v < n && m[v] === 1));

    const local = this.localIndices.value;
    const tetra = this.tetrahedra.value,
      tri = this.triangles.value;
    // Border points: in the first region and in an element (triangles, or tetrahedra if any) that has a point outside it.
    const border: number[] = [];
    if (local) {
      const first = inRegion[0] ?? new Uint8Array(n);
      const [elems, nv] = tetra.length > 0 ? [tetra, 4] : [tri, 3];
      const isBorder = new Uint8Array(n);
      for (let e = 0; e * nv < elems.length; e++) {
        const el = elems.subarray(e * nv, e * nv + nv);
        if (el.some((v) => v >= n)) throw this.error(`element ${e} names point ${Math.max(...el)}, but there are ${n} points`);
        if (el.some((v) => first[v] === 1) && el.some((v) => first[v] !== 1)) for (const v of el) if (first[v] === 1) isBorder[v] = 1;
      }
      for (let i = 0; i < n; i++) if (isBorder[i]) border.push(i);
    }

    // Points: border points first (local), then the others in index order.
    const localIndex = new Uint32Array(n);
    const idx: number[] = [],
      pin: number[] = [],
      pout: number[] = [];
    const pushPoint = (dst: number[], i: number): void => {
      for (let k = 0; k < cs; k++) dst.push(x[i * cs + k]);
    };
    const isBorderPoint = new Uint8Array(n);
    border.forEach((i, k) => {
      isBorderPoint[i] = 1;
      localIndex[i] = k;
      idx.push(i);
      pushPoint(pin, i);
      pushPoint(pout, i);
    });
    let cin = border.length,
      cout = border.length;
    for (let i = 0; i < n; i++) {
      if (isBorderPoint[i]) continue;
      if (inAny[i]) {
        idx.push(i);
        pushPoint(pin, i);
        localIndex[i] = cin++;
      } else {
        pushPoint(pout, i);
        localIndex[i] = cout++;
      }
    }
    this.nbrborder.value = border.length;

    const split = (
      elems: Uint32Array,
      nv: number,
      outIdx: Data<Uint32Array>,
      inList: Data<Uint32Array>,
      outList: Data<Uint32Array>,
    ): void => {
      const ids: number[] = [],
        ins: number[] = [],
        outs: number[] = [];
      for (let e = 0; e * nv < elems.length; e++) {
        const el = elems.subarray(e * nv, e * nv + nv);
        const isIn = elementIn(el);
        if (isIn) ids.push(e);
        const dst = isIn ? ins : outs;
        for (const v of el) dst.push(local ? localIndex[v] : v);
      }
      outIdx.value = Uint32Array.from(ids);
      inList.value = Uint32Array.from(ins);
      outList.value = Uint32Array.from(outs);
    };
    split(this.edges.value, 2, this.edgeIndices, this.edgesInROI, this.edgesOutROI);
    split(tri, 3, this.triangleIndices, this.trianglesInROI, this.trianglesOutROI);
    split(this.quads.value, 4, this.quadIndices, this.quadsInROI, this.quadsOutROI);
    split(this.hexahedra.value, 8, this.hexahedronIndices, this.hexahedraInROI, this.hexahedraOutROI);
    if (isGiven(this.tetrahedraInput)) {
      this.splitByTetrahedra(x, cs, n, local, idx, pin, pout);
    } else {
      split(tetra, 4, this.tetrahedronIndices, this.tetrahedraInROI, this.tetrahedraOutROI);
    }
    this.indices.value = Uint32Array.from(idx);
    this.pointsInROI.value = Float64Array.from(pin);
    this.pointsOutROI.value = Float64Array.from(pout);
  }

  /**
   * The point tests of the boxes, or of the spheres when centers are given; undefined (no update)
   * when spheres and radii do not match.
   */
  private regions(): Array<(x: number, y: number, z: number) => boolean> | undefined {
    if (isGiven(this.centers)) {
      const c = this.centers.value,
        r = this.radii.value;
      if (c.length === 0) return undefined;
      if (c.length / 3 !== r.length) {
        this.warn(`${c.length / 3} sphere centers but ${r.length} radii: give one radius per center`);
        return undefined;
      }
      return Array.from(
        r,
        (rad, j) => (x: number, y: number, z: number) => Math.hypot(x - c[3 * j], y - c[3 * j + 1], z - c[3 * j + 2]) <= rad,
      );
    }
    const b = this.box.value;
    const out: Array<(x: number, y: number, z: number) => boolean> = [];
    for (let i = 0; i + 6 <= b.length; i += 6) {
      const lo = [Math.min(b[i], b[i + 3]), Math.min(b[i + 1], b[i + 4]), Math.min(b[i + 2], b[i + 5])];
      const hi = [Math.max(b[i], b[i + 3]), Math.max(b[i + 1], b[i + 4]), Math.max(b[i + 2], b[i + 5])];
      out.push((x, y, z) => x >= lo[0] && x <= hi[0] && y >= lo[1] && y <= hi[1] && z >= lo[2] && z <= hi[2]);
    }
    return out;
  }

  /** tetrahedraInput mode: the listed tetrahedra are inside; points in order of first use by each part. */
  private splitByTetrahedra(x: Float64Array, cs: number, n: number, local: boolean, idx: number[], pin: number[], pout: number[]): void {
    const keep = new Set(this.tetrahedraInput.value);
    const tetra = this.tetrahedra.value;
    const seenIn = new Int32Array(n).fill(-1),
      seenOut = new Int32Array(n).fill(-1);
    idx.length = 0;
    pin.length = 0;
    pout.length = 0;
    const ids: number[] = [],
      ins: number[] = [],
      outs: number[] = [];
    for (let e = 0; e * 4 < tetra.length; e++) {
      const isIn = keep.has(e);
      const seen = isIn ? seenIn : seenOut;
      const dst = isIn ? pin : pout;
      if (isIn) ids.push(e);
      for (let j = 0; j < 4; j++) {
        const v = tetra[4 * e + j];
        if (v >= n) throw this.error(`tetrahedron ${e} names point ${v}, but there are ${n} points`);
        if (seen[v] < 0) {
          seen[v] = dst.length / cs;
          if (isIn) idx.push(v);
          for (let k = 0; k < cs; k++) dst.push(x[v * cs + k]);
        }
        (isIn ? ins : outs).push(local ? seen[v] : v);
      }
    }
    this.tetrahedronIndices.value = Uint32Array.from(ids);
    this.tetrahedraInROI.value = Uint32Array.from(ins);
    this.tetrahedraOutROI.value = Uint32Array.from(outs);
  }
}
