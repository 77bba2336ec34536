import { Enum, sofaComponent, type MatrixAccumulator, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from './mapping-component.js';

const templates = ['Vec1d,Vec1d'];

/**
 * SOFA's SquareMapping: each scalar squared, x_out,i = x_i²,  J = diag(2·x_i),
 * geometric stiffness for the child force λ: ∂(Jᵀλ)/∂x = diag(2·λ_i) (`geometricStiffness`
 * None or Exact, SOFA's default). The output has as many points as the input.
 */
@sofaComponent({
  name: 'SquareMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.NonLinear',
  description: 'Squares of scalar values (x → x²).',
  templates,
})
export class SquareMapping extends MappingComponent {
  readonly geometricStiffness = this.initData({
    name: 'geometricStiffness',
    type: Enum(['None', 'Exact']),
    default: 'Exact',
    help: 'method used to compute the geometric stiffness: None (not computed) or Exact',
  });

  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));

  get isLinear(): boolean {
    return false;
  }

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(templates);
    const n = this.from.size;
    this.J = createCsr(
      n,
      n,
      Int32Array.from({ length: n + 1 }, (_, i) => i),
      Int32Array.from({ length: n }, (_, i) => i),
    );
    this.resizeOutput(n);
    this.apply();
    const out = this.getTo();
    if (out) this.applyJ(out.v, [this.from.v]);
    if (this.applyRestPosition.value && out) for (let i = 0; i < n; i++) out.x0[i] = this.from.x0[i] ** 2;
  }

  apply(): void {
    const x = this.from.x,
      out = this.outputPositions(),
      J = this.J.values;
    for (let i = 0; i < J.length; i++) {
      out[i] = x[i] * x[i];
      J[i] = 2 * x[i];
    }
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const v = ins[0],
      J = this.J.values;
    for (let i = 0; i < J.length; i++) out[i] = J[i] * v[i];
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const f = ins[0],
      J = this.J.values;
    for (let i = 0; i < J.length; i++) f[i] += J[i] * out[i];
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }

  override applyDJT(dfIns: readonly Float64Array[], dxIns: readonly Float64Array[], childForce: Float64Array, kFactor: number): void {
    if (this.geometricStiffness.value === 'None') return;
    const df = dfIns[0],
      dx = dxIns[0];
    for (let i = 0; i < this.J.rows; i++) df[i] += 2 * kFactor * childForce[i] * dx[i];
  }

  override addGeometricStiffness(acc: MatrixAccumulator, childForce: Float64Array, kFactor: number): void {
    if (this.geometricStiffness.value === 'None') return;
    for (let i = 0; i < this.J.rows; i++) acc.add(i, i, 2 * kFactor * childForce[i]);
  }
}
