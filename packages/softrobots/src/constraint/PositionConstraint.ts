import {
  contextStateLink,
  AnimateEndEvent,
  BaseLagrangianConstraint,
  Enum,
  IndexArray,
  Indices,
  Real,
  RealArray,
  UInt,
  sofaComponent,
  type BaseMechanicalState,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
  type ConstraintResolution,
  type SofaEvent,
} from '@sofa-ts/core';
import { ActuationResolution } from './actuation-resolution.js';

/**
 * SoftRobots' PositionConstraint (direct actuation): points `indices` of a Vec state are moved
 * from their initial positions x₀ along directions. For each point i and each used direction j
 * (unit vectors u_j, by default the axes; weights w_j, default 1), one Lagrangian row
 *   δ = w_j·u_j·(x_i − x₀_i)  at the free positions,   J = w_j·u_j on point i,
 * and the same `value[valueIndex]` imposed on every row:
 *   - valueType displacement: δ = value (clamped to [−maxNegativeDisp, maxPositiveDisp]), λ
 *     clamped to [minForce, maxForce];
 *   - valueType force: λ = value (clamped to [minForce, maxForce]), δ kept within
 *     [−maxNegativeDisp, maxPositiveDisp].
 * Each row is solved on its own (actuation-resolution.ts) by the scene's constraint solver. λ is
 * SOFA's impulse (force·dt); `force` and `displacement` report the first row (SoftRobots' scalar
 * outputs), `physicalForce` = λ/dt beside it. Departures: SoftRobots gives one local solve per
 * point (not per row) and drops the force bounds in displacement mode (its clamp's result is
 * unused); each row here has its own solve and the bounds hold. Rigid templates are not supported.
 */
@sofaComponent({
  name: 'PositionConstraint',
  category: 'SoftRobots',
  module: 'SoftRobots',
  description: 'Imposes the displacement of points (or the force on them) along directions, solved as Lagrangian constraints.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d'],
})
export class PositionConstraint extends BaseLagrangianConstraint {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: Uint32Array.of(0),
    help: 'points of the state that are actuated',
  });
  readonly weight = this.initData({
    name: 'weight',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'weight of each direction (default 1; a list of another size is replaced by its first value for every direction)',
  });
  readonly directions = this.initData({
    name: 'directions',
    type: RealArray(0, 'vector<Deriv>'),
    default: new Float64Array(0),
    help: 'directions of the rows, one Deriv each, normalised (default: the axes)',
  });
  readonly useDirections = this.initData({
    name: 'useDirections',
    type: IndexArray(1, 'vector<bool>'),
    default: new Uint32Array(0),
    help: 'one flag per direction: 1 uses it, 0 drops it (default, or all 0: all used)',
  });
  readonly value = this.initData({
    name: 'value',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'displacement or force (SOFA impulse λ) to impose, one per value index',
  });
  readonly valueIndex = this.initData({ name: 'valueIndex', type: UInt, default: 0, help: 'which entry of value is imposed' });
  readonly valueType = this.initData({
    name: 'valueType',
    type: Enum(['displacement', 'force'] as const),
    default: 'displacement',
    help: 'displacement: impose δ on every row; force: impose λ',
  });
  readonly maxForce = this.initData({ name: 'maxForce', type: Real, default: 0, help: 'upper bound on λ (unbounded when not set)' });
  readonly minForce = this.initData({ name: 'minForce', type: Real, default: 0, help: 'lower bound on λ (unbounded when not set)' });
  readonly maxPositiveDisp = this.initData({
    name: 'maxPositiveDisp',
    type: Real,
    default: 0,
    help: 'largest displacement in the positive direction (unbounded when not set)',
  });
  readonly maxNegativeDisp = this.initData({
    name: 'maxNegativeDisp',
    type: Real,
    default: 0,
    help: 'largest displacement in the negative direction (unbounded when not set)',
  });

  readonly force = this.initData({
    name: 'force',
    type: Real,
    default: 0,
    help: 'λ of the first row in the last step (SOFA impulse, force·dt)',
    output: true,
  });
  readonly physicalForce = this.initData({
    name: 'physicalForce',
    type: Real,
    default: 0,
    help: 'force of the first row in the last step, λ/dt (sofa-ts)',
    output: true,
  });
  readonly displacement = this.initData({
    name: 'displacement',
    type: Real,
    default: 0,
    help: 'δ of the first row at the end of the last step',
    output: true,
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the state of the points (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec3d, Vec2d or Vec1d)',
    ),
  );

  private states: BaseMechanicalState[] = [];
  private row = 0;
  /** Derivative size, the used directions scaled by their weights (nDir × d), x₀ of the points. */
  private d = 3;
  private dirs = new Float64Array(0);
  private dirViews: Float64Array[] = [];
  private nDir = 0;
  private x0 = new Float64Array(0);
  private resolutions: ActuationResolution[] = [];

  override init(): void {
    const s = this.mstate.require();
    const name = s.stateType.name;
    if (name !== 'Vec3d' && name !== 'Vec2d' && name !== 'Vec1d') throw this.error(`a Vec3d, Vec2d or Vec1d state is needed (got ${name})`);
    this.template = name;
    this.states = [s];
    const d = (this.d = s.stateType.derivSize);
    const idx = this.indices.value;
    if (idx.length === 0) throw this.error('indices is empty: give the points to actuate');
    for (const i of idx) if (i >= s.size) throw this.error(`index ${i} is out of range (${s.describe()} has ${s.size} points)`);
    // d directions (given ones normalised, missing ones the axes), d weights, d flags
    const given = this.directions.value;
    if (given.length % d !== 0) throw this.error(`directions holds ${given.length} numbers: expected groups of ${d} (one Deriv each)`);
    const all = new Float64Array(d * d);
    for (let k = 0; k < d; k++) {
      if (k * d < given.length) {
        let n = 0;
        for (let a = 0; a < d; a++) n += given[k * d + a] ** 2;
        n = Math.sqrt(n);
        if (!(n > 0)) throw this.error(`direction ${k} is zero`);
        for (let a = 0; a < d; a++) all[k * d + a] = given[k * d + a] / n;
      } else all[k * d + k] = 1;
    }
    const w = this.weight.value;
    const weights = new Float64Array(d).fill(w.length === 0 ? 1 : w[0]);
    if (w.length === d) weights.set(w);
    const use = this.useDirections.value;
    const used = (k: number): boolean => use.length === 0 || !use.some((f) => f !== 0) || (use[k] !== undefined && use[k] !== 0);
    this.nDir = 0;
    this.dirs = new Float64Array(d * d);
    for (let k = 0; k < d; k++) {
      if (!used(k)) continue;
      for (let a = 0; a < d; a++) this.dirs[this.nDir * d + a] = weights[k] * all[k * d + a];
      this.nDir++;
    }
    this.dirViews = Array.from({ length: this.nDir }, (_, k) => this.dirs.subarray(k * d, k * d + d));
    this.x0 = new Float64Array(d * idx.length);
    for (let p = 0; p < idx.length; p++) for (let a = 0; a < d; a++) this.x0[p * d + a] = s.x[d * idx[p] + a];
    if (this.value.value.length === 0) this.value.setValue(Float64Array.of(0));
    const vi = this.valueIndex.value;
    if (vi >= this.value.value.length) throw this.error(`valueIndex ${vi} is out of range (value has ${this.value.value.length} entries)`);
    this.resolutions = Array.from({ length: this.nDir * idx.length }, () => new ActuationResolution());
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const s = this.states[0],
      idx = this.indices.value;
    this.row = firstRow;
    let r = firstRow;
    for (let p = 0; p < idx.length; p++) for (let k = 0; k < this.nDir; k++) J.add(s, r++, idx[p], this.dirViews[k]);
    return r - firstRow;
  }

  /** δ of every row from positions x into out[first ..]. */
  private displacements(out: Float64Array, first: number, x: Float64Array): void {
    const idx = this.indices.value,
      d = this.d,
      u = this.dirs;
    let r = first;
    for (let p = 0; p < idx.length; p++) {
      const o = d * idx[p];
      for (let k = 0; k < this.nDir; k++) {
        let v = 0;
        for (let a = 0; a < d; a++) v += u[k * d + a] * (x[o + a] - this.x0[p * d + a]);
        out[r++] = v;
      }
    }
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder): void {
    if (order === 'vel')
      throw this.error('velocity constraints (solveVelocityConstraintFirst) are not supported: pose the problem on positions');
    this.displacements(out, this.row, this.states[0].xFree);
  }

  getConstraintResolution(out: Array<ConstraintResolution | undefined>): void {
    const v = this.value.value;
    let t = v.length === 0 ? 0 : (v[Math.min(this.valueIndex.value, v.length - 1)] ?? 0);
    const minForce = this.minForce.isSet ? this.minForce.value : -Infinity;
    const maxForce = this.maxForce.isSet ? this.maxForce.value : Infinity;
    const minDisp = this.maxNegativeDisp.isSet ? -this.maxNegativeDisp.value : -Infinity;
    const maxDisp = this.maxPositiveDisp.isSet ? this.maxPositiveDisp.value : Infinity;
    const force = this.valueType.value === 'force';
    t = force ? Math.min(maxForce, Math.max(minForce, t)) : Math.min(maxDisp, Math.max(minDisp, t));
    for (let r = 0; r < this.resolutions.length; r++) {
      const res = this.resolutions[r];
      res.mode = force ? 'force' : 'displacement';
      res.target = t;
      res.minForce = minForce;
      res.maxForce = maxForce;
      res.minDisp = minDisp;
      res.maxDisp = maxDisp;
      out[this.row + r] = res;
    }
  }

  override storeLambda(lambda: Float64Array): void {
    const l = lambda[this.row];
    this.force.setValue(l);
    this.physicalForce.setValue(l / this.context.getDt());
  }

  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateEndEvent) || this.states.length === 0 || this.nDir === 0) return;
    const s = this.states[0],
      d = this.d,
      o = d * this.indices.value[0];
    let v = 0;
    for (let a = 0; a < d; a++) v += this.dirs[a] * (s.x[o + a] - this.x0[a]);
    this.displacement.setValue(v);
  }
}
