import { IndexArray, Real, RealArray, sofaComponent, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from './mapping-component.js';

const templates = ['Vec3d,Vec3d', 'Vec2d,Vec2d', 'Vec1d,Vec1d'];

/**
 * The Compliant plugin's DifferenceMapping: for each pair (a, b) of `pairs`, the difference of two
 * points of the input state,
 *   x_out[k] = x_in[b_k] − x_in[a_k],   J = (−I at a_k, +I at b_k) per pair (an empty row when a = b).
 * Relative coordinates on which a stiffness or a compliance acts (a spring of rest length zero,
 * a hard attachment of two points). The output is resized to the number of pairs at init.
 * Linear: J is built once.
 */
@sofaComponent({
  name: 'DifferenceMapping',
  category: 'Mapping',
  module: 'Compliant',
  description: 'Differences of pairs of points of one state (x_b − x_a).',
  templates,
})
export class DifferenceMapping extends MappingComponent {
  readonly pairs = this.initData({
    name: 'pairs',
    type: IndexArray(2, 'vector<Vec2u>'),
    default: new Uint32Array(0),
    help: 'index pairs (a b) for computing the differences x_b − x_a',
  });
  readonly showObjectScale = this.initData({
    name: 'showObjectScale',
    type: Real,
    default: -1,
    help: 'scale for object display (negative: not drawn)',
    group: 'Visualization',
  });
  readonly showColor = this.initData({
    name: 'showColor',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(1, 1, 0, 1),
    help: 'color for object display',
    group: 'Visualization',
  });

  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  /** (nOut × 2) the pairs as read at init. */
  private p = new Uint32Array(0);
  private d = 3;

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(templates);
    this.d = this.inType().derivSize;
    const p = this.pairs.value;
    const n = p.length / 2;
    if (n === 0) throw this.error('no pairs given', 'set pairs="a0 b0  a1 b1 ..."');
    const nIn = this.from.size;
    for (let k = 0; k < p.length; k++) {
      if (p[k] >= nIn) throw this.error(`pair ${k >> 1} names point ${p[k]}, but the input has ${nIn} points`);
    }
    this.resizeOutput(n);
    // Row k·d + r: −1 at column a·d + r and +1 at b·d + r, in increasing column order.
    const d = this.d;
    const rowPtr = new Int32Array(n * d + 1);
    const cols: number[] = [];
    const vals: number[] = [];
    for (let k = 0; k < n; k++) {
      const a = p[2 * k],
        b = p[2 * k + 1];
      for (let r = 0; r < d; r++) {
        if (a < b) (cols.push(a * d + r, b * d + r), vals.push(-1, 1));
        else if (b < a) (cols.push(b * d + r, a * d + r), vals.push(1, -1));
        rowPtr[k * d + r + 1] = cols.length;
      }
    }
    this.J = createCsr(n * d, nIn * d, rowPtr, Int32Array.from(cols), Float64Array.from(vals));
    this.p = Uint32Array.from(p);
    this.apply();
    const out = this.getTo();
    if (out) this.applyJ(out.v, [this.from.v]);
    if (this.applyRestPosition.value && out) this.differences(out.x0, this.from.x0);
  }

  get isLinear(): boolean {
    return true;
  }

  /** out[k] = in[b_k] − in[a_k] (coordinates and derivatives have the same layout for Vec types). */
  private differences(out: Float64Array, inp: Float64Array): void {
    const p = this.p;
    const d = this.d;
    for (let k = 0; k < p.length / 2; k++) {
      const a = p[2 * k] * d,
        b = p[2 * k + 1] * d;
      for (let r = 0; r < d; r++) out[k * d + r] = inp[b + r] - inp[a + r];
    }
  }

  apply(): void {
    this.differences(this.outputPositions(), this.from.x);
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    this.differences(out, ins[0]);
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const f = ins[0];
    const p = this.p;
    const d = this.d;
    for (let k = 0; k < p.length / 2; k++) {
      const a = p[2 * k],
        b = p[2 * k + 1];
      if (a === b) continue;
      for (let r = 0; r < d; r++) {
        f[a * d + r] -= out[k * d + r];
        f[b * d + r] += out[k * d + r];
      }
    }
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }
}
