import { Enum, Real, RealArray, UInt, sofaComponent, type ConstraintOrder, type ConstraintResolution } from '@sofa-ts/core';
import { ActuationResolution } from './actuation-resolution.js';
import { SurfacePressureModel } from './surface-pressure-model.js';

/**
 * SoftRobots' SurfacePressureConstraint (direct actuation): a cavity (see SurfacePressureModel:
 * faces of a Vec3 state, one row, the volume growth δ = |V(x)| − V₀ and J = s·∂V/∂x at the free
 * positions, λ·J the nodal load of the pressure λ) inflated by a pressure, solved by the scene's
 * constraint solver with the other constraints:
 *   - valueType pressure: λ = value[valueIndex] (within maxPressureVariation of the last λ, then
 *     clamped to [minPressure, maxPressure]), δ kept within [minVolumeGrowth, maxVolumeGrowth];
 *   - valueType volumeGrowth: δ = value[valueIndex] (within maxVolumeGrowthVariation of the last
 *     growth, then clamped to [minVolumeGrowth, maxVolumeGrowth]), λ clamped to
 *     [minPressure, maxPressure].
 * λ is SOFA's impulse (pressure·dt): `value` in pressure mode, the bounds on pressure and the
 * `pressure` output are in that unit, as in SoftRobots; the pressure itself is given beside it
 * (`physicalPressure` = λ/dt). cavityVolume and volumeGrowth are measured on the positions at the
 * end of the step. eqPressure and eqVolumeGrowth belong to SoftRobots' inverse equality
 * components and have no effect here (SoftRobots hides them on this component).
 * Departure: in pressure mode SoftRobots' local solve applies minVolumeGrowth and then drops it
 * (λ is reset to the value); here the bound holds.
 */
@sofaComponent({
  name: 'SurfacePressureConstraint',
  category: 'SoftRobots',
  module: 'SoftRobots',
  description:
    'Pressure actuation of a cavity of a deformable object (imposed pressure or volume growth), solved as a Lagrangian constraint.',
  templates: ['Vec3d'],
})
export class SurfacePressureConstraint extends SurfacePressureModel {
  readonly value = this.initData({
    name: 'value',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'pressure (SOFA impulse, pressure·dt) or volume growth to impose, one per value index',
  });
  readonly valueIndex = this.initData({ name: 'valueIndex', type: UInt, default: 0, help: 'which entry of value is imposed' });
  readonly valueType = this.initData({
    name: 'valueType',
    type: Enum(['pressure', 'volumeGrowth'] as const),
    default: 'pressure',
    help: 'pressure: impose λ; volumeGrowth: impose the volume growth',
  });
  readonly maxPressure = this.initData({ name: 'maxPressure', type: Real, default: 0, help: 'upper bound on λ (unbounded when not set)' });
  readonly minPressure = this.initData({
    name: 'minPressure',
    type: Real,
    default: 0,
    help: 'lower bound on λ (unbounded when not set; negative drains the cavity)',
  });
  readonly eqPressure = this.initData({
    name: 'eqPressure',
    type: Real,
    default: 0,
    help: 'pressure of the inverse equality components (no effect on this component)',
  });
  readonly maxPressureVariation = this.initData({
    name: 'maxPressureVariation',
    type: Real,
    default: 0,
    help: 'largest change of the imposed λ in one step (pressure mode; unbounded when not set)',
  });
  readonly maxVolumeGrowth = this.initData({
    name: 'maxVolumeGrowth',
    type: Real,
    default: 0,
    help: 'largest volume growth (unbounded when not set)',
  });
  readonly minVolumeGrowth = this.initData({
    name: 'minVolumeGrowth',
    type: Real,
    default: 0,
    help: 'smallest volume growth (unbounded when not set)',
  });
  readonly eqVolumeGrowth = this.initData({
    name: 'eqVolumeGrowth',
    type: Real,
    default: 0,
    help: 'volume growth of the inverse equality components (no effect on this component)',
  });
  readonly maxVolumeGrowthVariation = this.initData({
    name: 'maxVolumeGrowthVariation',
    type: Real,
    default: 0,
    help: 'largest change of the imposed volume growth in one step (volumeGrowth mode; unbounded when not set)',
  });

  readonly pressure = this.initData({
    name: 'pressure',
    type: Real,
    default: 0,
    help: 'λ of the last step (SOFA impulse, pressure·dt)',
    output: true,
  });
  readonly physicalPressure = this.initData({
    name: 'physicalPressure',
    type: Real,
    default: 0,
    help: 'pressure of the last step, λ/dt (sofa-ts)',
    output: true,
  });
  readonly volumeGrowth = this.initData({
    name: 'volumeGrowth',
    type: Real,
    default: 0,
    help: 'volume growth |V| − V₀ at the end of the last step',
    output: true,
  });

  private readonly resolutionObj = new ActuationResolution();
  private initialValue = new Float64Array(0);

  override init(): void {
    super.init();
    if (this.value.value.length === 0) this.value.setValue(Float64Array.of(0));
    const vi = this.valueIndex.value;
    if (vi >= this.value.value.length) throw this.error(`valueIndex ${vi} is out of range (value has ${this.value.value.length} entries)`);
    this.initialValue = this.value.value.slice();
  }

  override reset(): void {
    super.reset();
    if (this.states.length === 0) return;
    this.pressure.setValue(0);
    this.physicalPressure.setValue(0);
    this.volumeGrowth.setValue(0);
    this.value.setValue(this.initialValue.slice());
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder): void {
    out[this.row] = this.freeVolume(order) - this.initialCavityVolume.value;
  }

  /** The value imposed this step (value[valueIndex], 0 when value is empty). */
  private imposed(): number {
    const v = this.value.value;
    return v.length === 0 ? 0 : (v[Math.min(this.valueIndex.value, v.length - 1)] ?? 0);
  }

  getConstraintResolution(out: Array<ConstraintResolution | undefined>): void {
    const r = this.resolutionObj;
    let t = this.imposed();
    r.minForce = this.minPressure.isSet ? this.minPressure.value : -Infinity;
    r.maxForce = this.maxPressure.isSet ? this.maxPressure.value : Infinity;
    r.minDisp = this.minVolumeGrowth.isSet ? this.minVolumeGrowth.value : -Infinity;
    r.maxDisp = this.maxVolumeGrowth.isSet ? this.maxVolumeGrowth.value : Infinity;
    if (this.valueType.value === 'volumeGrowth') {
      r.mode = 'displacement';
      if (this.maxVolumeGrowthVariation.isSet) t = withinVariation(t, this.volumeGrowth.value, this.maxVolumeGrowthVariation.value);
      t = Math.min(r.maxDisp, Math.max(r.minDisp, t));
    } else {
      r.mode = 'force';
      if (this.maxPressureVariation.isSet) t = withinVariation(t, this.pressure.value, this.maxPressureVariation.value);
      t = Math.min(r.maxForce, Math.max(r.minForce, t));
    }
    r.target = t;
    out[this.row] = r;
  }

  override storeLambda(lambda: Float64Array): void {
    const l = lambda[this.row];
    this.pressure.setValue(l);
    this.physicalPressure.setValue(l / this.context.getDt());
  }

  protected override afterStep(volume: number): void {
    this.volumeGrowth.setValue(volume - this.initialCavityVolume.value);
  }
}

/** t moved to within ±maxVariation of last. */
function withinVariation(t: number, last: number, maxVariation: number): number {
  const dv = Math.abs(maxVariation);
  return Math.min(last + dv, Math.max(last - dv, t));
}
