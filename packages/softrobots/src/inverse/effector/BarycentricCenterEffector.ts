import {
  contextStateLink,
  AnimateEndEvent,
  BaseLagrangianConstraint,
  IndexArray,
  Indices,
  Real,
  RealArray,
  sofaComponent,
  type BaseMechanicalState,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
  type ConstraintResolution,
  type SofaEvent,
} from '@sofa-ts/core';
import type { InverseConstraint, InverseRows } from '../inverse-rows.js';

/**
 * SoftRobots' BarycentricCenterEffector: the barycenter b = (1/N) Σ x_i of the points of a Vec3
 * state (all of them, or `indices`) brought towards `effectorGoal` by the inverse problem, in the
 * least-squares sense with `weight`, along the world axes kept by `axis` (x, y, z flags). One row
 * per kept axis e_k:
 *
 *   δ_k = b_k(x_free) − goal_k,   J = (1/N)·e_k on each of the N points.
 *
 * `delta` gives δ = δ_free + W·λ of each row after the solve, `barycenter` the barycenter measured
 * at the end of the step. The goal may follow a linked Data (effectorGoal="@../goal/dofs.position",
 * the first point). sofa-ts accepts `useDirections` for `axis` and adds `indices` and `weight` as
 * the other effectors have them (SoftRobots.Inverse's own Data beyond effectorGoal and axis are not
 * known to sofa-ts).
 */
@sofaComponent({
  name: 'BarycentricCenterEffector',
  category: 'SoftRobots.Inverse',
  module: 'SoftRobots.Inverse',
  description: 'The barycenter of the points of a soft robot, brought to a goal position by the inverse problem (effector).',
  templates: ['Vec3d'],
})
export class BarycentricCenterEffector extends BaseLagrangianConstraint implements InverseConstraint {
  readonly inverseRole = 'effector';
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'points whose barycenter is driven (default: every point of the state)',
  });
  readonly effectorGoal = this.initData({
    name: 'effectorGoal',
    type: RealArray(3),
    default: new Float64Array(0),
    help: 'goal of the barycenter (default: its initial position; of a list of points, the first)',
  });
  readonly axis = this.initData({
    name: 'axis',
    type: IndexArray(1, 'Vec3b'),
    default: Uint32Array.of(1, 1, 1),
    help: 'flags of the world axes x, y, z along which the barycenter is driven (1 kept, 0 free)',
    aliases: ['useDirections'],
  });
  readonly weight = this.initData({
    name: 'weight',
    type: Real,
    default: 1,
    help: 'weight of this effector in the least-squares objective',
  });
  readonly delta = this.initData({
    name: 'delta',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'shift to the goal per kept axis predicted by the solver in the last step',
    output: true,
  });
  readonly barycenter = this.initData({
    name: 'barycenter',
    type: RealArray(3),
    default: new Float64Array(3),
    help: 'barycenter of the points at the end of the last step',
    output: true,
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the Vec3 state of the points (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec3d)',
    ),
  );

  private states: BaseMechanicalState[] = [];
  private row = 0;
  /** The kept axes (0, 1, 2), one per row. */
  private axes = new Uint8Array(0);
  private readonly initialGoal = new Float64Array(3);
  private readonly b = new Float64Array(3);
  private readonly unit = [Float64Array.of(1, 0, 0), Float64Array.of(0, 1, 0), Float64Array.of(0, 0, 1)] as const;

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Vec3d') throw this.error(`a Vec3d state is needed (got ${s.stateType.name})`);
    this.template = 'Vec3d';
    this.states = [s];
    if (this.indices.value.length === 0) this.indices.setValue(Uint32Array.from({ length: s.size }, (_, i) => i));
    if (this.indices.value.length === 0) throw this.error(`${s.describe()} has no point`);
    for (const i of this.indices.value)
      if (i >= s.size) throw this.error(`index ${i} is out of range (${s.describe()} has ${s.size} points)`);
    const flags = this.axis.value;
    if (flags.length !== 3) throw this.error(`axis holds ${flags.length} flags: expected 3 (x, y, z)`);
    this.axes = Uint8Array.from([0, 1, 2].filter((k) => flags[k] !== 0));
    if (this.axes.length === 0) throw this.error('axis drops every direction: nothing to drive');
    this.barycenterOf(this.initialGoal, s.x);
    this.barycenter.setValue(Float64Array.from(this.initialGoal));
    this.delta.setValue(new Float64Array(this.axes.length));
  }

  /** out = (1/N) Σ x_i over the points. */
  barycenterOf(out: Float64Array, x: ArrayLike<number>): Float64Array {
    const idx = this.indices.value;
    out.fill(0);
    for (let p = 0; p < idx.length; p++) {
      const o = 3 * idx[p];
      out[0] += x[o];
      out[1] += x[o + 1];
      out[2] += x[o + 2];
    }
    for (let a = 0; a < 3; a++) out[a] /= idx.length;
    return out;
  }

  private goal(): ArrayLike<number> {
    const g = this.effectorGoal.value;
    return g.length >= 3 ? g : this.initialGoal;
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const s = this.states[0],
      idx = this.indices.value,
      w = 1 / idx.length;
    this.row = firstRow;
    for (let r = 0; r < this.axes.length; r++) {
      const e = this.unit[this.axes[r]];
      for (let p = 0; p < idx.length; p++) J.add(s, firstRow + r, idx[p], e, w);
    }
    return this.axes.length;
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder): void {
    if (order === 'vel')
      throw this.error('velocity constraints (solveVelocityConstraintFirst) are not supported: pose the problem on positions');
    const b = this.barycenterOf(this.b, this.states[0].xFree),
      g = this.goal();
    for (let r = 0; r < this.axes.length; r++) {
      const k = this.axes[r];
      out[this.row + r] = b[k] - g[k];
    }
  }

  getInverseRows(rows: InverseRows): void {
    for (let r = 0; r < this.axes.length; r++) rows.setEffector(this.row + r, this.weight.value);
  }

  storeResults(_lambda: Float64Array, delta: Float64Array): void {
    const m = this.axes.length;
    const out = this.delta.value.length === m ? this.delta.value : new Float64Array(m);
    out.set(delta.subarray(this.row, this.row + m));
    this.delta.setValue(out);
  }

  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateEndEvent) || this.states.length === 0) return;
    const out = this.barycenter.value.length === 3 ? this.barycenter.value : new Float64Array(3);
    this.barycenterOf(out, this.states[0].x);
    this.barycenter.setValue(out);
  }

  getConstraintResolution(_out: Array<ConstraintResolution | undefined>): void {
    throw this.error('an effector is solved by an inverse problem solver', 'add a QPInverseProblemSolver');
  }
}
