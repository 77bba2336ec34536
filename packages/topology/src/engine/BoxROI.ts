import {
  Bool,
  IndexArray,
  Indices,
  Real,
  RealArray,
  UInt,
  isMechanicalState,
  isTopology,
  sofaComponent,
  stateTypeOf,
  type Data,
  type StateType,
} from '@sofa-ts/core';
import { isMeshLoader } from '../loader/MeshLoader.js';
import { DataEngine } from './DataEngine.js';

const Coords = RealArray(0, 'vector<Coord>');

/** An oriented box prepared for point tests (SOFA's BoxROI::OrientedBox). */
interface OrientedBox {
  p0: number[];
  p2: number[];
  normal: number[];
  plane0: number[];
  plane1: number[];
  plane2: number[];
  plane3: number[];
  width: number;
  length: number;
  depth: number;
}

/**
 * SOFA's BoxROI: selects the points, and the edges, triangles, quads, tetrahedra and hexahedra,
 * lying in a set of boxes.
 *
 * A point p is in an axis-aligned box (xmin ymin zmin xmax ymax zmax) when min_k ≤ p_k ≤ max_k
 * on each of its spatial axes (the boundary is inside). An oriented box (p0, p1, p2, depth) is the
 * parallelogram p0, p1, p2, p3 = p0 + (p2 − p1) extruded by depth/2 on each side along its normal
 * (p1 − p0) × (p2 − p0). A point is in the ROI when it is in any box. With `strict` (the default)
 * an element is in the ROI when all its points are; otherwise when its centroid is.
 *
 * Inputs default as in SOFA: `position` follows the rest_position of the node's mechanical state,
 * else the position of the node's mesh loader, else the rest_position of the nearest mechanical
 * state above; element lists follow the node's topology. Outputs are computed at init and again,
 * lazily, whenever one is read after an input changed (see DataEngine); with doUpdate false they
 * keep their first value.
 */
@sofaComponent({
  name: 'BoxROI',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Find the primitives (vertex/edge/triangle/quad/tetrahedron/hexahedron) inside given boxes.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Rigid3d', 'Vec6d'],
})
export class BoxROI extends DataEngine {
  // Inputs
  readonly box = this.initData({ name: 'box', type: RealArray(6, 'vector<Vec6d>'), default: new Float64Array(0), help: 'list of boxes, each defined by two 3D points: xmin ymin zmin xmax ymax zmax' });
  readonly orientedBox = this.initData({ name: 'orientedBox', type: RealArray(10, 'vector<Vec10d>'), default: new Float64Array(0), help: 'list of boxes defined by 3 points p0 p1 p2 and a depth: the parallelogram (p0, p1, p2, p0 + p2 − p1) extruded by depth/2 on both sides along its normal' });
  readonly position = this.initData({ name: 'position', type: Coords, default: new Float64Array(0), help: 'rest positions of the points; if empty, those of the mechanical state or mesh loader of the node are used (else of a mechanical state above)' });
  readonly edges = this.initData({ name: 'edges', type: IndexArray(2, 'vector<Edge>'), default: new Uint32Array(0), help: 'edge topology' });
  readonly triangles = this.initData({ name: 'triangles', type: IndexArray(3, 'vector<Triangle>'), default: new Uint32Array(0), help: 'triangle topology' });
  readonly quads = this.initData({ name: 'quads', type: IndexArray(4, 'vector<Quad>'), default: new Uint32Array(0), help: 'quad topology', aliases: ['quad'] });
  readonly tetrahedra = this.initData({ name: 'tetrahedra', type: IndexArray(4, 'vector<Tetrahedron>'), default: new Uint32Array(0), help: 'tetrahedron topology' });
  readonly hexahedra = this.initData({ name: 'hexahedra', type: IndexArray(8, 'vector<Hexahedron>'), default: new Uint32Array(0), help: 'hexahedron topology' });
  readonly computeEdges = this.initData({ name: 'computeEdges', type: Bool, default: true, help: 'if true, compute the edge list and index list inside the ROI' });
  readonly computeTriangles = this.initData({ name: 'computeTriangles', type: Bool, default: true, help: 'if true, compute the triangle list and index list inside the ROI' });
  readonly computeQuads = this.initData({ name: 'computeQuads', type: Bool, default: true, help: 'if true, compute the quad list and index list inside the ROI', aliases: ['computeQuad'] });
  readonly computeTetrahedra = this.initData({ name: 'computeTetrahedra', type: Bool, default: true, help: 'if true, compute the tetrahedra list and index list inside the ROI' });
  readonly computeHexahedra = this.initData({ name: 'computeHexahedra', type: Bool, default: true, help: 'if true, compute the hexahedra list and index list inside the ROI' });
  readonly strict = this.initData({ name: 'strict', type: Bool, default: true, help: 'if true, an element is inside when all its points are; if false, when its center is' });

  // Outputs
  readonly indices = this.initData({ name: 'indices', type: Indices, default: Uint32Array.of(0), help: 'indices of the points contained in the ROI', output: true });
  readonly edgeIndices = this.initData({ name: 'edgeIndices', type: Indices, default: new Uint32Array(0), help: 'indices of the edges contained in the ROI', output: true });
  readonly triangleIndices = this.initData({ name: 'triangleIndices', type: Indices, default: new Uint32Array(0), help: 'indices of the triangles contained in the ROI', output: true });
  readonly quadIndices = this.initData({ name: 'quadIndices', type: Indices, default: new Uint32Array(0), help: 'indices of the quads contained in the ROI', output: true });
  readonly tetrahedronIndices = this.initData({ name: 'tetrahedronIndices', type: Indices, default: new Uint32Array(0), help: 'indices of the tetrahedra contained in the ROI', output: true });
  readonly hexahedronIndices = this.initData({ name: 'hexahedronIndices', type: Indices, default: new Uint32Array(0), help: 'indices of the hexahedra contained in the ROI', output: true });
  readonly pointsInROI = this.initData({ name: 'pointsInROI', type: Coords, default: new Float64Array(0), help: 'points contained in the ROI', output: true });
  readonly edgesInROI = this.initData({ name: 'edgesInROI', type: IndexArray(2, 'vector<Edge>'), default: new Uint32Array(0), help: 'edges contained in the ROI', output: true });
  readonly trianglesInROI = this.initData({ name: 'trianglesInROI', type: IndexArray(3, 'vector<Triangle>'), default: new Uint32Array(0), help: 'triangles contained in the ROI', output: true });
  readonly quadsInROI = this.initData({ name: 'quadsInROI', type: IndexArray(4, 'vector<Quad>'), default: new Uint32Array(0), help: 'quads contained in the ROI', output: true, aliases: ['quadInROI'] });
  readonly tetrahedraInROI = this.initData({ name: 'tetrahedraInROI', type: IndexArray(4, 'vector<Tetrahedron>'), default: new Uint32Array(0), help: 'tetrahedra contained in the ROI', output: true });
  readonly hexahedraInROI = this.initData({ name: 'hexahedraInROI', type: IndexArray(8, 'vector<Hexahedron>'), default: new Uint32Array(0), help: 'hexahedra contained in the ROI', output: true });
  readonly nbIndices = this.initData({ name: 'nbIndices', type: UInt, default: 0, help: 'number of selected indices', output: true });
  readonly pointsOutROI = this.initData({ name: 'pointsOutROI', type: Coords, default: new Float64Array(0), help: 'points not contained in the ROI', output: true });
  readonly edgesOutROI = this.initData({ name: 'edgesOutROI', type: IndexArray(2, 'vector<Edge>'), default: new Uint32Array(0), help: 'edges not contained in the ROI', output: true });
  readonly trianglesOutROI = this.initData({ name: 'trianglesOutROI', type: IndexArray(3, 'vector<Triangle>'), default: new Uint32Array(0), help: 'triangles not contained in the ROI', output: true });
  readonly tetrahedraOutROI = this.initData({ name: 'tetrahedraOutROI', type: IndexArray(4, 'vector<Tetrahedron>'), default: new Uint32Array(0), help: 'tetrahedra not contained in the ROI', output: true });
  readonly indicesOut = this.initData({ name: 'indicesOut', type: Indices, default: new Uint32Array(0), help: 'indices of the points not contained in the ROI', output: true });
  readonly edgeOutIndices = this.initData({ name: 'edgeOutIndices', type: Indices, default: new Uint32Array(0), help: 'indices of the edges not contained in the ROI', output: true });
  readonly triangleOutIndices = this.initData({ name: 'triangleOutIndices', type: Indices, default: new Uint32Array(0), help: 'indices of the triangles not contained in the ROI', output: true });
  readonly tetrahedronOutIndices = this.initData({ name: 'tetrahedronOutIndices', type: Indices, default: new Uint32Array(0), help: 'indices of the tetrahedra not contained in the ROI', output: true });

  // Parameters
  readonly drawROI = this.initData({ name: 'drawROI', type: Bool, default: false, help: 'draw the ROI', group: 'Visualization', aliases: ['drawBoxes'] });
  readonly drawPoints = this.initData({ name: 'drawPoints', type: Bool, default: false, help: 'draw points', group: 'Visualization' });
  readonly drawEdges = this.initData({ name: 'drawEdges', type: Bool, default: false, help: 'draw edges', group: 'Visualization' });
  readonly drawTriangles = this.initData({ name: 'drawTriangles', type: Bool, default: false, help: 'draw triangles', group: 'Visualization' });
  readonly drawQuads = this.initData({ name: 'drawQuads', type: Bool, default: false, help: 'draw quads', group: 'Visualization' });
  readonly drawTetrahedra = this.initData({ name: 'drawTetrahedra', type: Bool, default: false, help: 'draw tetrahedra', group: 'Visualization' });
  readonly drawHexahedra = this.initData({ name: 'drawHexahedra', type: Bool, default: false, help: 'draw hexahedra', group: 'Visualization' });
  readonly drawSize = this.initData({ name: 'drawSize', type: Real, default: 1, help: 'rendering size for the ROI and topological elements', group: 'Visualization' });
  readonly doUpdate = this.initData({ name: 'doUpdate', type: Bool, default: true, help: 'if true, the selection is updated when the inputs change (it is always computed at init)' });

  private stateType: StateType | undefined;

  constructor() {
    super();
    this.addInput(this.box, this.orientedBox, this.position, this.edges, this.triangles, this.quads, this.tetrahedra, this.hexahedra, this.strict, this.computeEdges, this.computeTriangles, this.computeQuads, this.computeTetrahedra, this.computeHexahedra);
    this.addOutput(
      this.indices, this.edgeIndices, this.triangleIndices, this.quadIndices, this.tetrahedronIndices, this.hexahedronIndices,
      this.pointsInROI, this.edgesInROI, this.trianglesInROI, this.quadsInROI, this.tetrahedraInROI, this.hexahedraInROI, this.nbIndices,
      this.pointsOutROI, this.edgesOutROI, this.trianglesOutROI, this.tetrahedraOutROI,
      this.indicesOut, this.edgeOutIndices, this.triangleOutIndices, this.tetrahedronOutIndices,
    );
  }

  override init(): void {
    const localState = this.context.getObject(isMechanicalState, 'local');
    if (!this.template) this.template = localState?.stateType.name ?? 'Vec3d';
    this.stateType = stateTypeOf(this.template);
    if (!this.stateType) throw this.error(`template '${this.template}' is not a state template`);
    this.linkDefaultPositions();
    this.linkDefaultTopology();
    if (!isGiven(this.box) && !isGiven(this.orientedBox)) this.box.value = Float64Array.of(0, 0, 0, 1, 1, 1);
    // The first selection is always computed, whatever doUpdate says.
    const keep = this.doUpdate.value;
    this.doUpdate.value = true;
    this.startUpdates();
    this.doUpdate.value = keep;
  }

  /** position ← rest_position of the local state, else the local loader's position, else a state above. */
  private linkDefaultPositions(): void {
    if (isGiven(this.position)) return;
    const follow = (d: Data<unknown> | undefined, owner: string): void => {
      if (!d) throw this.error(`${owner} has no 'rest_position' Data to take the positions from`);
      this.position.setParent(d);
    };
    const local = this.context.getObject(isMechanicalState, 'local');
    if (local) return follow(local.findData('rest_position'), local.describe());
    const loader = this.context.getObject(isMeshLoader, 'local');
    if (loader) return follow(loader.position as Data<unknown>, loader.describe());
    const above = this.context.getObject(isMechanicalState, 'up');
    if (!above) {
      throw this.error('no positions to select from: no mechanical state or mesh loader in this node, and no mechanical state above', "set position='@path.rest_position' or add a MechanicalObject before the BoxROI");
    }
    follow(above.findData('rest_position'), above.describe());
  }

  /** Element lists not given follow those of the node's topology (when its elements are computed). */
  private linkDefaultTopology(): void {
    const topo = this.context.getObject(isTopology, 'local');
    if (!topo) return;
    const pairs: Array<[Data<Uint32Array>, Data<boolean>, string]> = [
      [this.edges, this.computeEdges, 'edges'],
      [this.triangles, this.computeTriangles, 'triangles'],
      [this.tetrahedra, this.computeTetrahedra, 'tetrahedra'],
      [this.hexahedra, this.computeHexahedra, 'hexahedra'],
      [this.quads, this.computeQuads, 'quads'],
    ];
    for (const [d, compute, name] of pairs) {
      if (isGiven(d) || !compute.value) continue;
      const parent = topo.findData(name);
      if (parent) d.setParent(parent);
    }
  }

  protected updateOutputs(): void {
    if (!this.doUpdate.value) return;
    const t = this.stateType ?? stateTypeOf(this.template || 'Vec3d')!;
    const cs = t.coordSize;
    const dims = Math.min(3, t.spatialDimensions);
    const x = this.position.value;
    if (x.length % cs !== 0) throw this.error(`'position' has ${x.length} numbers, not a multiple of ${cs} (template ${t.name})`);
    const n = x.length / cs;

    const aligned = normalisedBoxes(this.box.value);
    const oriented = dims === 3 ? orientedBoxes(this.orientedBox.value) : [];
    const hasBoxes = aligned.length > 0 || oriented.length > 0;

    // inside[i]: point i is in a box.
    const inside = new Uint8Array(n);
    const p = [0, 0, 0];
    if (hasBoxes) {
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < dims; k++) p[k] = x[i * cs + k]!;
        inside[i] = this.isPointInROI(p, dims, aligned, oriented) ? 1 : 0;
      }
    }

    const inIdx: number[] = [], outIdx: number[] = [];
    const inPts: number[] = [], outPts: number[] = [];
    if (n > 0 && hasBoxes) {
      for (let i = 0; i < n; i++) {
        (inside[i] ? inIdx : outIdx).push(i);
        const dst = inside[i] ? inPts : outPts;
        for (let k = 0; k < cs; k++) dst.push(x[i * cs + k]!);
      }
    }
    this.indices.value = Uint32Array.from(inIdx);
    this.indicesOut.value = Uint32Array.from(outIdx);
    this.pointsInROI.value = Float64Array.from(inPts);
    this.pointsOutROI.value = Float64Array.from(outPts);

    // Elements: all points inside (strict), or the centroid inside.
    const strict = this.strict.value;
    const classify = (elems: Uint32Array, nv: number, compute: boolean): { inI: number[]; outI: number[]; inE: number[]; outE: number[] } => {
      const r = { inI: [] as number[], outI: [] as number[], inE: [] as number[], outE: [] as number[] };
      if (!compute || n === 0 || !hasBoxes) return r;
      const c = [0, 0, 0];
      for (let e = 0; e * nv < elems.length; e++) {
        let isIn: boolean;
        // An element naming a point the positions do not have is outside.
        let valid = true;
        for (let j = 0; j < nv; j++) if (elems[e * nv + j]! >= n) valid = false;
        if (!valid) isIn = false;
        else if (strict) {
          isIn = true;
          for (let j = 0; j < nv && isIn; j++) isIn = inside[elems[e * nv + j]!] === 1;
        } else {
          c[0] = c[1] = c[2] = 0;
          for (let j = 0; j < nv; j++) for (let k = 0; k < dims; k++) c[k]! += x[elems[e * nv + j]! * cs + k]!;
          for (let k = 0; k < dims; k++) c[k] = c[k]! / nv;
          isIn = this.isPointInROI(c, dims, aligned, oriented);
        }
        (isIn ? r.inI : r.outI).push(e);
        const dst = isIn ? r.inE : r.outE;
        for (let j = 0; j < nv; j++) dst.push(elems[e * nv + j]!);
      }
      return r;
    };
    const ed = classify(this.edges.value, 2, this.computeEdges.value);
    this.edgeIndices.value = Uint32Array.from(ed.inI);
    this.edgesInROI.value = Uint32Array.from(ed.inE);
    this.edgeOutIndices.value = Uint32Array.from(ed.outI);
    this.edgesOutROI.value = Uint32Array.from(ed.outE);
    const tr = classify(this.triangles.value, 3, this.computeTriangles.value);
    this.triangleIndices.value = Uint32Array.from(tr.inI);
    this.trianglesInROI.value = Uint32Array.from(tr.inE);
    this.triangleOutIndices.value = Uint32Array.from(tr.outI);
    this.trianglesOutROI.value = Uint32Array.from(tr.outE);
    const qu = classify(this.quads.value, 4, this.computeQuads.value);
    this.quadIndices.value = Uint32Array.from(qu.inI);
    this.quadsInROI.value = Uint32Array.from(qu.inE);
    const te = classify(this.tetrahedra.value, 4, this.computeTetrahedra.value);
    this.tetrahedronIndices.value = Uint32Array.from(te.inI);
    this.tetrahedraInROI.value = Uint32Array.from(te.inE);
    this.tetrahedronOutIndices.value = Uint32Array.from(te.outI);
    this.tetrahedraOutROI.value = Uint32Array.from(te.outE);
    const he = classify(this.hexahedra.value, 8, this.computeHexahedra.value);
    this.hexahedronIndices.value = Uint32Array.from(he.inI);
    this.hexahedraInROI.value = Uint32Array.from(he.inE);
    if (n > 0 && hasBoxes) this.nbIndices.value = inIdx.length;
  }

  /** p (its first `dims` coordinates) is in an aligned box, or in an oriented box (3D). */
  private isPointInROI(p: number[], dims: number, aligned: Float64Array, oriented: OrientedBox[]): boolean {
    for (let b = 0; b < aligned.length; b += 6) {
      let ok = true;
      for (let k = 0; k < dims && ok; k++) ok = p[k]! >= aligned[b + k]! && p[k]! <= aligned[b + 3 + k]!;
      if (ok) return true;
    }
    for (const ob of oriented) if (isPointInOrientedBox(p, ob)) return true;
    return false;
  }
}

/** Given by the scene: a value or a link. */
function isGiven(d: Data<unknown>): boolean {
  return d.isSet || d.linkPath !== undefined || d.parent !== undefined;
}

/** Boxes with min and max swapped where the scene wrote them the other way round. */
function normalisedBoxes(b: Float64Array): Float64Array {
  const out = Float64Array.from(b);
  for (let i = 0; i + 6 <= out.length; i += 6) {
    for (let k = 0; k < 3; k++) {
      if (out[i + k]! > out[i + 3 + k]!) {
        const t = out[i + k]!;
        out[i + k] = out[i + 3 + k]!;
        out[i + 3 + k] = t;
      }
    }
  }
  return out;
}

const sub = (a: number[], b: number[]): number[] => [a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!];
const add = (a: number[], b: number[]): number[] => [a[0]! + b[0]!, a[1]! + b[1]!, a[2]! + b[2]!];
const scaled = (a: number[], s: number): number[] => [a[0]! * s, a[1]! * s, a[2]! * s];
const dot = (a: number[], b: number[]): number => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
const cross = (a: number[], b: number[]): number[] => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
function unit(a: number[]): number[] {
  const r = Math.sqrt(dot(a, a));
  return r > Number.EPSILON ? scaled(a, 1 / r) : a;
}

/**
 * The planes of each oriented box (p0, p1, p2, depth): normal n = unit((p1−p0)×(p2−p0)),
 * p3 = p0 + (p2 − p1); side planes through p0 and p2, width and length of the parallelogram.
 */
function orientedBoxes(v: Float64Array): OrientedBox[] {
  const out: OrientedBox[] = [];
  for (let i = 0; i + 10 <= v.length; i += 10) {
    const p0 = [v[i]!, v[i + 1]!, v[i + 2]!];
    const p1 = [v[i + 3]!, v[i + 4]!, v[i + 5]!];
    const p2 = [v[i + 6]!, v[i + 7]!, v[i + 8]!];
    const depth = v[i + 9]!;
    const normal = unit(cross(sub(p1, p0), sub(p2, p0)));
    const p3 = add(p0, sub(p2, p1));
    const p6 = add(p2, scaled(normal, depth));
    const plane0 = unit(cross(sub(p1, p0), normal));
    const plane1 = unit(cross(sub(p2, p3), sub(p6, p3)));
    const plane2 = unit(cross(sub(p3, p0), normal));
    const plane3 = unit(cross(sub(p2, p1), sub(p6, p2)));
    out.push({ p0, p2, normal, plane0, plane1, plane2, plane3, width: Math.abs(dot(sub(p2, p0), plane0)), length: Math.abs(dot(sub(p2, p0), plane2)), depth });
  }
  return out;
}

/** Within width of both long sides, length of both short sides, and depth/2 of the mid-plane. */
function isPointInOrientedBox(p: number[], b: OrientedBox): boolean {
  const pv0 = sub(p, b.p0);
  const pv1 = sub(p, b.p2);
  if (Math.abs(dot(pv0, b.plane0)) > b.width || Math.abs(dot(pv1, b.plane1)) > b.width) return false;
  if (Math.abs(dot(pv0, b.plane2)) > b.length || Math.abs(dot(pv1, b.plane3)) > b.length) return false;
  return Math.abs(dot(pv0, b.normal)) <= Math.abs(b.depth / 2);
}
