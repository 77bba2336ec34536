import { AnimateEndEvent, Enum, Real, RealArray, UInt, sofaComponent, type ConstraintResolution, type SofaEvent } from '@sofa-ts/core';
import { ActuationResolution } from './actuation-resolution.js';
import { CableModel } from './cable-model.js';

/**
 * SoftRobots' CableConstraint (direct actuation): a cable (see CableModel: from `pullPoint` through
 * the points `indices` of a Vec3 state, one row, the shortening δ = L₀ − L and J = ∂δ/∂x at the
 * free positions), solved by the scene's constraint solver with the other constraints:
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
export class CableConstraint extends CableModel {
  readonly value = this.initData({
    name: 'value',
    type: RealArray(1),
    default: Float64Array.of(0),
    help: 'displacement (shortening) or force (SOFA impulse λ) to impose, one per value index',
  });
  readonly valueIndex = this.initData({ name: 'valueIndex', type: UInt, default: 0, help: 'which entry of value is imposed' });
  readonly valueType = this.initData({
    name: 'valueType',
    type: Enum(['displacement', 'force'] as const),
    default: 'displacement',
    help: 'displacement: impose the cable shortening; force: impose λ',
  });
  readonly minForce = this.initData({
    name: 'minForce',
    type: Real,
    default: 0,
    help: 'lower bound on λ (displacement mode; unbounded when not set)',
  });
  readonly maxForce = this.initData({
    name: 'maxForce',
    type: Real,
    default: 0,
    help: 'upper bound on λ (displacement mode; unbounded when not set)',
  });
  readonly maxPositiveDisp = this.initData({
    name: 'maxPositiveDisp',
    type: Real,
    default: 0,
    help: 'largest shortening (unbounded when not set)',
  });
  readonly maxNegativeDisp = this.initData({
    name: 'maxNegativeDisp',
    type: Real,
    default: 0,
    help: 'largest lengthening (unbounded when not set)',
  });
  readonly maxDispVariation = this.initData({
    name: 'maxDispVariation',
    type: Real,
    default: 0,
    help: 'largest change of the shortening in one step (unbounded when not set)',
  });

  readonly force = this.initData({
    name: 'force',
    type: Real,
    default: 0,
    help: 'λ of the last step (SOFA impulse, force·dt)',
    output: true,
  });
  readonly physicalForce = this.initData({
    name: 'physicalForce',
    type: Real,
    default: 0,
    unit: 'N',
    help: 'cable tension of the last step, λ/dt (sofa-ts)',
    output: true,
  });
  readonly displacement = this.initData({
    name: 'displacement',
    type: Real,
    default: 0,
    help: 'cable shortening L₀ − L at the end of the last step',
    output: true,
  });

  private readonly resolutionObj = new ActuationResolution();

  override init(): void {
    super.init();
    this.displacement.setValue(this.cableInitialLength.value - this.cableLength.value);
    const vi = this.valueIndex.value;
    if (vi >= Math.max(1, this.value.value.length))
      throw this.error(`valueIndex ${vi} is out of range (value has ${this.value.value.length} entries)`);
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
    const l = lambda[this.row];
    this.force.setValue(l);
    this.physicalForce.setValue(l / this.context.getDt());
  }

  override handleEvent(event: SofaEvent): void {
    super.handleEvent(event);
    if (!(event instanceof AnimateEndEvent) || this.states.length === 0) return;
    this.displacement.setValue(this.cableInitialLength.value - this.cableLength.value);
  }
}
