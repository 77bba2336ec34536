import { Bool, IndexArray, RealArray, isMechanicalState, isTopology, sofaComponent } from '@sofa-ts/core';
import { isMeshLoader } from '@sofa-ts/topology';
import { Coords, isGiven } from '../engine-support.js';
import { BaseROI, type RoiElementKind } from './BaseROI.js';

/**
 * SOFA's MeshROI: selects the primitives inside a closed triangle surface (the ROI mesh:
 * ROIposition, ROItriangles). A point p is inside when it is in the bounding box of the ROI mesh
 * and a ray from p towards a point 100 beyond the box (past its nearer corner: min − 100 or
 * max + 100 componentwise) crosses the ROI triangles an odd number of times: the ray p + d·v,
 * d ≥ 0, meets the plane of a triangle (p0, p1, p2) at d = n·(p0 − p)/(n·v), n = (p1 − p0)×(p2 − p1),
 * and counts when that point is on the inner side (or on) each edge. With computeMeshROI = 0 every
 * point is inside. Elements follow BaseROI's rule, but `strict` defaults to false here (SOFA keeps
 * its pre-24.12 default). `box` (output) is the bounding box of the ROI mesh.
 * ROIposition not given follows the rest_position of the node's state or its loader's position;
 * ROIedges / ROItriangles not given follow the node's topology.
 */
@sofaComponent({
  name: 'MeshROI',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Find the primitives (vertex/edge/triangle/tetrahedron) inside a given mesh.',
  templates: ['Vec3d'],
})
export class MeshROI extends BaseROI {
  readonly ROIposition = this.initData({
    name: 'ROIposition',
    type: Coords,
    default: new Float64Array(0),
    help: 'positions of the points of the ROI mesh',
  });
  readonly ROIedges = this.initData({
    name: 'ROIedges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'edges of the ROI mesh',
  });
  readonly ROItriangles = this.initData({
    name: 'ROItriangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangles of the ROI mesh (a closed surface)',
  });
  readonly computeMeshROI = this.initData({
    name: 'computeMeshROI',
    type: Bool,
    default: true,
    help: 'compute with the mesh (if false, every point is inside)',
  });
  readonly box = this.initData({
    name: 'box',
    type: RealArray(6, 'Vec6d'),
    default: new Float64Array(6),
    help: 'bounding box of the ROI mesh: xmin ymin zmin xmax ymax zmax',
    output: true,
  });
  readonly drawOut = this.initData({
    name: 'drawOut',
    type: Bool,
    default: false,
    help: 'draw the data not contained in the ROI (drawing only)',
    group: 'Visualization',
  });
  readonly drawBox = this.initData({
    name: 'drawBox',
    type: Bool,
    default: false,
    help: 'draw the bounding box of the ROI mesh (drawing only)',
    group: 'Visualization',
  });

  private b = new Float64Array(6);

  constructor() {
    super();
    // SOFA's MeshROI defaults strict to false (its behaviour before BaseROI had the flag).
    this.strict.setValue(false);
    this.strict.isSet = false;
    this.addInput(this.ROIposition, this.ROIedges, this.ROItriangles, this.computeMeshROI);
  }

  protected override roiInit(): void {
    if (!isGiven(this.ROIposition)) {
      const state = this.context.getObject(isMechanicalState, 'local');
      const loader = this.context.getObject(isMeshLoader, 'local');
      const parent = state ? state.findData('rest_position') : loader?.position;
      if (parent) this.ROIposition.setParent(parent);
    }
    const topo = this.context.getObject(isTopology, 'local');
    if (topo) {
      if (!isGiven(this.ROIedges) && this.computeEdges.value) this.ROIedges.setParent(topo.findData('edges'));
      if (!isGiven(this.ROItriangles) && this.computeTriangles.value) this.ROItriangles.setParent(topo.findData('triangles'));
    }
  }

  protected override roiDoUpdate(): boolean {
    // Bounding box of the ROI mesh.
    const x = this.ROIposition.value;
    const b = Float64Array.of(Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity);
    for (let i = 0; i + 3 <= x.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        b[k] = Math.min(b[k], x[i + k]);
        b[3 + k] = Math.max(b[3 + k], x[i + k]);
      }
    }
    if (x.length === 0) b.fill(0);
    this.b = b;
    this.box.value = Float64Array.from(b);
    const t = this.ROItriangles.value;
    for (const v of t) if (v >= x.length / 3) throw this.error(`ROItriangles names point ${v}, but ROIposition has ${x.length / 3} points`);
    return true;
  }

  protected isPointInROI(p: Float64Array): boolean {
    if (!this.computeMeshROI.value) return true;
    const b = this.b;
    if (p[0] < b[0] || p[0] > b[3] || p[1] < b[1] || p[1] > b[4] || p[2] < b[2] || p[2] > b[5]) return false;
    // v: towards a point 100 beyond the nearer corner of the box.
    const dMin = (b[0] - p[0]) ** 2 + (b[1] - p[1]) ** 2 + (b[2] - p[2]) ** 2;
    const dMax = (b[3] - p[0]) ** 2 + (b[4] - p[1]) ** 2 + (b[5] - p[2]) ** 2;
    const v =
      dMin < dMax ? [b[0] - 100 - p[0], b[1] - 100 - p[1], b[2] - 100 - p[2]] : [b[3] + 100 - p[0], b[4] + 100 - p[1], b[5] + 100 - p[2]];
    const x = this.ROIposition.value,
      t = this.ROItriangles.value;
    let crossings = 0;
    for (let f = 0; f + 3 <= t.length; f += 3) {
      const a = 3 * t[f],
        bb = 3 * t[f + 1],
        c = 3 * t[f + 2];
      const p0 = [x[a], x[a + 1], x[a + 2]],
        p1 = [x[bb], x[bb + 1], x[bb + 2]],
        p2 = [x[c], x[c + 1], x[c + 2]];
      const n = cross(sub(p1, p0), sub(p2, p1));
      const nv = dot(n, v);
      if (nv === 0) continue;
      const d = dot(n, sub(p0, [p[0], p[1], p[2]])) / nv;
      if (d < 0) continue;
      const q = [p[0] + d * v[0], p[1] + d * v[1], p[2] + d * v[2]];
      if (sameSide(p0, p1, q, n) && sameSide(p1, p2, q, n) && sameSide(p2, p0, q, n)) crossings++;
    }
    return crossings % 2 === 1;
  }

  protected override isElementInROI(kind: RoiElementKind, e: Uint32Array, strict: boolean, inside: Uint8Array): boolean {
    // All points inside: in, whatever `strict`; otherwise BaseROI's rule.
    let all = true;
    for (let j = 0; j < e.length && all; j++) all = inside[e[j]] === 1;
    return all || super.isElementInROI(kind, e, strict, inside);
  }
}

const sub = (a: number[], b: number[]): number[] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: number[], b: number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: number[], b: number[]): number[] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** q is on the inner side of edge (a, b) of a face with normal n (or on it). */
function sameSide(a: number[], b: number[], q: number[], n: number[]): boolean {
  return dot(cross(sub(b, a), sub(q, a)), n) >= 0;
}
