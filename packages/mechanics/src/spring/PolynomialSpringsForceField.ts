import {
  BaseForceField,
  Bool,
  contextMechanicalState,
  Indices,
  Int,
  isMechanicalState,
  Real,
  RealArray,
  sofaComponent,
  type BaseMechanicalState,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { StrainPolynomials } from './polynomial.js';

/**
 * SOFA's PolynomialSpringsForceField: springs between firstObjectPoints of object1 and
 * secondObjectPoints of object2 (all points by default) with a polynomial law of the strain.
 * For spring i of length l (u = p_b − p_a, û = u/l) and rest length l0 (the length at the first
 * force evaluation with computeZeroLength = 1, else zeroLength):
 *   s = |l − l0|/l0,   F = p_i(s) when l ≥ l0, −p_i(s) when compressed if `compressible`, else 0,
 *   f_a += F·û,  f_b −= F·û,
 *   ∂f_a/∂p_b = (dF/dl − F/l)·û·ûᵀ + (F/l)·I,  dF/dl = p_i′(s)/l0 (0 when F is switched off).
 * That K is the exact derivative; SOFA uses p_i in place of F (the same when stretched).
 */
@sofaComponent({
  name: 'PolynomialSpringsForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Springs between two objects with a polynomial force-strain law.',
  templates: ['Vec3d', 'Vec1d'],
})
export class PolynomialSpringsForceField extends BaseForceField {
  readonly firstObjectPoints = this.initData({
    name: 'firstObjectPoints',
    type: Indices,
    default: new Uint32Array(0),
    help: 'points related to the first object (default: all)',
  });
  readonly secondObjectPoints = this.initData({
    name: 'secondObjectPoints',
    type: Indices,
    default: new Uint32Array(0),
    help: 'points related to the second object (default: all)',
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
  readonly computeZeroLength = this.initData({
    name: 'computeZeroLength',
    type: Int,
    default: 1,
    help: '1: the rest lengths are the lengths at the first evaluation; else zeroLength',
  });
  readonly zeroLength = this.initData({
    name: 'zeroLength',
    type: RealArray(1),
    default: new Float64Array(0),
    unit: 'm',
    help: 'rest lengths of the springs (one value for all, or one per spring)',
  });
  readonly recomputeIndices = this.initData({
    name: 'recompute_indices',
    type: Bool,
    default: false,
    help: 'recompute indices (accepted; the indices are read at init)',
  });
  readonly compressible = this.initData({
    name: 'compressible',
    type: Bool,
    default: false,
    help: 'if true a compressed spring pushes back (−p(s)), else it exerts nothing',
  });
  readonly drawMode = this.initData({
    name: 'drawMode',
    type: Int,
    default: 0,
    help: 'the way springs are drawn: 0 line, 1 cylinder, 2 arrow',
    group: 'Visualization',
  });
  readonly showArrowSize = this.initData({
    name: 'showArrowSize',
    type: Real,
    default: 0.01,
    help: 'size of the axis',
    group: 'Visualization',
  });
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

  readonly object1 = this.initLink({
    name: 'object1',
    help: 'first object in interaction (default: the state of this node)',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
    aliases: ['mstate1'],
  });
  readonly object2 = this.initLink({
    name: 'object2',
    help: 'second object in interaction (default: object1)',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
    aliases: ['mstate2'],
  });

  private states: BaseMechanicalState[] = [];
  private readonly poly = new StrainPolynomials();
  private ia = new Uint32Array(0);
  private ib = new Uint32Array(0);
  /** Rest lengths (NaN until the first evaluation with computeZeroLength), (m). */
  private rest = new Float64Array(0);
  /** ∂f_a/∂p_b per spring, (m × N²). */
  private blocks = new Float64Array(0);
  private N = 3;
  private readonly pv = new Float64Array(2);
  private readonly u = new Float64Array(3);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  override init(): void {
    const s1 = this.object1.get() ?? contextMechanicalState(this.context);
    if (!s1) throw this.error('no mechanical state: set object1 or put a MechanicalObject in the node');
    const s2 = this.object2.get() ?? s1;
    this.object1.set(s1);
    this.object2.set(s2);
    this.states = s1 === s2 ? [s1] : [s1, s2];
    if (!this.template) this.template = s1.stateType.name;
    if (s1.stateType !== s2.stateType || s1.stateType.isRigid)
      throw this.error(`object1 and object2 need one Vec template, got ${s1.stateType.name} and ${s2.stateType.name}`);
    this.N = s1.stateType.derivSize;
  }

  override bwdInit(): void {
    const s1 = this.object1.get()!,
      s2 = this.object2.get()!;
    this.ia =
      this.firstObjectPoints.value.length > 0
        ? Uint32Array.from(this.firstObjectPoints.value)
        : Uint32Array.from({ length: s1.size }, (_, i) => i);
    this.ib =
      this.secondObjectPoints.value.length > 0
        ? Uint32Array.from(this.secondObjectPoints.value)
        : Uint32Array.from({ length: s2.size }, (_, i) => i);
    if (this.ia.length > this.ib.length) throw this.error(`${this.ia.length} first points for ${this.ib.length} second points`);
    for (const i of this.ia) if (i >= s1.size) throw this.error(`first point ${i} is out of range: ${s1.describe()} has ${s1.size} points`);
    for (const i of this.ib)
      if (i >= s2.size) throw this.error(`second point ${i} is out of range: ${s2.describe()} has ${s2.size} points`);
    const m = this.ia.length;
    this.poly.set(this, this.polynomialStiffness.value, this.polynomialDegree.value, m);
    const z = this.zeroLength.value;
    this.rest = Float64Array.from({ length: m }, (_, i) => (this.computeZeroLength.value === 1 ? NaN : z.length > 1 ? z[i] : (z[0] ?? 1)));
    this.blocks = new Float64Array(m * this.N * this.N);
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const f1 = f[0],
      f2 = f[f.length - 1],
      x1 = x[0],
      x2 = x[x.length - 1],
      N = this.N,
      u = this.u,
      B = this.blocks;
    const compressible = this.compressible.value;
    for (let i = 0; i < this.ia.length; i++) {
      const a = this.ia[i] * N,
        b = this.ib[i] * N;
      let l2 = 0;
      for (let k = 0; k < N; k++) {
        u[k] = x2[b + k] - x1[a + k];
        l2 += u[k] ** 2;
      }
      const l = Math.sqrt(l2);
      if (Number.isNaN(this.rest[i])) this.rest[i] = l;
      const l0 = this.rest[i];
      for (let k = 0; k < N; k++) u[k] = u[k] / l;
      this.poly.eval(i, Math.abs(l - l0) / l0, this.pv);
      const sign = l - l0 >= 0 ? 1 : compressible ? -1 : 0;
      // F = sign·p(s),  dF/dl = p′(s)/l0 (sign ≠ 0)
      const F = sign * this.pv[0],
        dF = sign !== 0 ? this.pv[1] / l0 : 0;
      for (let k = 0; k < N; k++) {
        f1[a + k] += F * u[k];
        f2[b + k] -= F * u[k];
      }
      const o = i * N * N;
      for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) B[o + r * N + c] = (dF - F / l) * u[r] * u[c] + (r === c ? F / l : 0);
    }
  }

  /** df_a += k·m·(dx_b − dx_a), df_b −= the same. */
  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const d1 = df[0],
      d2 = df[df.length - 1],
      x1 = dx[0],
      x2 = dx[dx.length - 1],
      N = this.N,
      B = this.blocks,
      k = this.kFactorWithRayleigh(kFactor, bFactor);
    for (let i = 0; i < this.ia.length; i++) {
      const a = this.ia[i] * N,
        b = this.ib[i] * N,
        o = i * N * N;
      for (let r = 0; r < N; r++) {
        let s = 0;
        for (let c = 0; c < N; c++) s += B[o + r * N + c] * (x2[b + c] - x1[a + c]);
        d1[a + r] += k * s;
        d2[b + r] -= k * s;
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const N = this.N,
      B = this.blocks,
      off2 = this.states.length === 2 ? this.states[0].size * N : 0;
    for (let i = 0; i < this.ia.length; i++) {
      const a = this.ia[i] * N,
        b = off2 + this.ib[i] * N,
        o = i * N * N;
      for (let r = 0; r < N; r++) {
        for (let c = 0; c < N; c++) {
          const v = kFactor * B[o + r * N + c];
          acc.add(a + r, a + c, -v);
          acc.add(a + r, b + c, v);
          acc.add(b + r, a + c, v);
          acc.add(b + r, b + c, -v);
        }
      }
    }
  }
}
