import { Bool, DataEngine, IndexArray, Indices, Real, UInt, type Data, type StateType } from '@sofa-ts/core';
import { Coords, engineStateType, followContextPositions, followContextTopology } from '../engine-support.js';

/** The element kinds a ROI classifies, with their vertex counts. */
export type RoiElementKind = 'edge' | 'triangle' | 'quad' | 'tetrahedron' | 'hexahedron';
const NV: Record<RoiElementKind, number> = { edge: 2, triangle: 3, quad: 4, tetrahedron: 4, hexahedron: 8 };

/** A kind's element list, its compute flag, its outputs (in indices, in list, out indices, out list) and what they were computed from. */
interface KindOutputs {
  readonly kind: RoiElementKind;
  readonly elems: Data<Uint32Array>;
  readonly compute: Data<boolean>;
  readonly outputs: readonly [Data<Uint32Array>, Data<Uint32Array>, Data<Uint32Array>, Data<Uint32Array>];
  seenSelection: number;
  seenElems: number;
}

/** The templates a ROI accepts (its positions are those of a state of that template). */
export const ROI_TEMPLATES = ['Vec3d', 'Vec2d', 'Vec1d', 'Rigid3d', 'Vec6d'];

/**
 * SOFA's BaseROI: the common part of the region-of-interest engines (BoxROI, SphereROI). A
 * subclass says whether a point is in its region (`isPointInROI`); the base selects
 *  - the points in the region (indices, pointsInROI) and the others (indicesOut, pointsOutROI);
 *  - the edges, triangles, quads, tetrahedra and hexahedra in it: with `strict` (the default) an
 *    element is in when all its points are, otherwise when its centroid is (a subclass may refine
 *    the element test, as SphereROI does with its angle conditions).
 * Inputs default as in SOFA: `position` follows the rest_position of the node's mechanical state,
 * else the position of the node's mesh loader, else the rest_position of the nearest state above;
 * element lists follow the node's topology when their compute flag is on. The outputs are
 * computed at init and again, lazily, when one is read after an input changed (DataEngine); with
 * doUpdate false they keep their first value. The element outputs of a kind (its in/out indices and
 * lists) are computed when one of them is first read after the point selection or the kind's list
 * changed, and the element lists follow the topology from their first read: a ROI read for its
 * points only holds no element list (with doUpdate false every kind is computed at init).
 */
export abstract class BaseROI extends DataEngine {
  // Inputs
  readonly position = this.initData({
    name: 'position',
    type: Coords,
    default: new Float64Array(0),
    help: 'rest positions of the points; if empty, those of the mechanical state or mesh loader of the node are used (else of a mechanical state above)',
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
  readonly quads = this.initData({
    name: 'quads',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'quad topology',
    aliases: ['quad'],
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
  readonly computeQuads = this.initData({
    name: 'computeQuads',
    type: Bool,
    default: true,
    help: 'if true, compute the quad list and index list inside the ROI',
    aliases: ['computeQuad'],
  });
  readonly computeTetrahedra = this.initData({
    name: 'computeTetrahedra',
    type: Bool,
    default: true,
    help: 'if true, compute the tetrahedra list and index list inside the ROI',
  });
  readonly computeHexahedra = this.initData({
    name: 'computeHexahedra',
    type: Bool,
    default: true,
    help: 'if true, compute the hexahedra list and index list inside the ROI',
  });
  readonly strict = this.initData({
    name: 'strict',
    type: Bool,
    default: true,
    help: 'if true, an element is inside when all its points are; if false, when its center is',
  });

  // Outputs
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
  readonly quadsInROI = this.initData({
    name: 'quadsInROI',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'quads contained in the ROI',
    output: true,
    aliases: ['quadInROI'],
  });
  readonly tetrahedraInROI = this.initData({
    name: 'tetrahedraInROI',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'tetrahedra contained in the ROI',
    output: true,
  });
  readonly hexahedraInROI = this.initData({
    name: 'hexahedraInROI',
    type: IndexArray(8, 'vector<Hexahedron>'),
    default: new Uint32Array(0),
    help: 'hexahedra contained in the ROI',
    output: true,
  });
  readonly nbIndices = this.initData({ name: 'nbIndices', type: UInt, default: 0, help: 'number of selected indices', output: true });
  readonly pointsOutROI = this.initData({
    name: 'pointsOutROI',
    type: Coords,
    default: new Float64Array(0),
    help: 'points not contained in the ROI',
    output: true,
  });
  readonly edgesOutROI = this.initData({
    name: 'edgesOutROI',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'edges not contained in the ROI',
    output: true,
  });
  readonly trianglesOutROI = this.initData({
    name: 'trianglesOutROI',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangles not contained in the ROI',
    output: true,
  });
  readonly quadsOutROI = this.initData({
    name: 'quadsOutROI',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'quads not contained in the ROI',
    output: true,
  });
  readonly tetrahedraOutROI = this.initData({
    name: 'tetrahedraOutROI',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'tetrahedra not contained in the ROI',
    output: true,
  });
  readonly hexahedraOutROI = this.initData({
    name: 'hexahedraOutROI',
    type: IndexArray(8, 'vector<Hexahedron>'),
    default: new Uint32Array(0),
    help: 'hexahedra not contained in the ROI',
    output: true,
  });
  readonly indicesOut = this.initData({
    name: 'indicesOut',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the points not contained in the ROI',
    output: true,
  });
  readonly edgeOutIndices = this.initData({
    name: 'edgeOutIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the edges not contained in the ROI',
    output: true,
  });
  readonly triangleOutIndices = this.initData({
    name: 'triangleOutIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the triangles not contained in the ROI',
    output: true,
  });
  readonly quadOutIndices = this.initData({
    name: 'quadOutIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the quads not contained in the ROI',
    output: true,
  });
  readonly tetrahedronOutIndices = this.initData({
    name: 'tetrahedronOutIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the tetrahedra not contained in the ROI',
    output: true,
  });
  readonly hexahedronOutIndices = this.initData({
    name: 'hexahedronOutIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the hexahedra not contained in the ROI',
    output: true,
  });

  // Parameters
  readonly drawROI = this.initData({
    name: 'drawROI',
    type: Bool,
    default: false,
    help: 'draw the ROI (drawing only: no effect in a batch run)',
    group: 'Visualization',
    aliases: ['drawBoxes', 'isVisible'],
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
  readonly drawQuads = this.initData({ name: 'drawQuads', type: Bool, default: false, help: 'draw quads', group: 'Visualization' });
  readonly drawTetrahedra = this.initData({
    name: 'drawTetrahedra',
    type: Bool,
    default: false,
    help: 'draw tetrahedra',
    group: 'Visualization',
  });
  readonly drawHexahedra = this.initData({
    name: 'drawHexahedra',
    type: Bool,
    default: false,
    help: 'draw hexahedra',
    group: 'Visualization',
  });
  readonly drawSize = this.initData({
    name: 'drawSize',
    type: Real,
    default: 1,
    help: 'rendering size for the ROI and topological elements',
    group: 'Visualization',
  });
  readonly doUpdate = this.initData({
    name: 'doUpdate',
    type: Bool,
    default: true,
    help: 'if true, the selection is updated when the inputs change (it is always computed at init)',
  });

  protected stateType: StateType | undefined;
  private warnedEmpty = false;

  constructor() {
    super();
    // The element lists are inputs of their kind's outputs only (classifyIfDirty).
    this.addInput(
      this.position,
      this.strict,
      this.computeEdges,
      this.computeTriangles,
      this.computeQuads,
      this.computeTetrahedra,
      this.computeHexahedra,
    );
    this.addOutput(this.indices, this.pointsInROI, this.nbIndices, this.pointsOutROI, this.indicesOut);
    this.kinds = [
      this.kindOutputs('edge', this.edges, this.computeEdges, this.edgeIndices, this.edgesInROI, this.edgeOutIndices, this.edgesOutROI),
      this.kindOutputs(
        'triangle',
        this.triangles,
        this.computeTriangles,
        this.triangleIndices,
        this.trianglesInROI,
        this.triangleOutIndices,
        this.trianglesOutROI,
      ),
      this.kindOutputs('quad', this.quads, this.computeQuads, this.quadIndices, this.quadsInROI, this.quadOutIndices, this.quadsOutROI),
      this.kindOutputs(
        'tetrahedron',
        this.tetrahedra,
        this.computeTetrahedra,
        this.tetrahedronIndices,
        this.tetrahedraInROI,
        this.tetrahedronOutIndices,
        this.tetrahedraOutROI,
      ),
      this.kindOutputs(
        'hexahedron',
        this.hexahedra,
        this.computeHexahedra,
        this.hexahedronIndices,
        this.hexahedraInROI,
        this.hexahedronOutIndices,
        this.hexahedraOutROI,
      ),
    ];
  }

  /** The outputs of one element kind, each read hook classifying the kind when it is stale. */
  private kindOutputs(
    kind: RoiElementKind,
    elems: Data<Uint32Array>,
    compute: Data<boolean>,
    inI: Data<Uint32Array>,
    inE: Data<Uint32Array>,
    outI: Data<Uint32Array>,
    outE: Data<Uint32Array>,
  ): KindOutputs {
    const k: KindOutputs = { kind, elems, compute, outputs: [inI, inE, outI, outE], seenSelection: -1, seenElems: -1 };
    for (const d of k.outputs) d.setReadHook(() => this.classifyIfDirty(k));
    return k;
  }

  private readonly kinds: KindOutputs[];
  /** Bumped at each update of the point selection: a kind classified before it is stale. */
  private selection = 0;
  /** inside[i]: point i is in the region, at the last update; undefined when the selection is empty. */
  private inside: Uint8Array | undefined;
  /** True once init armed the kinds' read hooks. */
  private kindsArmed = false;
  private classifying = false;

  /** The subclass's own checks and defaults, before the first selection (SOFA's roiInit). */
  protected roiInit(): void {}

  /** Prepares an update; false leaves the selection empty (SOFA's roiDoUpdate). */
  protected roiDoUpdate(): boolean {
    return true;
  }

  /** p = (x, y, z), zero-padded below 3 spatial dimensions, is in the region. */
  protected abstract isPointInROI(p: Float64Array): boolean;

  /**
   * Element e (its point indices) is in the region: all its points (strict) or its centroid.
   * `inside[i]` says whether point i is in; `centroid` is scratch of 3 numbers.
   */
  protected isElementInROI(_kind: RoiElementKind, e: Uint32Array, strict: boolean, inside: Uint8Array): boolean {
    if (strict) {
      for (let j = 0; j < e.length; j++) if (!inside[e[j]]) return false;
      return true;
    }
    this.centroid(e, this.scratch);
    return this.isPointInROI(this.scratch);
  }

  /** out = mean of the points of e (spatial part, zero-padded to 3). */
  protected centroid(e: Uint32Array, out: Float64Array): void {
    out.fill(0);
    for (let j = 0; j < e.length; j++) {
      this.pointAt(e[j], this.scratch2);
      for (let k = 0; k < 3; k++) out[k] += this.scratch2[k] / e.length;
    }
  }

  /** out = spatial coordinates of point i (zero-padded to 3). */
  protected pointAt(i: number, out: Float64Array): void {
    const t = this.stateType!;
    const x = this.position.value;
    const cs = t.coordSize;
    const dims = Math.min(3, t.spatialDimensions);
    out.fill(0);
    for (let k = 0; k < dims; k++) out[k] = x[i * cs + k];
  }

  private readonly scratch = new Float64Array(3);
  private readonly scratch2 = new Float64Array(3);

  override init(): void {
    this.stateType = engineStateType(this, ROI_TEMPLATES);
    followContextPositions(this, this.position, {
      stateData: 'rest_position',
      search: 'local-then-up',
      required: true,
      purpose: 'select from',
      coordType: this.stateType,
    });
    followContextTopology(
      this,
      [
        [this.edges, 'edges', this.computeEdges.value],
        [this.triangles, 'triangles', this.computeTriangles.value],
        [this.tetrahedra, 'tetrahedra', this.computeTetrahedra.value],
        [this.hexahedra, 'hexahedra', this.computeHexahedra.value],
        [this.quads, 'quads', this.computeQuads.value],
      ],
      'local',
      true,
    );
    this.roiInit();
    // The first selection is always computed, whatever doUpdate says.
    const keep = this.doUpdate.value;
    this.doUpdate.value = true;
    this.startUpdates();
    this.kindsArmed = true;
    // Without updates, the elements are classified now, against the first selection.
    if (!keep) for (const k of this.kinds) this.classifyIfDirty(k);
    this.doUpdate.value = keep;
  }

  /**
   * The read hook of a kind's outputs: the point selection brought up to date first, then the
   * kind classified again when the selection or its element list changed since it last was.
   */
  private classifyIfDirty(k: KindOutputs): void {
    if (!this.kindsArmed || this.classifying) return;
    this.updateIfDirty();
    if (!this.doUpdate.value && k.seenSelection >= 0) return;
    this.classifying = true;
    try {
      const elemsCounter = k.compute.value ? k.elems.counter : -1;
      if (k.seenSelection === this.selection && k.seenElems === elemsCounter) return;
      k.seenSelection = this.selection;
      k.seenElems = elemsCounter;
      if (this.inside === undefined || !k.compute.value) {
        for (const d of k.outputs) if (d.rawValue.length > 0) d.value = new Uint32Array(0);
        return;
      }
      this.classify(k, this.inside);
    } finally {
      this.classifying = false;
    }
  }

  /** The elements of a kind in the region (isElementInROI) and out of it, indices and lists. */
  private classify(k: KindOutputs, inside: Uint8Array): void {
    const n = inside.length;
    const strict = this.strict.value;
    const elems = k.elems.value;
    const nv = NV[k.kind];
    const r = { inI: [] as number[], outI: [] as number[], inE: [] as number[], outE: [] as number[] };
    for (let e = 0; e * nv < elems.length; e++) {
      const el = elems.subarray(e * nv, e * nv + nv);
      // An element naming a point the positions do not have is outside.
      let valid = true;
      for (let j = 0; j < nv; j++) if (el[j] >= n) valid = false;
      const isIn = valid && this.isElementInROI(k.kind, el, strict, inside);
      (isIn ? r.inI : r.outI).push(e);
      const dst = isIn ? r.inE : r.outE;
      for (let j = 0; j < nv; j++) dst.push(el[j]);
    }
    const [inI, inE, outI, outE] = k.outputs;
    inI.value = Uint32Array.from(r.inI);
    inE.value = Uint32Array.from(r.inE);
    outI.value = Uint32Array.from(r.outI);
    outE.value = Uint32Array.from(r.outE);
  }

  protected updateOutputs(): void {
    if (!this.doUpdate.value) return;
    const t = this.stateType!;
    const cs = t.coordSize;
    const x = this.position.value;
    if (x.length % cs !== 0) throw this.error(`'position' has ${x.length} numbers, not a multiple of ${cs} (template ${t.name})`);
    const n = x.length / cs;
    this.clearOutputs();
    // the kinds are classified again at their next read
    this.selection++;
    this.inside = undefined;
    if (n === 0) {
      if (!this.warnedEmpty) this.warn('no rest positions yet: the selection is empty');
      this.warnedEmpty = true;
      return;
    }
    if (!this.roiDoUpdate()) return;

    // inside[i]: point i is in the region.
    const inside = new Uint8Array(n);
    const inIdx: number[] = [],
      outIdx: number[] = [],
      inPts: number[] = [],
      outPts: number[] = [];
    for (let i = 0; i < n; i++) {
      this.pointAt(i, this.scratch);
      inside[i] = this.isPointInROI(this.scratch) ? 1 : 0;
      (inside[i] ? inIdx : outIdx).push(i);
      const dst = inside[i] ? inPts : outPts;
      for (let k = 0; k < cs; k++) dst.push(x[i * cs + k]);
    }
    this.indices.value = Uint32Array.from(inIdx);
    this.indicesOut.value = Uint32Array.from(outIdx);
    this.pointsInROI.value = Float64Array.from(inPts);
    this.pointsOutROI.value = Float64Array.from(outPts);
    this.nbIndices.value = inIdx.length;

    this.inside = inside;
  }

  /** Every output emptied (nbIndices 0). */
  private clearOutputs(): void {
    const empty = [this.indices, this.indicesOut];
    for (const d of empty) if (d.value.length > 0) d.value = new Uint32Array(0);
    if (this.pointsInROI.value.length > 0) this.pointsInROI.value = new Float64Array(0);
    if (this.pointsOutROI.value.length > 0) this.pointsOutROI.value = new Float64Array(0);
    if (this.nbIndices.value !== 0) this.nbIndices.value = 0;
  }
}
