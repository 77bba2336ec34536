import { Indices, isTopology, Real, RealArray, sofaComponent, SingleStateProjectiveConstraint } from '@sofa-ts/core';
import { checkIndices } from './direction-projection.js';

/**
 * SOFA's HermiteSplineProjectiveConstraint: between BeginTime and EndTime the points follow the
 * cubic Hermite curve from X0 (tangent dX0) to X1 (tangent dX1), with a time warp: at
 * u = (t − BeginTime)/(EndTime − BeginTime), s(u) is the y component of the Hermite curve of the
 * 2D points (0, 0), (1, 1) with tangents SX0, SX1, and
 *   x_i = X0·h00(s) + dX0·h10(s) + X1·h01(s) + dX1·h11(s)   (h the cubic Hermite basis),
 *   dx_i ← 0 during the motion.
 * v_i is the time derivative dx/dt = (dx/ds)·(ds/du)/(EndTime − BeginTime); SOFA imposes dx/ds.
 */
@sofaComponent({
  name: 'HermiteSplineProjectiveConstraint',
  aliases: ['HermiteSplineConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Apply a cubic Hermite trajectory to given points.',
  templates: ['Vec3d'],
})
export class HermiteSplineProjectiveConstraint extends SingleStateProjectiveConstraint {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the constrained points',
  });
  readonly beginTime = this.initData({ name: 'BeginTime', type: Real, default: 0, unit: 's', help: 'begin time of the motion' });
  readonly endTime = this.initData({ name: 'EndTime', type: Real, default: 0, unit: 's', help: 'end time of the motion' });
  readonly X0 = this.initData({
    name: 'X0',
    type: RealArray(0, 'Vec3d'),
    default: Float64Array.of(0, 0, 0),
    unit: 'm',
    help: 'first control point',
  });
  readonly dX0 = this.initData({
    name: 'dX0',
    type: RealArray(0, 'Vec3d'),
    default: Float64Array.of(0, 0, 0),
    help: 'first control tangent',
  });
  readonly X1 = this.initData({
    name: 'X1',
    type: RealArray(0, 'Vec3d'),
    default: Float64Array.of(0, 0, 0),
    unit: 'm',
    help: 'second control point',
  });
  readonly dX1 = this.initData({
    name: 'dX1',
    type: RealArray(0, 'Vec3d'),
    default: Float64Array.of(0, 0, 0),
    help: 'second control tangent',
  });
  readonly SX0 = this.initData({
    name: 'SX0',
    type: RealArray(0, 'Vec2d'),
    default: Float64Array.of(0, 0),
    help: 'first interpolation vector (time warp)',
  });
  readonly SX1 = this.initData({
    name: 'SX1',
    type: RealArray(0, 'Vec2d'),
    default: Float64Array.of(0, 0),
    help: 'second interpolation vector (time warp)',
  });

  readonly topology = this.initLink({
    name: 'topology',
    help: 'link to the topology container (accepted)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  private points = new Uint32Array(0);

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    for (const [d, n] of [
      [this.X0, 'X0'],
      [this.dX0, 'dX0'],
      [this.X1, 'X1'],
      [this.dX1, 'dX1'],
    ] as const)
      if (d.value.length !== 3) throw this.error(`'${n}' needs 3 numbers, got ${d.value.length}`);
    for (const [d, n] of [
      [this.SX0, 'SX0'],
      [this.SX1, 'SX1'],
    ] as const)
      if (d.value.length !== 2) throw this.error(`'${n}' needs 2 numbers, got ${d.value.length}`);
    if (!(this.endTime.value > this.beginTime.value))
      throw this.error(`EndTime (${this.endTime.value}) must be after BeginTime (${this.beginTime.value})`);
    checkIndices(this.indices.value, s.size, s.describe(), (m) => this.error(m));
    this.points = Uint32Array.from(new Set(this.indices.value));
  }

  private active(t: number): boolean {
    return t >= this.beginTime.value && t <= this.endTime.value;
  }

  /** s(u) and ds/du of the time warp. */
  private warp(u: number): [number, number] {
    const u2 = u * u,
      u3 = u2 * u;
    const a = this.SX0.value[1],
      b = this.SX1.value[1];
    const s = a * (u3 - 2 * u2 + u) + (-2 * u3 + 3 * u2) + b * (u3 - u2);
    const ds = a * (3 * u2 - 4 * u + 1) + (-6 * u2 + 6 * u) + b * (3 * u2 - 2 * u);
    return [s, ds];
  }

  projectResponse(dx: Float64Array): void {
    if (!this.active(this.context.getTime())) return;
    for (const p of this.points) dx.fill(0, 3 * p, 3 * p + 3);
  }

  projectVelocity(v: Float64Array): void {
    const t = this.context.getTime();
    if (!this.active(t)) return;
    const T = this.endTime.value - this.beginTime.value;
    const [s, dsdu] = this.warp((t - this.beginTime.value) / T);
    const s2 = s * s,
      f = dsdu / T;
    // dh/ds of the Hermite basis
    const d00 = 6 * s2 - 6 * s,
      d10 = 3 * s2 - 4 * s + 1,
      d01 = -6 * s2 + 6 * s,
      d11 = 3 * s2 - 2 * s;
    for (const p of this.points) {
      for (let k = 0; k < 3; k++)
        v[3 * p + k] = f * (this.X0.value[k] * d00 + this.dX0.value[k] * d10 + this.X1.value[k] * d01 + this.dX1.value[k] * d11);
    }
  }

  projectPosition(x: Float64Array): void {
    const t = this.context.getTime();
    if (!this.active(t)) return;
    const [s] = this.warp((t - this.beginTime.value) / (this.endTime.value - this.beginTime.value));
    const s2 = s * s,
      s3 = s2 * s;
    const h00 = 2 * s3 - 3 * s2 + 1,
      h10 = s3 - 2 * s2 + s,
      h01 = -2 * s3 + 3 * s2,
      h11 = s3 - s2;
    for (const p of this.points) {
      for (let k = 0; k < 3; k++)
        x[3 * p + k] = this.X0.value[k] * h00 + this.dX0.value[k] * h10 + this.X1.value[k] * h01 + this.dX1.value[k] * h11;
    }
  }

  projectedDofs(out: number[]): void {
    if (!this.active(this.context.getTime())) return;
    for (const p of this.points) out.push(3 * p, 3 * p + 1, 3 * p + 2);
  }
}
