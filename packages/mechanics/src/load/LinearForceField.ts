import { Indices, isTopology, Real, RealArray, sofaComponent, type MatrixAccumulator, SingleStateForceField } from '@sofa-ts/core';

/**
 * SOFA's LinearForceField: a force interpolated linearly in time between key forces F_k at key
 * times t_k, applied to every point of `points`. At the context time t:
 *   t < t_0: nothing;  t_k ≤ t < t_{k+1}: f = force·(F_k + (F_{k+1} − F_k)·(t − t_k)/(t_{k+1} − t_k));
 *   t ≥ t_last: f = F_last (SOFA does not scale this last one by `force`).
 * K = 0.
 */
@sofaComponent({
  name: 'LinearForceField',
  category: 'ForceField',
  module: 'Sofa.Component.MechanicalLoad',
  description: 'Force interpolated linearly between key forces at key times, applied to given points.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d', 'Rigid3d'],
})
export class LinearForceField extends SingleStateForceField {
  readonly points = this.initData({
    name: 'points',
    type: Indices,
    default: new Uint32Array(0),
    help: 'points where the force is applied',
  });
  readonly force = this.initData({
    name: 'force',
    type: Real,
    default: 1,
    help: 'scale of the interpolated force (applied force to all points)',
  });
  readonly times = this.initData({
    name: 'times',
    type: RealArray(1),
    default: new Float64Array(0),
    unit: 's',
    help: 'key times for the interpolation, increasing',
  });
  readonly forces = this.initData({
    name: 'forces',
    type: RealArray(0, 'vector<Deriv>'),
    default: new Float64Array(0),
    unit: 'N',
    help: 'forces at the key times (one Deriv each)',
  });
  readonly arrowSizeCoef = this.initData({
    name: 'arrowSizeCoef',
    type: Real,
    default: 0,
    help: 'size of the drawn arrows (0: no arrows, sign: direction of drawing)',
    group: 'Visualization',
  });

  readonly topology = this.initLink({
    name: 'topology',
    help: 'link to the topology container (accepted)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  private d = 3;
  /** The force at the current time, (d). */
  private target = new Float64Array(3);

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    this.d = s.stateType.derivSize;
    const t = this.times.value,
      F = this.forces.value;
    if (F.length !== t.length * this.d)
      throw this.error(`'forces' needs ${this.d} numbers per key time (${t.length} key times), got ${F.length}`);
    for (let k = 1; k < t.length; k++) if (!(t[k] > t[k - 1])) throw this.error(`'times' must increase, got ${t[k - 1]} then ${t[k]}`);
    for (const i of this.points.value)
      if (i >= s.size) throw this.error(`point ${i} is out of range: ${s.describe()} has ${s.size} points`);
    this.target = new Float64Array(this.d);
  }

  /** The force at time `time` into this.target; false before the first key time. */
  forceAt(time: number): boolean {
    const t = this.times.value,
      F = this.forces.value,
      d = this.d;
    if (t.length === 0 || time < t[0]) return false;
    const last = t.length - 1;
    if (time >= t[last]) {
      for (let c = 0; c < d; c++) this.target[c] = F[last * d + c];
      return true;
    }
    let k = 0;
    while (t[k + 1] <= time) k++;
    const a = (time - t[k]) / (t[k + 1] - t[k]),
      s = this.force.value;
    for (let c = 0; c < d; c++) this.target[c] = s * (F[k * d + c] + (F[(k + 1) * d + c] - F[k * d + c]) * a);
    return true;
  }

  addForce(f: readonly Float64Array[], _x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    if (!this.forceAt(this.context.getTime())) return;
    const out = f[0],
      d = this.d;
    for (const i of this.points.value) for (let c = 0; c < d; c++) out[i * d + c] += this.target[c];
  }

  addDForce(_df: readonly Float64Array[], _dx: readonly Float64Array[], _kFactor: number, _bFactor: number): void {}

  addKToMatrix(_acc: MatrixAccumulator, _kFactor: number): void {}
}
