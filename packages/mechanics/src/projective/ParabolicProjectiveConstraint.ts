import { Indices, isTopology, Real, RealArray, sofaComponent, SingleStateProjectiveConstraint } from '@sofa-ts/core';
import { checkIndices } from './direction-projection.js';

/**
 * SOFA's ParabolicProjectiveConstraint: between BeginTime and EndTime the points follow the
 * parabola through P1, P2 and P3, travelled at a uniform speed along P1P3. In the frame with
 * origin P1, x axis along P1P3, z along P1P3 × P1P2 (P2 = (x2, y2) and P3 = (x3, 0) there), at
 * τ = (t − BeginTime)/(EndTime − BeginTime):
 *   X = x3·τ,   Y = (−y2·X² + x3·y2·X)/(x3·x2 − x2²),   x_i = P1 + X·e_x + Y·e_y
 * v_i is SOFA's forward difference (x(t + dt) − x(t))/dt; dx_i ← 0 during the motion. Outside
 * [BeginTime, EndTime] the points are free. Rigid3d: the frames' centres follow the parabola, their
 * orientations stay, their angular velocities are zeroed.
 */
@sofaComponent({
  name: 'ParabolicProjectiveConstraint',
  aliases: ['ParabolicConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Apply a parabolic trajectory to given points.',
  templates: ['Vec3d', 'Rigid3d'],
})
export class ParabolicProjectiveConstraint extends SingleStateProjectiveConstraint {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the constrained points',
  });
  readonly P1 = this.initData({
    name: 'P1',
    type: RealArray(0, 'Vec3d'),
    default: Float64Array.of(0, 0, 0),
    unit: 'm',
    help: 'first point of the parabola',
  });
  readonly P2 = this.initData({
    name: 'P2',
    type: RealArray(0, 'Vec3d'),
    default: Float64Array.of(0, 0, 0),
    unit: 'm',
    help: 'second point of the parabola',
  });
  readonly P3 = this.initData({
    name: 'P3',
    type: RealArray(0, 'Vec3d'),
    default: Float64Array.of(0, 0, 0),
    unit: 'm',
    help: 'third point of the parabola',
  });
  readonly beginTime = this.initData({ name: 'BeginTime', type: Real, default: 0, unit: 's', help: 'begin time of the motion' });
  readonly endTime = this.initData({ name: 'EndTime', type: Real, default: 0, unit: 's', help: 'end time of the motion' });

  readonly topology = this.initLink({
    name: 'topology',
    help: 'link to the topology container (accepted)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  private points = new Uint32Array(0);
  private cs = 3;
  private ds = 3;
  /** The parabola's frame (e_x, e_y) and P2, P3 in it. */
  private readonly ex = new Float64Array(3);
  private readonly ey = new Float64Array(3);
  private x2 = 0;
  private y2 = 0;
  private x3 = 0;
  private readonly p = new Float64Array(3);
  private readonly q = new Float64Array(3);

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    this.cs = s.stateType.coordSize;
    this.ds = s.stateType.derivSize;
    for (const [d, n] of [
      [this.P1, 'P1'],
      [this.P2, 'P2'],
      [this.P3, 'P3'],
    ] as const)
      if (d.value.length !== 3) throw this.error(`'${n}' needs 3 numbers, got ${d.value.length}`);
    checkIndices(this.indices.value, s.size, s.describe(), (m) => this.error(m));
    this.points = Uint32Array.from(new Set(this.indices.value));
    const P1 = this.P1.value,
      P2 = this.P2.value,
      P3 = this.P3.value;
    const a = [0, 1, 2].map((k) => P2[k] - P1[k]),
      b = [0, 1, 2].map((k) => P3[k] - P1[k]);
    const z = [b[1] * a[2] - b[2] * a[1], b[2] * a[0] - b[0] * a[2], b[0] * a[1] - b[1] * a[0]];
    const y = [z[1] * b[2] - z[2] * b[1], z[2] * b[0] - z[0] * b[2], z[0] * b[1] - z[1] * b[0]];
    const lb = Math.hypot(...b),
      ly = Math.hypot(...y);
    if (!(lb > 0 && ly > 0)) throw this.error('P1, P2 and P3 must be three distinct points not on one line');
    for (let k = 0; k < 3; k++) {
      this.ex[k] = b[k] / lb;
      this.ey[k] = y[k] / ly;
    }
    const dot = (u: ArrayLike<number>, v: number[]): number => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    this.x2 = dot(this.ex, a);
    this.y2 = dot(this.ey, a);
    this.x3 = lb;
  }

  private active(t: number): boolean {
    return t >= this.beginTime.value && t <= this.endTime.value;
  }

  /** The point of the parabola at time t into out (3). */
  private at(out: Float64Array, t: number): void {
    const tau = (t - this.beginTime.value) / (this.endTime.value - this.beginTime.value);
    const X = this.x3 * tau,
      x2 = this.x2,
      den = this.x3 * x2 - x2 * x2;
    const Y = (-this.y2 / den) * X * X + ((this.x3 * this.y2) / den) * X;
    for (let k = 0; k < 3; k++) out[k] = this.P1.value[k] + X * this.ex[k] + Y * this.ey[k];
  }

  projectResponse(dx: Float64Array): void {
    if (!this.active(this.context.getTime())) return;
    for (const p of this.points) dx.fill(0, p * this.ds, p * this.ds + this.ds);
  }

  projectVelocity(v: Float64Array): void {
    const t = this.context.getTime(),
      dt = this.context.getDt();
    if (!this.active(t)) return;
    this.at(this.p, t);
    this.at(this.q, t + dt);
    // a frame's angular velocity is zeroed
    for (const p of this.points) for (let k = 0; k < this.ds; k++) v[p * this.ds + k] = k < 3 ? (this.q[k] - this.p[k]) / dt : 0;
  }

  projectPosition(x: Float64Array): void {
    const t = this.context.getTime();
    if (!this.active(t)) return;
    this.at(this.p, t);
    for (const p of this.points) for (let k = 0; k < 3; k++) x[p * this.cs + k] = this.p[k];
  }

  projectedDofs(out: number[]): void {
    if (!this.active(this.context.getTime())) return;
    for (const p of this.points) for (let k = 0; k < this.ds; k++) out.push(p * this.ds + k);
  }
}
