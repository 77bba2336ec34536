import { RealArray, sofaComponent, type StateType, SingleStateProjectiveConstraint } from '@sofa-ts/core';

/**
 * SOFA's OscillatorProjectiveConstraint: each oscillator (index i, mean m, amplitude a,
 * pulsation ω, phase φ) imposes on point i, at the context time t,
 *   x_i = m ⊕ a·sin(ωt + φ),   v_i = a·ω·cos(ωt + φ),   dx_i ← 0
 * (⊕ the template's increment: a rotation by the angular part for a Rigid3d frame).
 * `oscillators` lists index, mean (a Coord), amplitude (a Deriv), pulsation and phase per point.
 */
@sofaComponent({
  name: 'OscillatorProjectiveConstraint',
  aliases: ['OscillatorConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Apply a sinusoidal trajectory to given points.',
  templates: ['Vec3d', 'Rigid3d'],
})
export class OscillatorProjectiveConstraint extends SingleStateProjectiveConstraint {
  readonly oscillators = this.initData({
    name: 'oscillators',
    type: RealArray(0, 'vector<Oscillator>'),
    default: new Float64Array(0),
    help: 'sequence of oscillating points: index, mean (Coord), amplitude (Deriv), pulsation, phase',
  });

  private type!: StateType;
  /** Per oscillator: point, mean (coordSize), amplitude (derivSize), ω, φ. */
  private points = new Uint32Array(0);
  private means = new Float64Array(0);
  private amps = new Float64Array(0);
  private omega = new Float64Array(0);
  private phase = new Float64Array(0);
  private readonly scratch = new Float64Array(7);

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name !== 'Vec3d' && s.stateType.name !== 'Rigid3d')
      throw this.error(`SOFA has OscillatorProjectiveConstraint for Vec3d and Rigid3d, not ${s.stateType.name}`);
    const t = (this.type = s.stateType),
      cs = t.coordSize,
      ds = t.derivSize,
      w = 1 + cs + ds + 2;
    const o = this.oscillators.value;
    if (o.length % w !== 0)
      throw this.error(`'oscillators' needs ${w} numbers per point (index, mean, amplitude, pulsation, phase), got ${o.length}`);
    const n = o.length / w;
    this.points = new Uint32Array(n);
    this.means = new Float64Array(n * cs);
    this.amps = new Float64Array(n * ds);
    this.omega = new Float64Array(n);
    this.phase = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const i = o[k * w];
      if (!Number.isInteger(i) || i < 0 || i >= s.size)
        throw this.error(`oscillator ${k} names point ${i}, but ${s.describe()} has ${s.size} points`);
      this.points[k] = i;
      this.means.set(o.subarray(k * w + 1, k * w + 1 + cs), k * cs);
      this.amps.set(o.subarray(k * w + 1 + cs, k * w + 1 + cs + ds), k * ds);
      this.omega[k] = o[k * w + 1 + cs + ds];
      this.phase[k] = o[k * w + 2 + cs + ds];
    }
  }

  projectResponse(dx: Float64Array): void {
    const d = this.type.derivSize;
    for (const p of this.points) dx.fill(0, p * d, p * d + d);
  }

  /** v = a·ω·cos(ωt + φ). */
  projectVelocity(v: Float64Array): void {
    const d = this.type.derivSize,
      t = this.context.getTime();
    for (let k = 0; k < this.points.length; k++) {
      const c = this.omega[k] * Math.cos(this.omega[k] * t + this.phase[k]);
      for (let j = 0; j < d; j++) v[this.points[k] * d + j] = this.amps[k * d + j] * c;
    }
  }

  /** x = m ⊕ a·sin(ωt + φ). */
  projectPosition(x: Float64Array): void {
    const cs = this.type.coordSize,
      d = this.type.derivSize,
      t = this.context.getTime();
    for (let k = 0; k < this.points.length; k++) {
      const s = Math.sin(this.omega[k] * t + this.phase[k]);
      this.type.addDerivToCoord(this.scratch, this.means.subarray(k * cs, k * cs + cs), this.amps.subarray(k * d, k * d + d), s, 1);
      x.set(this.scratch.subarray(0, cs), this.points[k] * cs);
    }
  }

  projectedDofs(out: number[]): void {
    const d = this.type.derivSize;
    for (const p of this.points) for (let k = 0; k < d; k++) out.push(p * d + k);
  }
}
