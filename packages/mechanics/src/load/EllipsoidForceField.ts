import { Real, RealArray, sofaComponent, type MatrixAccumulator, SingleStateForceField } from '@sofa-ts/core';
import { ellipsoidContact } from './ellipsoid-contact.js';

/**
 * SOFA's EllipsoidForceField: a penalty ellipsoid (centre `center`, radii `vradius`) that pushes
 * the points out (stiffness > 0) or keeps them in (stiffness < 0); the law is ellipsoid-contact.ts's:
 *   f = −|k|·v·g/|g| − c·|v|·u,   g = (x − center) ⊙ r⁻²,  v = |(x − center) ⊘ r| − 1.
 * K is the exact derivative of the stiffness term at the points in contact at the last addForce
 * (the damping term is left out of K, as in SOFA).
 */
@sofaComponent({
  name: 'EllipsoidForceField',
  category: 'ForceField',
  module: 'Sofa.Component.MechanicalLoad',
  description: 'Repulsion of the points inside (or outside) an ellipsoid by a penalty force.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d'],
})
export class EllipsoidForceField extends SingleStateForceField {
  readonly center = this.initData({
    name: 'center',
    type: RealArray(0, 'Coord'),
    default: new Float64Array(0),
    unit: 'm',
    help: 'ellipsoid center',
  });
  readonly vradius = this.initData({
    name: 'vradius',
    type: RealArray(0, 'Coord'),
    default: new Float64Array(0),
    unit: 'm',
    help: 'ellipsoid radii',
  });
  readonly stiffness = this.initData({
    name: 'stiffness',
    type: Real,
    default: 500,
    unit: 'N/m',
    help: 'force stiffness (positive to repulse outward, negative inward)',
  });
  readonly damping = this.initData({ name: 'damping', type: Real, default: 5, help: 'force damping' });
  readonly color = this.initData({
    name: 'color',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(0, 0.5, 1, 1),
    help: 'ellipsoid color',
    group: 'Visualization',
  });

  private N = 3;
  private c = new Float64Array(3);
  private invR2 = new Float64Array(3);
  /** Points in contact at the last addForce, (count), and their N×N blocks, (size × N²). */
  private contacts = new Uint32Array(0);
  private count = 0;
  private blocks = new Float64Array(0);
  private readonly p = new Float64Array(3);
  private readonly f = new Float64Array(3);
  private readonly m = new Float64Array(9);

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    const N = (this.N = s.stateType.derivSize);
    const c = this.center.value,
      r = this.vradius.value;
    if (c.length !== 0 && c.length !== N) throw this.error(`'center' needs ${N} numbers, got ${c.length}`);
    if (r.length !== N) throw this.error(`'vradius' needs ${N} numbers, got ${r.length}`);
    if (r.some((v) => v === 0)) throw this.error(`'vradius' has a zero radius`);
    this.c = c.length === N ? Float64Array.from(c) : new Float64Array(N);
    this.invR2 = Float64Array.from(r, (v) => 1 / (v * v));
    this.contacts = new Uint32Array(s.size);
    this.blocks = new Float64Array(s.size * N * N);
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const N = this.N,
      out = f[0],
      xs = x[0],
      vs = v[0],
      n = xs.length / N;
    if (this.contacts.length < n) {
      this.contacts = new Uint32Array(n);
      this.blocks = new Float64Array(n * N * N);
    }
    this.count = 0;
    const k = this.stiffness.value,
      d = this.damping.value;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < N; j++) this.p[j] = xs[i * N + j] - this.c[j];
      if (!ellipsoidContact(N, this.p, this.invR2, k, d, vs, i * N, this.f, this.m)) continue;
      for (let j = 0; j < N; j++) out[i * N + j] += this.f[j];
      this.blocks.set(this.m.subarray(0, N * N), this.count * N * N);
      this.contacts[this.count++] = i;
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const N = this.N,
      out = df[0],
      d = dx[0],
      k = this.kFactorWithRayleigh(kFactor, bFactor),
      B = this.blocks;
    for (let q = 0; q < this.count; q++) {
      const o = this.contacts[q] * N;
      for (let r = 0; r < N; r++) {
        let s = 0;
        for (let c = 0; c < N; c++) s += B[q * N * N + r * N + c] * d[o + c];
        out[o + r] += k * s;
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const N = this.N,
      B = this.blocks;
    for (let q = 0; q < this.count; q++) {
      const o = this.contacts[q] * N;
      for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) acc.add(o + r, o + c, kFactor * B[q * N * N + r * N + c]);
    }
  }

  /** Indices of the points in contact at the last addForce. */
  get contactPoints(): number[] {
    return Array.from(this.contacts.subarray(0, this.count));
  }
}
