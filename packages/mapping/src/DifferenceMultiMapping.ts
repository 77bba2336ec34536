import { IndexArray, sofaComponent, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MultiMappingComponent } from './multi-mapping-component.js';

const templates = ['Vec3d,Vec3d', 'Vec2d,Vec2d', 'Vec1d,Vec1d'];

/**
 * The Compliant plugin's DifferenceMultiMapping: for each pair (a, b) of `pairs`, point b of the
 * second input minus point a of the first,
 *   x_out[k] = x_B[b_k] − x_A[a_k],   J_A = −I at (k, a_k),   J_B = +I at (k, b_k).
 * Without pairs, when both inputs have the same size, every point is paired with its namesake
 * (a_k = b_k = k). The output is resized to the number of pairs at init. Linear.
 */
@sofaComponent({
  name: 'DifferenceMultiMapping',
  category: 'Mapping',
  module: 'Compliant',
  description: 'Differences between points of two states (x_B[b] − x_A[a]).',
  templates,
})
export class DifferenceMultiMapping extends MultiMappingComponent {
  readonly pairs = this.initData({
    name: 'pairs',
    type: IndexArray(2, 'vector<Vec2u>'),
    default: new Uint32Array(0),
    help: 'index pairs (a b): point a of the first input, point b of the second',
  });

  private Js: CsrMatrix[] = [];
  /** (nOut × 2) the pairs as read (or generated) at init. */
  private p = new Uint32Array(0);
  private d = 3;

  override init(): void {
    this.resolveEnds(2);
    if (this.froms.length !== 2) throw this.error(`${this.froms.length} inputs given, expected 2 (input="@A @B")`);
    this.checkTemplates(templates);
    this.d = this.inType().derivSize;
    const [A, B] = this.froms as [typeof this.to, typeof this.to];
    if (this.pairs.value.length === 0 && A.size === B.size) {
      const all = new Uint32Array(2 * A.size);
      for (let j = 0; j < A.size; j++) all[2 * j] = all[2 * j + 1] = j;
      this.pairs.value = all;
    }
    const p = this.pairs.value;
    const n = p.length / 2;
    if (n === 0) throw this.error(`no pairs given and the inputs differ in size (${A.size} and ${B.size})`, 'set pairs="a0 b0  a1 b1 ..."');
    for (let k = 0; k < n; k++) {
      if (p[2 * k] >= A.size) throw this.error(`pair ${k} names point ${p[2 * k]} of ${A.describe()}, which has ${A.size} points`);
      if (p[2 * k + 1] >= B.size) throw this.error(`pair ${k} names point ${p[2 * k + 1]} of ${B.describe()}, which has ${B.size} points`);
    }
    this.p = Uint32Array.from(p);
    this.resizeOutput(n);
    // J_i: row k·d + r holds sign_i at column p_k[i]·d + r (sign −1 for A, +1 for B).
    const d = this.d;
    this.Js = [A, B].map((s, i) => {
      const rowPtr = new Int32Array(n * d + 1);
      const colInd = new Int32Array(n * d);
      for (let k = 0; k < n; k++) {
        for (let r = 0; r < d; r++) {
          colInd[k * d + r] = p[2 * k + i] * d + r;
          rowPtr[k * d + r + 1] = k * d + r + 1;
        }
      }
      return createCsr(n * d, s.size * d, rowPtr, colInd, new Float64Array(n * d).fill(i === 0 ? -1 : 1));
    });
    this.initialApply();
  }

  get isLinear(): boolean {
    return true;
  }

  /** out[k] = b[p_k[1]] − a[p_k[0]] (Vec types: coordinates and derivatives alike). */
  private differences(out: Float64Array, a: Float64Array, b: Float64Array): void {
    const p = this.p;
    const d = this.d;
    for (let k = 0; k < p.length / 2; k++) {
      const ia = p[2 * k] * d,
        ib = p[2 * k + 1] * d;
      for (let r = 0; r < d; r++) out[k * d + r] = b[ib + r] - a[ia + r];
    }
  }

  protected mapPositions(out: Float64Array, ins: readonly Float64Array[]): void {
    this.differences(out, ins[0], ins[1]);
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    this.differences(out, ins[0], ins[1]);
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const fa = ins[0],
      fb = ins[1];
    const p = this.p;
    const d = this.d;
    for (let k = 0; k < p.length / 2; k++) {
      const ia = p[2 * k] * d,
        ib = p[2 * k + 1] * d;
      for (let r = 0; r < d; r++) {
        fa[ia + r] -= out[k * d + r];
        fb[ib + r] += out[k * d + r];
      }
    }
  }

  getJ(input: number): SparseMatrixLike {
    return this.Js[input];
  }
}
