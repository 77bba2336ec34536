import {
  addBlock3,
  contextMeshTopology,
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
import { MappingComponent } from './mapping-component.js';

const templates = ['Vec3d,Vec1d', 'Rigid3d,Vec1d'];
/** The identity block, scaled per call. */
const I3 = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);

/**
 * SOFA's SquareDistanceMapping: each edge (a, b) of the topology gives the squared distance
 *   e = ‖p_b − p_a‖²,   J = (−2(p_b − p_a)ᵀ at a, +2(p_b − p_a)ᵀ at b)
 * (p the position, the centre of a rigid frame). There is no rest length (SOFA leaves it out).
 * Geometric stiffness for the child force λ_e: ∂(Jᵀλ)/∂x = 2λ_e·[I −I; −I I] on (a, b);
 * `geometricStiffness` None, Exact or Stabilized (SOFA's default: only λ_e < 0 contributes).
 */
@sofaComponent({
  name: 'SquareDistanceMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.NonLinear',
  description: 'Squared lengths of the edges of a topology.',
  templates,
})
export class SquareDistanceMapping extends MappingComponent {
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

  /** (nE × 2) edges. */
  private edges = new Uint32Array(0);
  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  private cIn = 3;
  private dIn = 3;

  get isLinear(): boolean {
    return false;
  }

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(templates);
    this.cIn = this.inType().coordSize;
    this.dIn = this.inType().derivSize;
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo)
      throw this.error('no topology: add an edge topology (e.g. EdgeSetTopologyContainer) in this node or above, or set topology="@path"');
    this.topology.set(topo);
    const edges = Uint32Array.from(topo.getEdges());
    const nE = edges.length / 2;
    if (nE < 1) throw this.error(`topology ${topo.describe()} has no edges`);
    const nIn = this.from.size;
    for (let k = 0; k < edges.length; k++)
      if (edges[k] >= nIn)
        throw this.error(`edge ${k >> 1} of ${topo.describe()} names point ${edges[k]}, but the input has ${nIn} points`);
    this.edges = edges;
    // J pattern: per row, the 3 columns of each end, lower point first
    const rowPtr = new Int32Array(nE + 1);
    const cols: number[] = [];
    for (let i = 0; i < nE; i++) {
      const a = edges[2 * i],
        b = edges[2 * i + 1];
      for (const p of a === b ? [a] : [Math.min(a, b), Math.max(a, b)]) for (let k = 0; k < 3; k++) cols.push(p * this.dIn + k);
      rowPtr[i + 1] = cols.length;
    }
    this.J = createCsr(nE, nIn * this.dIn, rowPtr, Int32Array.from(cols));
    this.resizeOutput(nE);
    this.apply();
    const out = this.getTo();
    if (out) this.applyJ(out.v, [this.from.v]);
    if (this.applyRestPosition.value && out) this.mapPositions(out.x0, this.from.x0, false);
  }

  apply(): void {
    this.mapPositions(this.outputPositions(), this.from.x, true);
    this.touchOutput();
  }

  /** out_i = ‖p_b − p_a‖²; with `jacobian`, J's values (2(p_b − p_a) at b, its opposite at a). */
  private mapPositions(out: Float64Array, x: Float64Array, jacobian: boolean): void {
    const e = this.edges,
      c = this.cIn,
      { rowPtr, values } = this.J;
    for (let i = 0; i < e.length / 2; i++) {
      const a = e[2 * i],
        b = e[2 * i + 1];
      let s = 0;
      for (let k = 0; k < 3; k++) {
        const g = x[b * c + k] - x[a * c + k];
        s += g * g;
        if (!jacobian) continue;
        const p = rowPtr[i];
        if (a === b) values[p + k] = 0;
        else {
          values[p + k] = a < b ? -2 * g : 2 * g;
          values[p + 3 + k] = a < b ? 2 * g : -2 * g;
        }
      }
      out[i] = s;
    }
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const v = ins[0],
      e = this.edges,
      { rowPtr, colInd, values } = this.J;
    for (let i = 0; i < e.length / 2; i++) {
      let s = 0;
      for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) s += values[p] * v[colInd[p]];
      out[i] = s;
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const f = ins[0],
      { rowPtr, colInd, values } = this.J;
    for (let i = 0; i < this.edges.length / 2; i++) for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) f[colInd[p]] += values[p] * out[i];
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }

  /** 2λ_e·kFactor, or 0 when the method leaves edge e out. */
  private scale(i: number, childForce: Float64Array, kFactor: number): number {
    const m = this.geometricStiffness.value;
    if (m === 'None' || (m === 'Stabilized' && !(childForce[i] < 0))) return 0;
    return 2 * childForce[i] * kFactor;
  }

  /** df_a += s·(dx_a − dx_b), df_b −= the same. */
  override applyDJT(dfIns: readonly Float64Array[], dxIns: readonly Float64Array[], childForce: Float64Array, kFactor: number): void {
    const df = dfIns[0],
      dx = dxIns[0],
      e = this.edges,
      d = this.dIn;
    for (let i = 0; i < e.length / 2; i++) {
      const s = this.scale(i, childForce, kFactor);
      if (s === 0) continue;
      const a = e[2 * i] * d,
        b = e[2 * i + 1] * d;
      for (let k = 0; k < 3; k++) {
        const g = s * (dx[a + k] - dx[b + k]);
        df[a + k] += g;
        df[b + k] -= g;
      }
    }
  }

  /** Every edge's four 3×3 blocks at every call (zeros included), to keep the pattern. */
  override addGeometricStiffness(acc: MatrixAccumulator, childForce: Float64Array, kFactor: number): void {
    if (this.geometricStiffness.value === 'None') return;
    const e = this.edges,
      d = this.dIn;
    for (let i = 0; i < e.length / 2; i++) {
      const s = this.scale(i, childForce, kFactor);
      const a = e[2 * i] * d,
        b = e[2 * i + 1] * d;
      addBlock3(acc, a, a, I3, 0, s);
      addBlock3(acc, a, b, I3, 0, -s);
      addBlock3(acc, b, a, I3, 0, -s);
      addBlock3(acc, b, b, I3, 0, s);
    }
  }
}
