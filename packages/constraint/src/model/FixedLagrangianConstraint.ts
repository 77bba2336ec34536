import {
  Bool,
  Indices,
  contextStateLink,
  BaseLagrangianConstraint,
  sofaComponent,
  type BaseMechanicalState,
  type ConstraintJacobianBuilder,
  type ConstraintResolution,
} from '@sofa-ts/core';
import { quatMultiplyConjugateAt } from '@sofa-ts/linalg';
import { Bilateral3Resolution, BilateralNResolution } from './resolutions.js';

/**
 * SOFA's FixedLagrangianConstraint: the points `indices` (every point with fixAll) are held at their
 * rest positions by Lagrange multipliers instead of projections.
 *   rows: one per coordinate of the derivative of each fixed point, J = the unit vector on that
 *   coordinate (Rigid3: 3 translation rows then 3 rotation rows);
 *   violation: x_free − x_rest (Rigid3: the centres' difference, then the rotation vector of
 *   q_free·q_rest⁻¹), measured on the free positions whatever the constraint order (as SOFA).
 * Resolution as SOFA: Vec3 points as one 3×3 block started from the previous step's λ of that
 * point, Rigid3 as two such blocks (translation, rotation), Vec1/Vec2/Vec6 as one n×n block
 * (BilateralConstraintResolutionNDof, no warm start).
 */
@sofaComponent({
  name: 'FixedLagrangianConstraint',
  category: 'LagrangianConstraint',
  module: 'Sofa.Component.Constraint.Lagrangian.Model',
  description: 'Lagrangian-based fixation of DOFs of the model.',
  templates: ['Vec3d', 'Vec1d', 'Vec2d', 'Vec6d', 'Rigid3d'],
})
export class FixedLagrangianConstraint extends BaseLagrangianConstraint {
  readonly indices = this.initData({ name: 'indices', type: Indices, default: new Uint32Array(0), help: 'Indices of points to fix' });
  readonly fixAll = this.initData({ name: 'fixAll', type: Bool, default: false, help: 'If true, fix all points' });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the state whose points are fixed (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec1d, Vec2d, Vec3d, Vec6d or Rigid3d)',
    ),
  );

  private states: BaseMechanicalState[] = [];
  private rigid = false;
  /** Rows per fixed point (the derivative's size). */
  private dim = 3;
  private firstRow = 0;
  private count = 0;
  /** λ of each fixed point at the end of the previous solve (Vec3, Rigid3: the warm start). */
  private prevForces = new Float64Array(0);
  private resolutions: ConstraintResolution[] = [];
  /** Checkpoint: the warm start (the resolutions are rebuilt on it at the next step). */
  readonly checkpointFields = ['prevForces'] as const;
  private unit = new Float64Array(3);

  override init(): void {
    const s = this.mstate.require();
    const t = s.stateType.name;
    if (t !== 'Vec1d' && t !== 'Vec2d' && t !== 'Vec3d' && t !== 'Vec6d' && t !== 'Rigid3d') {
      throw this.error(`a Vec1d, Vec2d, Vec3d, Vec6d or Rigid3d state is needed (got ${t})`);
    }
    this.template = t;
    this.states = [s];
    this.rigid = t === 'Rigid3d';
    this.dim = s.stateType.derivSize;
    this.unit = new Float64Array(this.dim);
    this.prevForces = new Float64Array(0);
    this.resolutions = [];
  }

  override reset(): void {
    this.prevForces.fill(0);
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  private dof(i: number): number {
    return this.fixAll.value ? i : this.indices.value[i];
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const s = this.states[0];
    const n = this.fixAll.value ? s.size : this.indices.value.length;
    const idx = this.indices.value;
    if (!this.fixAll.value) {
      for (let i = 0; i < n; i++)
        if (idx[i] >= s.size) throw this.error(`index ${idx[i]} is out of range (${s.describe()} has ${s.size} points)`);
    }
    this.firstRow = firstRow;
    this.count = n;
    const d = this.dim;
    const e = this.unit;
    for (let i = 0; i < n; i++) {
      const p = this.dof(i);
      for (let k = 0; k < d; k++) {
        e.fill(0);
        e[k] = 1;
        J.add(s, firstRow + d * i + k, p, e);
      }
    }
    return d * n;
  }

  getConstraintViolation(out: Float64Array): void {
    const s = this.states[0];
    const xf = s.xFree,
      x0 = s.x0;
    const n = this.count,
      d = this.dim,
      c = s.stateType.coordSize;
    for (let i = 0; i < n; i++) {
      const a = c * this.dof(i),
        r = this.firstRow + d * i;
      if (!this.rigid) {
        for (let k = 0; k < d; k++) out[r + k] = xf[a + k] - x0[a + k];
        continue;
      }
      for (let k = 0; k < 3; k++) out[r + k] = xf[a + k] - x0[a + k];
      rotationVectorOf(out, r + 3, xf, a + 3, x0, a + 3);
    }
  }

  getConstraintResolution(out: Array<ConstraintResolution | undefined>): void {
    const n = this.count,
      d = this.dim;
    if (this.prevForces.length !== d * n) {
      const p = new Float64Array(d * n);
      p.set(this.prevForces.subarray(0, Math.min(this.prevForces.length, d * n)));
      this.prevForces = p;
      this.resolutions = [];
    }
    const res = this.resolutions;
    if (res.length === 0) {
      for (let i = 0; i < n; i++) {
        if (d === 3) res.push(new Bilateral3Resolution(this.prevForces, 3 * i));
        else if (this.rigid)
          res.push(new Bilateral3Resolution(this.prevForces, 6 * i), new Bilateral3Resolution(this.prevForces, 6 * i + 3));
        else res.push(new BilateralNResolution(d));
      }
    }
    let k = 0;
    for (let i = 0; i < n; i++) {
      const r = this.firstRow + d * i;
      if (this.rigid) {
        out[r] = res[k++];
        out[r + 3] = res[k++];
      } else out[r] = res[k++];
    }
  }
}

/** q·q0⁻¹ of rotationVectorOf (no allocation per call). */
const product = new Float64Array(4);

/**
 * out[o..o+2] = the rotation vector (axis·angle, angle in [0, π]) of q·q0⁻¹, q at x[qo..qo+3] and
 * q0 at x0[q0o..q0o+3] as (x, y, z, w) (SOFA's Quat::toEulerVector of the product; zero for the identity).
 */
export function rotationVectorOf(out: Float64Array, o: number, x: ArrayLike<number>, qo: number, x0: ArrayLike<number>, q0o: number): void {
  quatMultiplyConjugateAt(product, 0, x, qo, x0, q0o);
  let dx = product[0],
    dy = product[1],
    dz = product[2],
    dw = product[3];
  const m = Math.hypot(dx, dy, dz, dw);
  if (m === 0) {
    out[o] = 0;
    out[o + 1] = 0;
    out[o + 2] = 0;
    return;
  }
  if (dw < 0) {
    dx = -dx;
    dy = -dy;
    dz = -dz;
    dw = -dw;
  }
  const sinHalf = Math.hypot(dx, dy, dz) / m;
  if (sinHalf === 0) {
    out[o] = 0;
    out[o + 1] = 0;
    out[o + 2] = 0;
    return;
  }
  const angle = 2 * Math.atan2(sinHalf, dw / m);
  const s = angle / (sinHalf * m);
  out[o] = dx * s;
  out[o + 1] = dy * s;
  out[o + 2] = dz * s;
}
