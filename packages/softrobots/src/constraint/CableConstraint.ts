import {
  AnimateEndEvent,
  BaseLagrangianConstraint,
  Bool,
  Enum,
  Indices,
  Real,
  RealArray,
  UInt,
  Vec3,
  isMechanicalState,
  sofaComponent,
  type BaseMechanicalState,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
  type ConstraintResolution,
  type SofaEvent,
} from '@sofa-ts/core';
import { cableGradient, cableLength } from './cable-geometry.js';
import { ActuationResolution } from './actuation-resolution.js';

/**
 * SoftRobots' CableConstraint (direct actuation): a cable from `pullPoint` through the points
 * `indices` of a Vec3 state, actuated by its shortening δ = L₀ − L (L the polyline length, see
 * cable-geometry.ts). One Lagrangian row, J = ∂δ/∂x (unit directions along the cable at each
 * point), solved by the scene's constraint solver with the other constraints:
 *   - valueType displacement: δ = value[valueIndex] (clamped to [−maxNegativeDisp,
 *     maxPositiveDisp] and within maxDispVariation of the last step's δ), λ clamped to
 *     [minForce, maxForce];
 *   - valueType force: λ = value[valueIndex], δ kept within the displacement bounds.
 * λ is SOFA's impulse (force·dt, the unit of `value` in force mode and of `force`); the tension in
 * force units is given beside it (`physicalForce` = λ/dt) so that results do not change with dt
 * by surprise. Outputs are measured on the positions at the end of the step. Violations are posed
 * on positions (the 'vel' order of solveVelocityConstraintFirst is refused).
 */
@sofaComponent({
  name: 'CableConstraint',
  category: 'SoftRobots',
  module: 'SoftRobots',
  description: 'Cable actuation of a deformable object (imposed cable displacement or force), solved as a Lagrangian constraint.',
  templates: ['Vec3d'],
})
export class CableConstraint extends BaseLagrangianConstraint {
  readonly indices = this.initData({ name: 'indices', type: Indices, default: new Uint32Array(0), help: 'points of the state the cable passes through, in order from the pull point (a point may repeat)' });
  readonly pullPoint = this.initData({ name: 'pullPoint', type: Vec3, default: new Float64Array(3), help: 'fixed point from which the cable is pulled' });
  readonly hasPullPoint = this.initData({ name: 'hasPullPoint', type: Bool, default: true, help: 'true: the cable starts at pullPoint; false: it starts at the first of indices' });
  readonly cableInitialLength = this.initData({ name: 'cableInitialLength', type: Real, default: 0, help: 'rest length L₀ of the cable (computed from the positions at init unless given)' });
  readonly value = this.initData({ name: 'value', type: RealArray(1), default: Float64Array.of(0), help: 'displacement (shortening) or force (SOFA impulse λ) to impose, one per value index' });
  readonly valueIndex = this.initData({ name: 'valueIndex', type: UInt, default: 0, help: 'which entry of value is imposed' });
  readonly valueType = this.initData({ name: 'valueType', type: Enum(['displacement', 'force'] as const), default: 'displacement', help: 'displacement: impose the cable shortening; force: impose λ' });
  readonly minForce = this.initData({ name: 'minForce', type: Real, default: 0, help: 'lower bound on λ (displacement mode; unbounded when not set)' });
  readonly maxForce = this.initData({ name: 'maxForce', type: Real, default: 0, help: 'upper bound on λ (displacement mode; unbounded when not set)' });
  readonly maxPositiveDisp = this.initData({ name: 'maxPositiveDisp', type: Real, default: 0, help: 'largest shortening (unbounded when not set)' });
  readonly maxNegativeDisp = this.initData({ name: 'maxNegativeDisp', type: Real, default: 0, help: 'largest lengthening (unbounded when not set)' });
  readonly maxDispVariation = this.initData({ name: 'maxDispVariation', type: Real, default: 0, help: 'largest change of the shortening in one step (unbounded when not set)' });

  readonly force = this.initData({ name: 'force', type: Real, default: 0, help: 'λ of the last step (SOFA impulse, force·dt)', output: true });
  readonly physicalForce = this.initData({ name: 'physicalForce', type: Real, default: 0, unit: 'N', help: 'cable tension of the last step, λ/dt (sofa-ts)', output: true });
  readonly displacement = this.initData({ name: 'displacement', type: Real, default: 0, help: 'cable shortening L₀ − L at the end of the last step', output: true });
  readonly cableLength = this.initData({ name: 'cableLength', type: Real, default: 0, help: 'cable length L at the end of the last step', output: true });

  readonly mstate = this.initLink<BaseMechanicalState>({ name: 'mstate', help: 'the Vec3 state the cable runs through (default: the one of this node)', accepts: isMechanicalState, expected: 'a MechanicalObject (Vec3d)', search: 'local', required: true });

  private states: BaseMechanicalState[] = [];
  private row = 0;
  private grad = new Float64Array(0);
  private readonly entry = new Float64Array(3);
  private readonly resolutionObj = new ActuationResolution();

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Vec3d') throw this.error(`a Vec3d state is needed (got ${s.stateType.name})`);
    this.template = 'Vec3d';
    this.states = [s];
    const idx = this.indices.value;
    if (idx.length === 0) throw this.error('indices is empty: give the points the cable runs through');
    for (const i of idx) if (i >= s.size) throw this.error(`index ${i} is out of range (${s.describe()} has ${s.size} points)`);
    if (!this.hasPullPoint.value && idx.length < 2) throw this.error('without a pull point the cable needs at least two indices');
    this.grad = new Float64Array(3 * idx.length);
    const L = cableLength(s.x, idx, this.pull());
    if (!this.cableInitialLength.isSet) this.cableInitialLength.setValue(L);
    this.cableLength.setValue(L);
    this.displacement.setValue(this.cableInitialLength.value - L);
    const vi = this.valueIndex.value;
    if (vi >= Math.max(1, this.value.value.length)) throw this.error(`valueIndex ${vi} is out of range (value has ${this.value.value.length} entries)`);
  }

  private pull(): Float64Array | undefined {
    return this.hasPullPoint.value ? this.pullPoint.value : undefined;
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const s = this.states[0]!;
    const idx = this.indices.value;
    if (this.grad.length !== 3 * idx.length) this.grad = new Float64Array(3 * idx.length);
    this.row = firstRow;
    cableGradient(this.grad, s.xFree, idx, this.pull());
    const g = this.grad, e = this.entry;
    for (let k = 0; k < idx.length; k++) {
      e[0] = g[3 * k]!;
      e[1] = g[3 * k + 1]!;
      e[2] = g[3 * k + 2]!;
      J.add(s, firstRow, idx[k]!, e);
    }
    return 1;
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder): void {
    if (order === 'vel') throw this.error('velocity constraints (solveVelocityConstraintFirst) are not supported by the cable: pose the problem on positions');
    const s = this.states[0]!;
    out[this.row] = this.cableInitialLength.value - cableLength(s.xFree, this.indices.value, this.pull());
  }

  /** The value imposed this step (value[valueIndex], 0 when value is empty). */
  private imposed(): number {
    const v = this.value.value;
    return v.length === 0 ? 0 : (v[Math.min(this.valueIndex.value, v.length - 1)] ?? 0);
  }

  getConstraintResolution(out: Array<ConstraintResolution | undefined>): void {
    const r = this.resolutionObj;
    r.mode = this.valueType.value === 'force' ? 'force' : 'displacement';
    r.minForce = this.minForce.isSet ? this.minForce.value : -Infinity;
    r.maxForce = this.maxForce.isSet ? this.maxForce.value : Infinity;
    r.maxDisp = this.maxPositiveDisp.isSet ? this.maxPositiveDisp.value : Infinity;
    r.minDisp = this.maxNegativeDisp.isSet ? -this.maxNegativeDisp.value : -Infinity;
    if (r.mode === 'force') {
      r.target = this.imposed();
    } else {
      let t = Math.min(r.maxDisp, Math.max(r.minDisp, this.imposed()));
      if (this.maxDispVariation.isSet) {
        const last = this.displacement.value;
        const dv = Math.abs(this.maxDispVariation.value);
        t = Math.min(last + dv, Math.max(last - dv, t));
      }
      r.target = t;
    }
    out[this.row] = r;
  }

  override storeLambda(lambda: Float64Array): void {
    const l = lambda[this.row]!;
    this.force.setValue(l);
    this.physicalForce.setValue(l / this.context.getDt());
  }

  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateEndEvent) || this.states.length === 0) return;
    const L = cableLength(this.states[0]!.x, this.indices.value, this.pull());
    this.cableLength.setValue(L);
    this.displacement.setValue(this.cableInitialLength.value - L);
  }
}
