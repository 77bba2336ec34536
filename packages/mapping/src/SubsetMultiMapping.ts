import { Indices, sofaComponent, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MultiMappingComponent } from './multi-mapping-component.js';

const templates = ['Vec3d,Vec3d', 'Vec2d,Vec2d', 'Vec1d,Vec1d', 'Rigid3d,Rigid3d', 'Rigid3d,Vec3d'];

/**
 * SOFA's SubsetMultiMapping: output point k is point p_k of input s_k, with
 * `indexPairs` = (s_0 p_0  s_1 p_1  …),
 *   x_out[k] = x_in_{s_k}[p_k],   J_i = selection rows (a 1 at (k·dOut + r, p_k·dIn + r) when s_k = i).
 * Rigid3d → Vec3d keeps the centre (coordinates) and the linear velocity (derivatives).
 * The output is resized to the number of pairs at init. Linear: the J_i are built once.
 */
@sofaComponent({
  name: 'SubsetMultiMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.Linear',
  description: 'Picks output points among the points of several input states (index pairs).',
  templates,
})
export class SubsetMultiMapping extends MultiMappingComponent {
  readonly indexPairs = this.initData({
    name: 'indexPairs',
    type: Indices,
    default: new Uint32Array(0),
    help: 'list of couples (parent index + index in the parent)',
  });

  /** (nOut) input of each output point and its point in that input. */
  private src = new Uint32Array(0);
  private pt = new Uint32Array(0);
  private Js: CsrMatrix[] = [];
  /** Coordinate / derivative sizes of input and output. */
  private cIn = 3;
  private cOut = 3;
  private dIn = 3;
  private dOut = 3;

  override init(): void {
    this.resolveEnds(1);
    this.checkTemplates(templates);
    this.cIn = this.inType().coordSize;
    this.cOut = this.outType().coordSize;
    this.dIn = this.inType().derivSize;
    this.dOut = this.outType().derivSize;
    const pairs = this.indexPairs.value;
    if (pairs.length % 2 !== 0) throw this.error(`indexPairs has ${pairs.length} numbers, expected pairs (input index, point index)`);
    const n = pairs.length / 2;
    this.src = new Uint32Array(n);
    this.pt = new Uint32Array(n);
    for (let k = 0; k < n; k++) {
      const s = pairs[2 * k],
        p = pairs[2 * k + 1];
      if (s >= this.froms.length) throw this.error(`pair ${k} names input ${s}, but there are ${this.froms.length} inputs`);
      if (p >= this.froms[s].size)
        throw this.error(`pair ${k} names point ${p} of ${this.froms[s].describe()}, which has ${this.froms[s].size} points`);
      this.src[k] = s;
      this.pt[k] = p;
    }
    this.resizeOutput(n);
    const dOut = this.dOut,
      dIn = this.dIn;
    this.Js = this.froms.map((s, i) => {
      const rowPtr = new Int32Array(n * dOut + 1);
      const cols: number[] = [];
      for (let k = 0; k < n; k++) {
        for (let r = 0; r < dOut; r++) {
          if (this.src[k] === i) cols.push(this.pt[k] * dIn + r);
          rowPtr[k * dOut + r + 1] = cols.length;
        }
      }
      return createCsr(n * dOut, s.size * dIn, rowPtr, Int32Array.from(cols), new Float64Array(cols.length).fill(1));
    });
    this.initialApply();
  }

  get isLinear(): boolean {
    return true;
  }

  protected mapPositions(out: Float64Array, ins: readonly Float64Array[]): void {
    const cIn = this.cIn,
      cOut = this.cOut;
    for (let k = 0; k < this.src.length; k++) {
      const x = ins[this.src[k]];
      const o = this.pt[k] * cIn;
      for (let r = 0; r < cOut; r++) out[k * cOut + r] = x[o + r];
    }
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const dIn = this.dIn,
      dOut = this.dOut;
    for (let k = 0; k < this.src.length; k++) {
      const v = ins[this.src[k]];
      const o = this.pt[k] * dIn;
      for (let r = 0; r < dOut; r++) out[k * dOut + r] = v[o + r];
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const dIn = this.dIn,
      dOut = this.dOut;
    for (let k = 0; k < this.src.length; k++) {
      const f = ins[this.src[k]];
      const o = this.pt[k] * dIn;
      for (let r = 0; r < dOut; r++) f[o + r] += out[k * dOut + r];
    }
  }

  getJ(input: number): SparseMatrixLike {
    return this.Js[input];
  }
}
