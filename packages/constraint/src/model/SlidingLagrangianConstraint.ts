import { Int, RealArray, sofaComponent, type ConstraintJacobianBuilder, type ConstraintResolution } from '@sofa-ts/core';
import { PairLagrangianConstraint } from './pair-constraint.js';
import { BilateralResolution, UnilateralResolution } from './resolutions.js';

/**
 * SOFA's SlidingLagrangianConstraint (Vec3): point P = sliding_point of object1 slides on the
 * segment [A, B] = [axis_1, axis_2] of object2. With the axis a = (B − A)/|B − A| and the
 * projection of P on the segment at barycentric coordinate β ∈ [0, 1] (taken on the free positions
 * when the rows are built):
 *   two bilateral rows along the directions orthogonal to the axis (P − proj, then its cross
 *     product with a): δ = (P − ((1 − β)·A + β·B))·dir, J = +dir on P, −(1 − β)·dir on A, −β·dir on B;
 *   two unilateral rows keeping P between A and B: δ = (P − A)·a ≥ 0 and (P − B)·(−a) ≥ 0,
 *     J = ±a on P, ∓a on A or B.
 * When A and B coincide, P is held on A by three bilateral rows along x, y, z.
 * `force` gives Σ dir_i·λ_i after the solve (an impulse).
 */
@sofaComponent({
  name: 'SlidingLagrangianConstraint',
  aliases: ['SlidingConstraint'],
  category: 'LagrangianConstraint',
  module: 'Sofa.Component.Constraint.Lagrangian.Model',
  description: 'A point of one object sliding along a segment of another (Lagrange multipliers).',
  templates: ['Vec3d'],
})
export class SlidingLagrangianConstraint extends PairLagrangianConstraint {
  readonly slidingPoint = this.initData({
    name: 'sliding_point',
    type: Int,
    default: 0,
    help: 'index of the sliding point on the first model',
  });
  readonly axis1 = this.initData({ name: 'axis_1', type: Int, default: 0, help: 'index of one end of the sliding axis' });
  readonly axis2 = this.initData({ name: 'axis_2', type: Int, default: 0, help: 'index of the other end of the sliding axis' });
  readonly force = this.initData({
    name: 'force',
    type: RealArray(3, 'Vec3d'),
    default: new Float64Array(3),
    help: 'force (impulse) used to solve the constraint',
    output: true,
  });

  /** Constraint directions (3 per row) and their count (3: A = B; 4 otherwise). */
  private readonly dirs = new Float64Array(12);
  private nDirs = 0;
  private bary = 0;
  private row = 0;

  override init(): void {
    super.init();
    if (this.state1.stateType.name !== 'Vec3d' || this.state2.stateType.name !== 'Vec3d')
      throw this.error(`Vec3d states are needed (got ${this.state1.stateType.name} and ${this.state2.stateType.name})`);
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const m1 = this.slidingPoint.value,
      ma = this.axis1.value,
      mb = this.axis2.value;
    const s1 = this.state1,
      s2 = this.state2;
    if (m1 < 0 || m1 >= s1.size) throw this.error(`sliding_point ${m1} is out of range (${s1.describe()} has ${s1.size} points)`);
    if (ma < 0 || ma >= s2.size || mb < 0 || mb >= s2.size)
      throw this.error(`axis_1 ${ma} / axis_2 ${mb} out of range (${s2.describe()} has ${s2.size} points)`);
    this.row = firstRow;
    const x1 = s1.xFree,
      x2 = s2.xFree;
    const P = [x1[3 * m1], x1[3 * m1 + 1], x1[3 * m1 + 2]];
    const A = [x2[3 * ma], x2[3 * ma + 1], x2[3 * ma + 2]];
    const B = [x2[3 * mb], x2[3 * mb + 1], x2[3 * mb + 2]];
    const ax = [B[0] - A[0], B[1] - A[1], B[2] - A[2]];
    const ab = Math.hypot(ax[0], ax[1], ax[2]);
    const dirs = this.dirs;
    this.bary = 0;
    if (ab < Number.EPSILON) {
      dirs.fill(0);
      dirs[0] = 1;
      dirs[4] = 1;
      dirs[8] = 1;
      this.nDirs = 3;
      for (let i = 0; i < 3; i++) {
        J.add(s1, firstRow + i, m1, dirs.subarray(3 * i, 3 * i + 3));
        J.add(s2, firstRow + i, ma, dirs.subarray(3 * i, 3 * i + 3), -1);
      }
      return 3;
    }
    const a = [ax[0] / ab, ax[1] / ab, ax[2] / ab];
    const r = (P[0] - A[0]) * a[0] + (P[1] - A[1]) * a[1] + (P[2] - A[2]) * a[2];
    this.bary = Math.min(1, Math.max(0, r / ab));
    let proj = [P[0] - (A[0] + a[0] * r), P[1] - (A[1] + a[1] * r), P[2] - (A[2] + a[2] * r)];
    if (Math.hypot(proj[0], proj[1], proj[2]) < Number.EPSILON) {
      // P on the axis: any direction orthogonal to it
      let xv = [1, 0, 0];
      if (Math.hypot(...cross(xv, a)) < Number.EPSILON) xv = [1, 1, 0];
      proj = cross(xv, a);
    }
    const np = Math.hypot(proj[0], proj[1], proj[2]);
    const d0 = [proj[0] / np, proj[1] / np, proj[2] / np];
    const o = cross(d0, a);
    const no = Math.hypot(o[0], o[1], o[2]);
    const d1 = [o[0] / no, o[1] / no, o[2] / no];
    dirs.set(d0, 0);
    dirs.set(d1, 3);
    dirs.set(a, 6);
    dirs.set([-a[0], -a[1], -a[2]], 9);
    this.nDirs = 4;
    for (let i = 0; i < 2; i++) {
      const dir = dirs.subarray(3 * i, 3 * i + 3);
      J.add(s1, firstRow + i, m1, dir);
      J.add(s2, firstRow + i, ma, dir, -(1 - this.bary));
      J.add(s2, firstRow + i, mb, dir, -this.bary);
    }
    J.add(s1, firstRow + 2, m1, dirs.subarray(6, 9));
    J.add(s1, firstRow + 3, m1, dirs.subarray(9, 12));
    J.add(s2, firstRow + 2, ma, dirs.subarray(6, 9), -1);
    J.add(s2, firstRow + 3, mb, dirs.subarray(9, 12), -1);
    return 4;
  }

  getConstraintViolation(out: Float64Array): void {
    const x1 = this.state1.xFree,
      x2 = this.state2.xFree;
    const m1 = 3 * this.slidingPoint.value,
      ma = 3 * this.axis1.value,
      mb = 3 * this.axis2.value;
    const dirs = this.dirs;
    if (this.nDirs === 3) {
      for (let i = 0; i < 3; i++) out[this.row + i] = x1[m1 + i] - x2[ma + i];
      return;
    }
    const b = this.bary;
    const dot = (v: number[], k: number): number => v[0] * dirs[3 * k] + v[1] * dirs[3 * k + 1] + v[2] * dirs[3 * k + 2];
    const toProj = [0, 1, 2].map((i) => x1[m1 + i] - (x2[mb + i] * b + x2[ma + i] * (1 - b)));
    const toA = [0, 1, 2].map((i) => x1[m1 + i] - x2[ma + i]);
    const toB = [0, 1, 2].map((i) => x1[m1 + i] - x2[mb + i]);
    out[this.row] = dot(toProj, 0);
    out[this.row + 1] = dot(toProj, 1);
    out[this.row + 2] = dot(toA, 2);
    out[this.row + 3] = dot(toB, 3);
  }

  getConstraintResolution(out: Array<ConstraintResolution | undefined>): void {
    if (this.nDirs === 3) {
      for (let i = 0; i < 3; i++) out[this.row + i] = new BilateralResolution();
      return;
    }
    out[this.row] = new BilateralResolution();
    out[this.row + 1] = new BilateralResolution();
    out[this.row + 2] = new UnilateralResolution();
    out[this.row + 3] = new UnilateralResolution();
  }

  override storeLambda(lambda: Float64Array): void {
    const f = new Float64Array(3);
    for (let i = 0; i < this.nDirs; i++) for (let k = 0; k < 3; k++) f[k] += this.dirs[3 * i + k] * lambda[this.row + i];
    this.force.value = f;
  }
}

function cross(u: number[], v: number[]): number[] {
  return [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
}
