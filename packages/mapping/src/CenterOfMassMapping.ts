import { isMass, sofaComponent, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from './mapping-component.js';

const templates = ['Rigid3d,Vec3d', 'Rigid2d,Vec2d'];

/**
 * SOFA's CenterOfMassMapping: one output point, the centre of mass of the input frames,
 *   x_out = Σ m_i·c_i / M,   J = [m_0/M·I 0 … m_i/M·I 0 …] (the frames' translations; linear),
 * with m_i the mass of frame i from the mass of the input's node (its lumped translational mass:
 * the row sums of M on the x dofs) and M = Σ m_i, computed at init. A missing mass is an error.
 */
@sofaComponent({
  name: 'CenterOfMassMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.Linear',
  description: 'The centre of mass of rigid frames, weighted by their masses.',
  templates,
})
export class CenterOfMassMapping extends MappingComponent {
  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  /** m_i/M per frame, (n). */
  private w = new Float64Array(0);
  private N = 3;
  private cIn = 7;
  private dIn = 6;

  get isLinear(): boolean {
    return true;
  }

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(templates);
    const t = this.inType(),
      n = this.from.size;
    this.N = t.spatialDimensions;
    this.cIn = t.coordSize;
    this.dIn = t.derivSize;
    const node = this.from.context;
    const mass = node.getObject(isMass, 'local');
    if (!mass) throw this.error(`no mass in the node of ${this.from.describe()}: CenterOfMassMapping weighs the frames by their masses`);
    // m_i = (M·e)_{x of frame i}, e = 1 on every frame's first translation dof
    const e = new Float64Array(n * this.dIn),
      me = new Float64Array(n * this.dIn);
    for (let i = 0; i < n; i++) e[i * this.dIn] = 1;
    mass.addMDx(me, e, 1);
    let total = 0;
    for (let i = 0; i < n; i++) total += me[i * this.dIn];
    if (!(total > 0)) throw this.error(`the total mass of ${this.from.describe()} is ${total}`);
    this.w = Float64Array.from({ length: n }, (_, i) => me[i * this.dIn] / total);
    const N = this.N;
    this.J = createCsr(
      N,
      n * this.dIn,
      Int32Array.from({ length: N + 1 }, (_, r) => r * n),
      Int32Array.from({ length: N * n }, (_, k) => (k % n) * this.dIn + Math.floor(k / n)),
      Float64Array.from({ length: N * n }, (_, k) => this.w[k % n]),
    );
    this.resizeOutput(1);
    this.apply();
    const out = this.getTo();
    if (out) this.applyJ(out.v, [this.from.v]);
    if (this.applyRestPosition.value && out) this.combine(out.x0, this.from.x0, this.cIn);
  }

  /** The frames' mass-weighted mean of the first N scalars (stride `stride`). */
  get weights(): Float64Array {
    return this.w;
  }

  private combine(out: Float64Array, x: Float64Array, stride: number): void {
    for (let k = 0; k < this.N; k++) {
      let s = 0;
      for (let i = 0; i < this.w.length; i++) s += this.w[i] * x[i * stride + k];
      out[k] = s;
    }
  }

  apply(): void {
    this.combine(this.outputPositions(), this.from.x, this.cIn);
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    this.combine(out, ins[0], this.dIn);
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const f = ins[0];
    for (let i = 0; i < this.w.length; i++) for (let k = 0; k < this.N; k++) f[i * this.dIn + k] += this.w[i] * out[k];
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }
}
