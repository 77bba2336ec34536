import { isMechanicalState, sofaComponent, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from './mapping-component.js';

/**
 * SOFA's IdentityMapping: the output is a copy of the input, point by point,
 *   x_out[i] = x_in[i],   J = I (per point, the first min(dIn, dOut) derivative components).
 * The output is resized to the input's size at init, and again when the input's size changed
 * (points removed or added by a topological change). For Vec6 → Vec3 the first three components
 * are copied; for Rigid3 → Vec3 and Rigid2 → Vec2 the frames' centres (positions) and linear
 * velocities (J = [I 0] per frame: a point force goes to the centre, no torque). Linear: J is
 * built once per input size.
 */
@sofaComponent({
  name: 'IdentityMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.Linear',
  description: 'Maps the input state to an output of the same size, point by point (a copy).',
  templates: [
    'Vec3d,Vec3d',
    'Vec2d,Vec2d',
    'Vec1d,Vec1d',
    'Vec6d,Vec6d',
    'Vec6d,Vec3d',
    'Rigid3d,Rigid3d',
    'Rigid2d,Rigid2d',
    'Rigid3d,Vec3d',
    'Rigid2d,Vec2d',
  ],
})
export class IdentityMapping extends MappingComponent {
  /** (nOut·dOut × nIn·dIn) the constant Jacobian. */
  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  /** Coordinate and derivative sizes of input and output, and how many of each are copied. */
  private cIn = 3;
  private cOut = 3;
  private dIn = 3;
  private dOut = 3;
  private nc = 3;
  private nd = 3;
  /** Input size J was built for. */
  private nIn = -1;

  override init(): void {
    this.resolveEnds();
    this.checkTemplates([
      'Vec3d,Vec3d',
      'Vec2d,Vec2d',
      'Vec1d,Vec1d',
      'Vec6d,Vec6d',
      'Vec6d,Vec3d',
      'Rigid3d,Rigid3d',
      'Rigid2d,Rigid2d',
      'Rigid3d,Vec3d',
      'Rigid2d,Vec2d',
    ]);
    const tin = this.inType();
    const tout = this.outType();
    this.cIn = tin.coordSize;
    this.cOut = tout.coordSize;
    this.dIn = tin.derivSize;
    this.dOut = tout.derivSize;
    this.nc = Math.min(this.cIn, this.cOut);
    this.nd = Math.min(this.dIn, this.dOut);
    this.build();
    this.apply();
    if (isMechanicalState(this.to)) this.applyJ(this.to.v, [this.from.v]);
    if (this.applyRestPosition.value && isMechanicalState(this.to)) this.copy(this.to.x0, this.from.x0, this.cOut, this.cIn, this.nc);
  }

  /** Sizes the output to the input and builds J. */
  private build(): void {
    const n = this.from.size;
    this.nIn = n;
    this.resizeOutput(n);
    // J: row i·dOut + r has a 1 at column i·dIn + r for r < min(dIn, dOut).
    const rows = n * this.dOut;
    const rowPtr = new Int32Array(rows + 1);
    const colInd = new Int32Array(n * this.nd);
    let k = 0;
    for (let i = 0; i < n; i++) {
      for (let r = 0; r < this.dOut; r++) {
        if (r < this.nd) colInd[k++] = i * this.dIn + r;
        rowPtr[i * this.dOut + r + 1] = k;
      }
    }
    this.J = createCsr(rows, n * this.dIn, rowPtr, colInd, new Float64Array(k).fill(1));
  }

  /** A topological change resized the input: the output and J follow. */
  private followInputSize(): void {
    if (this.from.size !== this.nIn) this.build();
  }

  get isLinear(): boolean {
    return true;
  }

  private copy(out: Float64Array, inp: Float64Array, so: number, si: number, m: number): void {
    const n = Math.min(out.length / so, inp.length / si);
    for (let i = 0; i < n; i++) for (let k = 0; k < m; k++) out[i * so + k] = inp[i * si + k];
  }

  apply(): void {
    this.followInputSize();
    this.copy(this.outputPositions(), this.from.x, this.cOut, this.cIn, this.nc);
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    this.copy(out, ins[0], this.dOut, this.dIn, this.nd);
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const inp = ins[0];
    const n = Math.min(out.length / this.dOut, inp.length / this.dIn);
    for (let i = 0; i < n; i++) for (let k = 0; k < this.nd; k++) inp[i * this.dIn + k] += out[i * this.dOut + k];
  }

  getJ(_input: number): SparseMatrixLike {
    this.followInputSize();
    return this.J;
  }
}
