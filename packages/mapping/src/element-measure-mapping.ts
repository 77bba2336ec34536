import {
  addBlock3,
  contextMeshTopology,
  isTopology,
  type BaseMeshTopology,
  type MatrixAccumulator,
  type SparseMatrixLike,
} from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { GeometricStiffnessMethod } from './distance-law.js';
import { MappingComponent } from './mapping-component.js';

/**
 * Base of the mappings that measure elements (AreaMapping: triangle areas, VolumeMapping:
 * tetrahedron volumes): one scalar m_e(x) per element of k vertices, J row e = (∂m_e/∂x_v) on
 * its vertices (in increasing vertex order), and the geometric stiffness for the child force λ
 *   ∂(Jᵀλ)/∂x = Σ_e λ_e·∂²m_e/∂x²   (k×k blocks of 3×3 per element),
 * `geometricStiffness` None, Exact or Stabilized (SOFA's default: only λ_e < 0 contributes).
 * Subclasses give k, the element list, m_e with its gradient, and its Hessian. Vec3d inputs.
 */
export abstract class ElementMeasureMapping extends MappingComponent {
  readonly geometricStiffness = this.initData({
    name: 'geometricStiffness',
    type: GeometricStiffnessMethod,
    default: 'Stabilized',
    help: 'method used to compute the geometric stiffness: None (not computed), Exact, Stabilized (only the elements with a negative child force, for stability)',
  });
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'link to the topology container (default: the topology of the context)',
    accepts: isTopology,
    expected: 'a topology',
  });

  /** Vertices per element. */
  protected abstract readonly k: number;
  /** The elements of the topology (nE × k). */
  protected abstract elementsOf(topo: BaseMeshTopology): Uint32Array;
  /** m_e at x for the element's vertices `v`; writes ∂m/∂x_{v_i} to grad (k × 3). */
  protected abstract measure(x: Float64Array, v: Uint32Array, grad: Float64Array): number;
  /** ∂²m/∂x_{v_i}∂x_{v_j} (k × k blocks of 3×3, row-major blocks, row-major entries) at x. */
  protected abstract hessian(x: Float64Array, v: Uint32Array, out: Float64Array): void;

  /** Elements, (nE × k). */
  protected elements: Uint32Array = new Uint32Array(0);
  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  /** Per element, the slot in J of each vertex's first column, (nE × k). */
  private slots = new Int32Array(0);
  private grad = new Float64Array(0);
  private H = new Float64Array(0);
  private verts = new Uint32Array(0);

  get isLinear(): boolean {
    return false;
  }

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(['Vec3d,Vec1d']);
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: add a topology in this node or above, or set topology="@path"');
    this.topology.set(topo);
    const k = this.k;
    const elems = this.elementsOf(topo);
    const nE = elems.length / k,
      n = this.from.size;
    for (const v of elems) if (v >= n) throw this.error(`the topology names point ${v}, but the input has ${n} points`);
    this.elements = elems;
    const rowPtr = new Int32Array(nE + 1),
      cols: number[] = [];
    this.slots = new Int32Array(nE * k);
    for (let e = 0; e < nE; e++) {
      const order = Array.from({ length: k }, (_, i) => i).sort((a, b) => elems[e * k + a] - elems[e * k + b]);
      for (const i of order) {
        this.slots[e * k + i] = cols.length;
        for (let c = 0; c < 3; c++) cols.push(3 * elems[e * k + i] + c);
      }
      rowPtr[e + 1] = cols.length;
    }
    this.J = createCsr(nE, 3 * n, rowPtr, Int32Array.from(cols));
    this.grad = new Float64Array(3 * k);
    this.H = new Float64Array(9 * k * k);
    this.verts = new Uint32Array(k);
    this.resizeOutput(nE);
    this.apply();
    const out = this.getTo();
    if (out) this.applyJ(out.v, [this.from.v]);
    if (this.applyRestPosition.value && out) {
      for (let e = 0; e < nE; e++) out.x0[e] = this.measure(this.from.x0, this.elements.subarray(e * k, e * k + k), this.grad);
    }
  }

  apply(): void {
    const x = this.from.x,
      out = this.outputPositions(),
      k = this.k,
      J = this.J.values,
      g = this.grad;
    for (let e = 0; e < this.elements.length / k; e++) {
      for (let i = 0; i < k; i++) this.verts[i] = this.elements[e * k + i];
      out[e] = this.measure(x, this.verts, g);
      for (let i = 0; i < k; i++) for (let c = 0; c < 3; c++) J[this.slots[e * k + i] + c] = g[3 * i + c];
    }
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const v = ins[0],
      { rowPtr, colInd, values } = this.J;
    for (let r = 0; r < this.J.rows; r++) {
      let s = 0;
      for (let p = rowPtr[r]; p < rowPtr[r + 1]; p++) s += values[p] * v[colInd[p]];
      out[r] = s;
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const f = ins[0],
      { rowPtr, colInd, values } = this.J;
    for (let r = 0; r < this.J.rows; r++) for (let p = rowPtr[r]; p < rowPtr[r + 1]; p++) f[colInd[p]] += values[p] * out[r];
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }

  private scale(e: number, childForce: Float64Array, kFactor: number): number {
    const m = this.geometricStiffness.value;
    if (m === 'None' || (m === 'Stabilized' && !(childForce[e] < 0))) return 0;
    return childForce[e] * kFactor;
  }

  override applyDJT(dfIns: readonly Float64Array[], dxIns: readonly Float64Array[], childForce: Float64Array, kFactor: number): void {
    const df = dfIns[0],
      dx = dxIns[0],
      k = this.k,
      H = this.H,
      x = this.from.x;
    for (let e = 0; e < this.elements.length / k; e++) {
      const s = this.scale(e, childForce, kFactor);
      if (s === 0) continue;
      for (let i = 0; i < k; i++) this.verts[i] = this.elements[e * k + i];
      this.hessian(x, this.verts, H);
      for (let i = 0; i < k; i++) {
        const r = 3 * this.verts[i];
        for (let j = 0; j < k; j++) {
          const c = 3 * this.verts[j],
            o = 9 * (i * k + j);
          for (let a = 0; a < 3; a++) df[r + a] += s * (H[o + 3 * a] * dx[c] + H[o + 3 * a + 1] * dx[c + 1] + H[o + 3 * a + 2] * dx[c + 2]);
        }
      }
    }
  }

  /** Every element's k×k blocks at every call (zeros included), to keep the pattern. */
  override addGeometricStiffness(acc: MatrixAccumulator, childForce: Float64Array, kFactor: number): void {
    if (this.geometricStiffness.value === 'None') return;
    const k = this.k,
      H = this.H,
      x = this.from.x;
    for (let e = 0; e < this.elements.length / k; e++) {
      const s = this.scale(e, childForce, kFactor);
      for (let i = 0; i < k; i++) this.verts[i] = this.elements[e * k + i];
      if (s !== 0) this.hessian(x, this.verts, H);
      else H.fill(0);
      for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) addBlock3(acc, 3 * this.verts[i], 3 * this.verts[j], H, 9 * (i * k + j), s);
    }
  }
}
