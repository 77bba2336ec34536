import {
  addBlock3,
  Bool,
  contextMeshTopology,
  IndexArray,
  isTopology,
  Real,
  RealArray,
  sofaComponent,
  type BaseMeshTopology,
  type MatrixAccumulator,
  type SparseMatrixLike,
} from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { GeometricStiffnessMethod } from './distance-law.js';
import { MultiMappingComponent } from './multi-mapping-component.js';

const templates = ['Vec3d,Vec1d', 'Rigid3d,Vec1d'];

/**
 * SOFA's DistanceMultiMapping: DistanceMapping across several input states. `indexPairs` lists
 * points as (input, point) pairs; each edge (i, j) of the topology joins pair i (p_a) and pair j
 * (p_b) and gives
 *   e = ‖p_b − p_a‖ − l0,   J = (−uᵀ at a, +uᵀ at b),  u = (p_b − p_a)/‖p_b − p_a‖
 * (the centre of a rigid frame; at a zero length u = (1, 1, 1)/√3 and K = 0, as in SOFA).
 * Rest lengths l0: `restLengths` when it has one per edge, else the lengths at init (zero with
 * computeDistance). Geometric stiffness for the child force λ: (λ/l)·(I − uuᵀ) on (a, a) and
 * (b, b), its opposite on (a, b) and (b, a), in the concatenated index space of the inputs;
 * `geometricStiffness` None, Exact or Stabilized (SOFA's default: only λ < 0 contributes).
 */
@sofaComponent({
  name: 'DistanceMultiMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.NonLinear',
  description: 'Distances between points of several states (edges of index pairs), minus rest lengths.',
  templates,
})
export class DistanceMultiMapping extends MultiMappingComponent {
  readonly computeDistance = this.initData({
    name: 'computeDistance',
    type: Bool,
    default: false,
    help: 'if true, the rest lengths are zero (the output is the distance itself); otherwise they are the lengths at init',
  });
  readonly restLengths = this.initData({
    name: 'restLengths',
    type: RealArray(1, 'vector<double>'),
    default: new Float64Array(0),
    unit: 'length',
    help: 'rest lengths of the connections',
  });
  readonly showObjectScale = this.initData({
    name: 'showObjectScale',
    type: Real,
    default: 0,
    help: 'scale for object display',
    group: 'Visualization',
  });
  readonly showColor = this.initData({
    name: 'showColor',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(1, 1, 0, 1),
    help: 'color for object display',
    group: 'Visualization',
  });
  readonly indexPairs = this.initData({
    name: 'indexPairs',
    type: IndexArray(2, 'vector<Vec2i>'),
    default: new Uint32Array(0),
    help: 'list of couples (parent index + index in the parent)',
  });
  readonly geometricStiffness = this.initData({
    name: 'geometricStiffness',
    type: GeometricStiffnessMethod,
    default: 'Stabilized',
    help: 'method used to compute the geometric stiffness: None (not computed), Exact, Stabilized (only edges in tension, for stability)',
  });
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'link to the topology container (default: the topology of the context)',
    accepts: isTopology,
    expected: 'a topology',
  });

  /** Per edge: input and coordinate offset of each end (a then b), (nE × 2) each; derivative offsets likewise. */
  private inA = new Uint32Array(0);
  private inB = new Uint32Array(0);
  private pa = new Uint32Array(0);
  private pb = new Uint32Array(0);
  /** Rest lengths, directions (nE × 3) and inverse lengths (nE). */
  private rest = new Float64Array(0);
  private dirs = new Float64Array(0);
  private inv = new Float64Array(0);
  /** J_s per input, and for each edge the slot of each end's first entry in J_{in}, (nE) each. */
  private Js: CsrMatrix[] = [];
  private slotA = new Int32Array(0);
  private slotB = new Int32Array(0);
  /** First index of each input in the concatenated derivative space, (nInputs). */
  private offsets = new Uint32Array(0);
  private cIn = 3;
  private dIn = 3;
  private readonly block = new Float64Array(9);

  get isLinear(): boolean {
    return false;
  }

  override init(): void {
    this.resolveEnds(1);
    this.checkTemplates(templates);
    this.cIn = this.inType().coordSize;
    this.dIn = this.inType().derivSize;
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: add an edge topology (e.g. EdgeSetTopologyContainer) in this node, or set topology="@path"');
    this.topology.set(topo);
    const edges = topo.getEdges();
    const nE = edges.length / 2;
    if (nE < 1) throw this.error(`topology ${topo.describe()} has no edges`);
    const pairs = this.indexPairs.value,
      nP = pairs.length / 2;
    for (let k = 0; k < nP; k++) {
      const s = pairs[2 * k],
        p = pairs[2 * k + 1];
      if (s >= this.froms.length) throw this.error(`pair ${k} names input ${s}, but there are ${this.froms.length} inputs`);
      if (p >= this.froms[s].size)
        throw this.error(`pair ${k} names point ${p} of ${this.froms[s].describe()}, which has ${this.froms[s].size} points`);
    }
    this.inA = new Uint32Array(nE);
    this.inB = new Uint32Array(nE);
    this.pa = new Uint32Array(nE);
    this.pb = new Uint32Array(nE);
    for (let i = 0; i < nE; i++) {
      const ea = edges[2 * i],
        eb = edges[2 * i + 1];
      if (ea >= nP || eb >= nP)
        throw this.error(`edge ${i} of ${topo.describe()} names pair ${Math.max(ea, eb)}, but indexPairs has ${nP} pairs`);
      this.inA[i] = pairs[2 * ea];
      this.pa[i] = pairs[2 * ea + 1];
      this.inB[i] = pairs[2 * eb];
      this.pb[i] = pairs[2 * eb + 1];
    }
    this.offsets = new Uint32Array(this.froms.length);
    for (let s = 1; s < this.froms.length; s++) this.offsets[s] = this.offsets[s - 1] + this.froms[s - 1].size * this.dIn;
    this.dirs = new Float64Array(3 * nE);
    this.inv = new Float64Array(nE);
    if (this.restLengths.value.length !== nE) {
      const r = new Float64Array(nE);
      if (!this.computeDistance.value)
        for (let i = 0; i < nE; i++)
          r[i] = this.length(
            i,
            this.froms.map((s) => s.x),
          );
      this.restLengths.value = r;
    }
    this.rest = Float64Array.from(this.restLengths.value);
    this.buildPatterns(nE);
    this.resizeOutput(nE);
    this.initialApply();
    // mapping the rest positions overwrote the directions and J: take them at x again
    if (this.applyRestPosition.value) this.apply();
  }

  /** ‖p_b − p_a‖ of edge i from the inputs' coordinates. */
  private length(i: number, xs: readonly Float64Array[]): number {
    const xa = xs[this.inA[i]],
      xb = xs[this.inB[i]],
      a = this.pa[i] * this.cIn,
      b = this.pb[i] * this.cIn;
    return Math.hypot(xb[b] - xa[a], xb[b + 1] - xa[a + 1], xb[b + 2] - xa[a + 2]);
  }

  /** J_s: row i holds the 3 columns of each end lying in input s, in increasing column order. */
  private buildPatterns(nE: number): void {
    const d = this.dIn;
    this.slotA = new Int32Array(nE).fill(-1);
    this.slotB = new Int32Array(nE).fill(-1);
    this.Js = this.froms.map((st, s) => {
      const rowPtr = new Int32Array(nE + 1);
      const cols: number[] = [];
      for (let i = 0; i < nE; i++) {
        const ends: Array<[number, 'a' | 'b']> = [];
        if (this.inA[i] === s) ends.push([this.pa[i], 'a']);
        if (this.inB[i] === s && !(this.inA[i] === s && this.pa[i] === this.pb[i])) ends.push([this.pb[i], 'b']);
        ends.sort((u, v) => u[0] - v[0]);
        for (const [p, which] of ends) {
          if (which === 'a') this.slotA[i] = cols.length;
          else this.slotB[i] = cols.length;
          for (let k = 0; k < 3; k++) cols.push(p * d + k);
        }
        rowPtr[i + 1] = cols.length;
      }
      return createCsr(nE, st.size * d, rowPtr, Int32Array.from(cols));
    });
  }

  protected mapPositions(out: Float64Array, ins: readonly Float64Array[]): void {
    const c = this.cIn,
      u = this.dirs,
      fallback = 1 / Math.sqrt(3);
    for (let i = 0; i < this.rest.length; i++) {
      const xa = ins[this.inA[i]],
        xb = ins[this.inB[i]],
        a = this.pa[i] * c,
        b = this.pb[i] * c;
      let l2 = 0;
      for (let k = 0; k < 3; k++) {
        u[3 * i + k] = xb[b + k] - xa[a + k];
        l2 += u[3 * i + k] ** 2;
      }
      const l = Math.sqrt(l2);
      out[i] = l - this.rest[i];
      if (l > Number.EPSILON) {
        this.inv[i] = 1 / l;
        for (let k = 0; k < 3; k++) u[3 * i + k] = u[3 * i + k] / l;
      } else {
        this.inv[i] = 0;
        for (let k = 0; k < 3; k++) u[3 * i + k] = fallback;
      }
    }
    // J values: −u at a, +u at b (a point joined to itself: a zero row)
    for (let i = 0; i < this.rest.length; i++) {
      const same = this.inA[i] === this.inB[i] && this.pa[i] === this.pb[i];
      const ja = this.Js[this.inA[i]].values,
        jb = this.Js[this.inB[i]].values;
      for (let k = 0; k < 3; k++) {
        ja[this.slotA[i] + k] = same ? 0 : -u[3 * i + k];
        if (!same) jb[this.slotB[i] + k] = u[3 * i + k];
      }
    }
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const d = this.dIn,
      u = this.dirs;
    for (let i = 0; i < this.rest.length; i++) {
      const va = ins[this.inA[i]],
        vb = ins[this.inB[i]],
        a = this.pa[i] * d,
        b = this.pb[i] * d;
      let s = 0;
      for (let k = 0; k < 3; k++) s += u[3 * i + k] * (vb[b + k] - va[a + k]);
      out[i] = s;
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const d = this.dIn,
      u = this.dirs;
    for (let i = 0; i < this.rest.length; i++) {
      const fa = ins[this.inA[i]],
        fb = ins[this.inB[i]],
        a = this.pa[i] * d,
        b = this.pb[i] * d;
      for (let k = 0; k < 3; k++) {
        const g = u[3 * i + k] * out[i];
        fa[a + k] -= g;
        fb[b + k] += g;
      }
    }
  }

  getJ(input: number): SparseMatrixLike {
    return this.Js[input];
  }

  /** λ_i/l_i·kFactor, or 0 when the method leaves edge i out. */
  private scale(i: number, childForce: Float64Array, kFactor: number): number {
    const m = this.geometricStiffness.value;
    if (m === 'None' || (m === 'Stabilized' && !(childForce[i] < 0))) return 0;
    return childForce[i] * this.inv[i] * kFactor;
  }

  /** g = s·(I − uuᵀ)·(dx_b − dx_a): df_a −= g, df_b += g. */
  override applyDJT(dfIns: readonly Float64Array[], dxIns: readonly Float64Array[], childForce: Float64Array, kFactor: number): void {
    const d = this.dIn,
      u = this.dirs;
    for (let i = 0; i < this.rest.length; i++) {
      const s = this.scale(i, childForce, kFactor);
      if (s === 0) continue;
      const a = this.pa[i] * d,
        b = this.pb[i] * d,
        xa = dxIns[this.inA[i]],
        xb = dxIns[this.inB[i]];
      const d0 = xb[b] - xa[a],
        d1 = xb[b + 1] - xa[a + 1],
        d2 = xb[b + 2] - xa[a + 2];
      const ud = u[3 * i] * d0 + u[3 * i + 1] * d1 + u[3 * i + 2] * d2;
      const fa = dfIns[this.inA[i]],
        fb = dfIns[this.inB[i]];
      for (let k = 0; k < 3; k++) {
        const g = s * ((k === 0 ? d0 : k === 1 ? d1 : d2) - u[3 * i + k] * ud);
        fa[a + k] -= g;
        fb[b + k] += g;
      }
    }
  }

  /** Every edge's four blocks at every call (zeros included), in the inputs' concatenated space. */
  override addGeometricStiffness(acc: MatrixAccumulator, childForce: Float64Array, kFactor: number): void {
    if (this.geometricStiffness.value === 'None') return;
    const d = this.dIn,
      u = this.dirs,
      B = this.block;
    for (let i = 0; i < this.rest.length; i++) {
      const s = this.scale(i, childForce, kFactor);
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) B[3 * r + c] = (r === c ? 1 : 0) - u[3 * i + r] * u[3 * i + c];
      const a = this.offsets[this.inA[i]] + this.pa[i] * d,
        b = this.offsets[this.inB[i]] + this.pb[i] * d;
      addBlock3(acc, a, a, B, 0, s);
      addBlock3(acc, a, b, B, 0, -s);
      addBlock3(acc, b, a, B, 0, -s);
      addBlock3(acc, b, b, B, 0, s);
    }
  }
}
