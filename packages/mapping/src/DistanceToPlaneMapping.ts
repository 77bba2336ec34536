import { RealArray, sofaComponent, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from './mapping-component.js';

const templates = ['Vec3d,Vec1d', 'Vec2d,Vec1d', 'Vec6d,Vec1d', 'Rigid3d,Vec1d', 'Rigid2d,Vec1d'];

/**
 * SOFA's DistanceToPlaneMapping: the signed distance of every input point (a frame's centre) to
 * the plane through planePoint with unit normal n (planeNormal, normalised at init):
 *   e_i = (p_i − planePoint)·n,   J row i = nᵀ on the position part of point i (linear, constant).
 * The output has as many points as the input. A zero normal is refused.
 */
@sofaComponent({
  name: 'DistanceToPlaneMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.Linear',
  description: 'Signed distances of the points to a plane.',
  templates,
})
export class DistanceToPlaneMapping extends MappingComponent {
  readonly planeNormal = this.initData({
    name: 'planeNormal',
    type: RealArray(0, 'Deriv'),
    default: new Float64Array(0),
    help: 'normal of the plane to compute the distance to (normalised at init)',
  });
  readonly planePoint = this.initData({
    name: 'planePoint',
    type: RealArray(0, 'Coord'),
    default: new Float64Array(0),
    unit: 'm',
    help: 'a point of the plane',
  });

  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  private n = new Float64Array(3);
  private p0 = new Float64Array(3);
  private cIn = 3;
  private dIn = 3;

  get isLinear(): boolean {
    return true;
  }

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(templates);
    const t = this.inType(),
      N = t.spatialDimensions;
    this.cIn = t.coordSize;
    this.dIn = t.derivSize;
    const nv = this.planeNormal.value,
      pv = this.planePoint.value;
    if (nv.length < N) throw this.error(`'planeNormal' needs ${N} numbers for template ${t.name}, got ${nv.length}`);
    if (pv.length !== 0 && pv.length < N) throw this.error(`'planePoint' needs ${N} numbers for template ${t.name}, got ${pv.length}`);
    const len = Math.hypot(...nv.subarray(0, N));
    if (!(len > Number.EPSILON)) throw this.error(`'planeNormal' is zero`);
    this.n = Float64Array.from(nv.subarray(0, N), (v) => v / len);
    this.planeNormal.value = Float64Array.from(this.n);
    this.p0 = pv.length === 0 ? new Float64Array(N) : Float64Array.from(pv.subarray(0, N));
    const m = this.from.size;
    this.J = createCsr(
      m,
      m * this.dIn,
      Int32Array.from({ length: m + 1 }, (_, i) => i * N),
      Int32Array.from({ length: m * N }, (_, k) => Math.floor(k / N) * this.dIn + (k % N)),
      Float64Array.from({ length: m * N }, (_, k) => this.n[k % N]),
    );
    this.resizeOutput(m);
    this.apply();
    const out = this.getTo();
    if (out) this.applyJ(out.v, [this.from.v]);
    if (this.applyRestPosition.value && out) this.map(out.x0, this.from.x0);
  }

  private map(out: Float64Array, x: Float64Array): void {
    const N = this.n.length;
    for (let i = 0; i < out.length; i++) {
      let d = 0;
      for (let k = 0; k < N; k++) d += (x[i * this.cIn + k] - this.p0[k]) * this.n[k];
      out[i] = d;
    }
  }

  apply(): void {
    this.map(this.outputPositions(), this.from.x);
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const v = ins[0],
      N = this.n.length;
    for (let i = 0; i < this.J.rows; i++) {
      let d = 0;
      for (let k = 0; k < N; k++) d += v[i * this.dIn + k] * this.n[k];
      out[i] = d;
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const f = ins[0],
      N = this.n.length;
    for (let i = 0; i < this.J.rows; i++) for (let k = 0; k < N; k++) f[i * this.dIn + k] += this.n[k] * out[i];
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }
}
