import {
  Bool,
  Indices,
  isMechanicalState,
  Real,
  RealArray,
  sofaComponent,
  type MatrixAccumulator,
  SingleStateForceField,
} from '@sofa-ts/core';
import { StrainPolynomials } from './polynomial.js';

/**
 * SOFA's PolynomialRestShapeSpringsForceField: each point of `points` (all by default) is pulled
 * to its rest position (the state's rest position, or the position of `external_points` of
 * external_rest_shape) by a polynomial law of the strain. With d = x − x0, r = |d|,
 * s = r/L0 (L0 = initialLength, one value or one per point), e = exp(smoothShift − smoothScale·r²)
 * and the smoothed length D = √(r² + e):
 *   f = −p_i(s)·d/D,
 *   K = −( p_i′(s)/(L0·r·D)·d·dᵀ + p_i(s)/D·I − p_i(s)·(1 − smoothScale·e)/D³·d·dᵀ ),
 * the exact derivative (SOFA keeps a diagonal approximation of it). An external rest shape is
 * read as a moving target: it receives no force.
 */
@sofaComponent({
  name: 'PolynomialRestShapeSpringsForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Springs pulling points to their rest positions with a polynomial force-strain law.',
  templates: ['Vec3d', 'Vec1d'],
})
export class PolynomialRestShapeSpringsForceField extends SingleStateForceField {
  readonly points = this.initData({
    name: 'points',
    type: Indices,
    default: new Uint32Array(0),
    help: 'points controlled by the rest shape springs (default: all)',
  });
  readonly externalPoints = this.initData({
    name: 'external_points',
    type: Indices,
    default: new Uint32Array(0),
    help: 'points of the external rest shape (default: all)',
  });
  readonly polynomialStiffness = this.initData({
    name: 'polynomialStiffness',
    type: RealArray(1),
    default: new Float64Array(0),
    unit: 'N',
    help: 'coefficients of all the spring polynomials (default: 100, one linear polynomial)',
  });
  readonly polynomialDegree = this.initData({
    name: 'polynomialDegree',
    type: Indices,
    default: new Uint32Array(0),
    help: 'degree of each polynomial (default: 1)',
  });
  readonly recomputeIndices = this.initData({
    name: 'recompute_indices',
    type: Bool,
    default: false,
    help: 'recompute indices (accepted; the indices are read at init)',
  });
  readonly drawSpring = this.initData({ name: 'drawSpring', type: Bool, default: false, help: 'draw the springs', group: 'Visualization' });
  readonly springColor = this.initData({
    name: 'springColor',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(0, 1, 0, 1),
    help: 'spring color',
    group: 'Visualization',
  });
  readonly showIndicesScale = this.initData({
    name: 'showIndicesScale',
    type: Real,
    default: 0.02,
    help: 'scale for indices display',
    group: 'Visualization',
  });
  readonly initialLength = this.initData({
    name: 'initialLength',
    type: RealArray(1),
    default: new Float64Array(0),
    unit: 'm',
    help: 'initial virtual length of the springs, L0 of the strain (default: 1)',
  });
  readonly smoothShift = this.initData({
    name: 'smoothShift',
    type: Real,
    default: 0,
    help: 'denominator correction: shift of the exponential',
  });
  readonly smoothScale = this.initData({
    name: 'smoothScale',
    type: Real,
    default: 1,
    help: 'denominator correction: scale of the exponential',
  });

  readonly externalRestShape = this.initLink({
    name: 'external_rest_shape',
    help: 'rest shape given by the positions of an external mechanical state',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
  });

  private readonly poly = new StrainPolynomials();
  private ip = new Uint32Array(0);
  private iext = new Uint32Array(0);
  /** ∂f/∂x per point, (m × N²). */
  private blocks = new Float64Array(0);
  private N = 3;
  private readonly pv = new Float64Array(2);
  private readonly d = new Float64Array(3);

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.isRigid)
      throw this.error(`PolynomialRestShapeSpringsForceField needs a Vec state, ${s.describe()} is ${s.stateType.name}`);
    this.N = s.stateType.derivSize;
  }

  override bwdInit(): void {
    const s = this.states[0],
      ext = this.externalRestShape.get();
    if (ext && ext.stateType !== s.stateType)
      throw this.error(`external_rest_shape ${ext.describe()} is ${ext.stateType.name}, ${s.describe()} is ${s.stateType.name}`);
    const extSize = ext ? ext.size : s.size;
    this.ip = this.points.value.length > 0 ? Uint32Array.from(this.points.value) : Uint32Array.from({ length: s.size }, (_, i) => i);
    this.iext =
      ext && this.externalPoints.value.length > 0
        ? Uint32Array.from(this.externalPoints.value)
        : ext
          ? Uint32Array.from({ length: extSize }, (_, i) => i)
          : this.ip;
    if (this.ip.length > this.iext.length) throw this.error(`${this.ip.length} points for ${this.iext.length} rest points`);
    for (const i of this.ip) if (i >= s.size) throw this.error(`point ${i} is out of range: ${s.describe()} has ${s.size} points`);
    for (const i of this.iext) if (i >= extSize) throw this.error(`rest point ${i} is out of range (${extSize} points)`);
    this.poly.set(this, this.polynomialStiffness.value, this.polynomialDegree.value, this.ip.length);
    this.blocks = new Float64Array(this.ip.length * this.N * this.N);
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const out = f[0],
      xs = x[0],
      N = this.N,
      d = this.d,
      B = this.blocks;
    const ext = this.externalRestShape.get();
    const x0 = ext ? ext.x : this.states[0].x0;
    const L = this.initialLength.value,
      sh = this.smoothShift.value,
      sc = this.smoothScale.value;
    for (let i = 0; i < this.ip.length; i++) {
      const a = this.ip[i] * N,
        b = this.iext[i] * N;
      let r2 = 0;
      for (let k = 0; k < N; k++) {
        d[k] = xs[a + k] - x0[b + k];
        r2 += d[k] ** 2;
      }
      const r = Math.sqrt(r2),
        L0 = L.length === 0 ? 1 : L[Math.min(i, L.length - 1)];
      this.poly.eval(i, r / L0, this.pv);
      const P = this.pv[0],
        dP = this.pv[1];
      const e = Math.exp(sh - sc * r2),
        D = Math.sqrt(r2 + e);
      // f = −p(s)·d/D
      for (let k = 0; k < N; k++) out[a + k] -= (P * d[k]) / D;
      const c1 = r > 0 ? dP / (L0 * r * D) : 0,
        c2 = P / D,
        c3 = (P * (1 - sc * e)) / (D * D * D);
      const o = i * N * N;
      for (let p = 0; p < N; p++) for (let q = 0; q < N; q++) B[o + p * N + q] = -((c1 - c3) * d[p] * d[q] + (p === q ? c2 : 0));
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const out = df[0],
      d = dx[0],
      N = this.N,
      B = this.blocks,
      k = this.kFactorWithRayleigh(kFactor, bFactor);
    for (let i = 0; i < this.ip.length; i++) {
      const a = this.ip[i] * N,
        o = i * N * N;
      for (let p = 0; p < N; p++) {
        let s = 0;
        for (let q = 0; q < N; q++) s += B[o + p * N + q] * d[a + q];
        out[a + p] += k * s;
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const N = this.N,
      B = this.blocks;
    for (let i = 0; i < this.ip.length; i++) {
      const a = this.ip[i] * N,
        o = i * N * N;
      for (let p = 0; p < N; p++) for (let q = 0; q < N; q++) acc.add(a + p, a + q, kFactor * B[o + p * N + q]);
    }
  }
}
