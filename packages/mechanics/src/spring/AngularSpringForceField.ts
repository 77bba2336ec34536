import { Bool, Indices, RealArray, SingleStateForceField, sofaComponent, type MatrixAccumulator } from '@sofa-ts/core';
import { quatMultiplyConjugateAt } from '@sofa-ts/linalg';

/**
 * SOFA's AngularSpringForceField (Rigid3d): angular springs between consecutive frames of a state.
 * For each listed frame i = indices[m], m ≥ 1 (the first listed frame gets no torque), with
 * dq = q_i ⊗ q_{i−1}⁻¹ (the frame just before i in the state, as SOFA takes it) of angle θ ∈ [0, 2π)
 * about the unit axis u (u = y when θ = 0):
 *   τ_i −= k_m·θ·u      (N·m; k_m = angularStiffness[m], else angularStiffness[0]; default 100)
 * and nothing on frame i − 1 (SOFA applies no reaction). The stiffness is SOFA's: −k_m·I on the
 * rotation of every listed frame, the first one included (it neither couples frame i − 1 nor follows
 * the curvature of the angle, so it is the derivative of τ only at dq = identity with frame i − 1
 * held). `limit` is read and unused, as in SOFA; as SOFA, no potential energy (a warning, 0).
 */
@sofaComponent({
  name: 'AngularSpringForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Angular springs applied to rotational degrees of freedom of a rigid body or frame.',
  templates: ['Rigid3d'],
})
export class AngularSpringForceField extends SingleStateForceField {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'index of nodes controlled by the angular springs',
  });
  readonly angularStiffness = this.initData({
    name: 'angularStiffness',
    type: RealArray(0),
    default: new Float64Array(0),
    unit: 'N·m/rad',
    help: 'angular stiffness for the controlled nodes',
  });
  readonly limit = this.initData({
    name: 'limit',
    type: RealArray(0),
    default: new Float64Array(0),
    help: 'angular limit (max; min) values where the force applies (unused, as in SOFA)',
  });
  readonly drawSpring = this.initData({ name: 'drawSpring', type: Bool, default: false, help: 'draw Spring', group: 'Visualization' });
  readonly springColor = this.initData({
    name: 'springColor',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(0, 1, 0, 1),
    help: 'spring color',
    group: 'Visualization',
  });

  /** (n) the stiffness of each listed frame. */
  private k = new Float64Array(0);
  private readonly dq = new Float64Array(4);

  override init(): void {
    super.init();
    const s = this.states[0];
    if (s.stateType.name !== 'Rigid3d')
      throw this.error(`the state ${s.describe()} is ${s.stateType.name}; AngularSpringForceField acts on Rigid3d frames`);
    if (!this.template) this.template = 'Rigid3d';
    this.reinit();
  }

  /** k from angularStiffness (100 when empty, as SOFA), one per listed frame; indices checked. */
  reinit(): void {
    const s = this.states[0];
    if (this.angularStiffness.value.length === 0) this.angularStiffness.value = Float64Array.of(100);
    const ks = this.angularStiffness.value,
      idx = this.indices.value;
    for (const i of idx) if (i >= s.size) throw this.error(`index ${i} is out of range: ${s.describe()} has ${s.size} frames`);
    for (let m = 1; m < idx.length; m++)
      if (idx[m] === 0) throw this.error(`index 0 is listed at position ${m}: its spring would need frame −1 (SOFA reads out of bounds)`);
    this.k = Float64Array.from(idx, (_, m) => (m < ks.length ? ks[m] : ks[0]));
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const out = f[0],
      p = x[0],
      dq = this.dq;
    if (this.k.length !== this.indices.value.length) this.reinit();
    const idx = this.indices.value;
    for (let m = 1; m < idx.length; m++) {
      const i = idx[m];
      // dq = q_i ⊗ q_{i−1}⁻¹, normalised
      quatMultiplyConjugateAt(dq, 0, p, 7 * i + 3, p, 7 * (i - 1) + 3);
      const len = Math.hypot(dq[0], dq[1], dq[2], dq[3]);
      const qx = dq[0] / len,
        qy = dq[1] / len,
        qz = dq[2] / len,
        qw = dq[3] / len;
      // θ = 2·asin(|v|) near identity (acos is ill-conditioned there), else 2·acos(w)
      let sinHalf: number, angle: number;
      if (qw > 0.999999) {
        sinHalf = Math.hypot(qx, qy, qz);
        angle = 2 * Math.asin(sinHalf);
      } else {
        const half = Math.acos(qw);
        sinHalf = Math.sin(half);
        angle = 2 * half;
      }
      const o = 6 * i + 3,
        t = this.k[m] * angle;
      if (sinHalf < Number.EPSILON) {
        out[o + 1] -= t;
        continue;
      }
      out[o] -= (qx / sinHalf) * t;
      out[o + 1] -= (qy / sinHalf) * t;
      out[o + 2] -= (qz / sinHalf) * t;
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const out = df[0],
      d = dx[0],
      idx = this.indices.value;
    const kf = this.kFactorWithRayleigh(kFactor, bFactor);
    // dτ_i += kf·(−k·dθ_i)
    for (let m = 0; m < idx.length; m++) {
      const o = 6 * idx[m] + 3,
        s = kf * this.k[m];
      out[o] -= d[o] * s;
      out[o + 1] -= d[o + 1] * s;
      out[o + 2] -= d[o + 2] * s;
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const idx = this.indices.value;
    for (let m = 0; m < idx.length; m++) {
      const o = 6 * idx[m] + 3;
      for (let a = 0; a < 3; a++) acc.add(o + a, o + a, -kFactor * this.k[m]);
    }
  }

  override getPotentialEnergy(_x: readonly Float64Array[]): number {
    this.warn('the potential energy is not implemented (as in SOFA): 0 is reported');
    return 0;
  }
}
