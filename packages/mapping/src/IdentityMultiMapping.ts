import { sofaComponent, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MultiMappingComponent } from './multi-mapping-component.js';

const templates = ['Vec1d,Vec1d', 'Vec2d,Vec2d', 'Vec3d,Vec3d', 'Rigid3d,Rigid3d'];

/**
 * SOFA's IdentityMultiMapping: the output is the concatenation of the inputs, in the order the
 * `input` link lists them,
 *   x_out = (x_in_0, x_in_1, …),   J_i = [0 … I … 0]ᵀ (rows of input i's block, columns of input i).
 * The output is resized to Σ sizes at init. Linear: the J_i are built once.
 */
@sofaComponent({
  name: 'IdentityMultiMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.Linear',
  description: 'Concatenates several mechanical states into one.',
  templates,
})
export class IdentityMultiMapping extends MultiMappingComponent {
  /** First output point of each input's block (nInputs + 1 entries). */
  private offsets = new Uint32Array(1);
  /** J_i, each (nOut·d × n_i·d). */
  private Js: CsrMatrix[] = [];
  private c = 3;
  private d = 3;

  override init(): void {
    this.resolveEnds(1);
    this.checkTemplates(templates);
    this.c = this.inType().coordSize;
    this.d = this.inType().derivSize;
    const m = this.froms.length;
    this.offsets = new Uint32Array(m + 1);
    for (let i = 0; i < m; i++) this.offsets[i + 1] = this.offsets[i] + this.froms[i].size;
    const n = this.offsets[m];
    this.resizeOutput(n);
    const d = this.d;
    this.Js = this.froms.map((s, i) => {
      // rows (off_i + j)·d + r hold a 1 at column j·d + r; the other rows are empty
      const rowPtr = new Int32Array(n * d + 1);
      const colInd = new Int32Array(s.size * d);
      const first = this.offsets[i] * d;
      for (let r = 0; r < n * d; r++) {
        const inside = r >= first && r < first + s.size * d;
        if (inside) colInd[r - first] = r - first;
        rowPtr[r + 1] = rowPtr[r] + (inside ? 1 : 0);
      }
      return createCsr(n * d, s.size * d, rowPtr, colInd, new Float64Array(s.size * d).fill(1));
    });
    this.initialApply();
  }

  get isLinear(): boolean {
    return true;
  }

  /** out = (in_0, in_1, …) with s scalars per point. */
  private concatenate(out: Float64Array, ins: readonly Float64Array[], s: number): void {
    for (let i = 0; i < ins.length; i++) {
      const v = ins[i];
      const first = this.offsets[i] * s;
      const len = (this.offsets[i + 1] - this.offsets[i]) * s;
      for (let k = 0; k < len; k++) out[first + k] = v[k];
    }
  }

  protected mapPositions(out: Float64Array, ins: readonly Float64Array[]): void {
    this.concatenate(out, ins, this.c);
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    this.concatenate(out, ins, this.d);
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const d = this.d;
    for (let i = 0; i < ins.length; i++) {
      const f = ins[i];
      const first = this.offsets[i] * d;
      const len = (this.offsets[i + 1] - this.offsets[i]) * d;
      for (let k = 0; k < len; k++) f[k] += out[first + k];
    }
  }

  getJ(input: number): SparseMatrixLike {
    return this.Js[input];
  }
}
