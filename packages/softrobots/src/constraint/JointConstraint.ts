import { AnimateEndEvent, Enum, Real, sofaComponent, type ConstraintOrder, type ConstraintResolution, type SofaEvent } from '@sofa-ts/core';
import { ActuationResolution } from './actuation-resolution.js';
import { JointModel } from './joint-model.js';

/**
 * SoftRobots' JointConstraint (direct actuation of a joint coordinate): the coordinate `index` of a
 * Vec1 state (a joint angle or slide, e.g. the input of an articulated-chain mapping) is actuated
 * from its initial value q₀. One Lagrangian row at the free positions,
 *   δ = q − q₀,   J = 1 on that coordinate,
 * solved by the scene's constraint solver (actuation-resolution.ts):
 *   - valueType displacement: δ = value (clamped to [minDisplacement, maxDisplacement]), λ clamped
 *     to [minForce, maxForce];
 *   - valueType force: λ = value (clamped to [minForce, maxForce]), δ kept within
 *     [minDisplacement, maxDisplacement].
 * λ is SOFA's impulse (effort·dt, the `force` output); `physicalForce` = λ/dt beside it;
 * `displacement` is q − q₀ at the end of the step (SoftRobots measures it one step behind).
 */
@sofaComponent({
  name: 'JointConstraint',
  category: 'SoftRobots',
  module: 'SoftRobots',
  description: 'Imposes the displacement of (or the effort on) a joint coordinate of a Vec1 state, solved as a Lagrangian constraint.',
  templates: ['Vec1d'],
})
export class JointConstraint extends JointModel {
  readonly value = this.initData({ name: 'value', type: Real, default: 0, help: 'displacement or effort (SOFA impulse λ) to impose' });
  readonly valueType = this.initData({
    name: 'valueType',
    type: Enum(['displacement', 'force'] as const),
    default: 'displacement',
    help: 'displacement: impose q − q₀; force: impose λ',
  });
  readonly maxForce = this.initData({ name: 'maxForce', type: Real, default: 0, help: 'upper bound on λ (unbounded when not set)' });
  readonly minForce = this.initData({ name: 'minForce', type: Real, default: 0, help: 'lower bound on λ (unbounded when not set)' });
  readonly maxDisplacement = this.initData({
    name: 'maxDisplacement',
    type: Real,
    default: 0,
    help: 'upper bound on q − q₀ (unbounded when not set)',
  });
  readonly minDisplacement = this.initData({
    name: 'minDisplacement',
    type: Real,
    default: 0,
    help: 'lower bound on q − q₀ (unbounded when not set)',
  });

  readonly force = this.initData({
    name: 'force',
    type: Real,
    default: 0,
    help: 'λ of the last step (SOFA impulse, effort·dt)',
    output: true,
  });
  readonly physicalForce = this.initData({
    name: 'physicalForce',
    type: Real,
    default: 0,
    help: 'effort of the last step, λ/dt (sofa-ts)',
    output: true,
  });
  readonly displacement = this.initData({
    name: 'displacement',
    type: Real,
    default: 0,
    help: 'q − q₀ at the end of the last step',
    output: true,
  });

  private readonly resolutionObj = new ActuationResolution();

  override init(): void {
    super.init();
    this.displacement.setValue(0);
    this.force.setValue(0);
  }

  override reset(): void {
    this.displacement.setValue(0);
    this.force.setValue(0);
    this.physicalForce.setValue(0);
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder): void {
    out[this.row] = this.freeCoordinate(order) - this.initialCoordinate;
  }

  getConstraintResolution(out: Array<ConstraintResolution | undefined>): void {
    const r = this.resolutionObj;
    r.minForce = this.minForce.isSet ? this.minForce.value : -Infinity;
    r.maxForce = this.maxForce.isSet ? this.maxForce.value : Infinity;
    r.minDisp = this.minDisplacement.isSet ? this.minDisplacement.value : -Infinity;
    r.maxDisp = this.maxDisplacement.isSet ? this.maxDisplacement.value : Infinity;
    const v = this.value.value;
    if (this.valueType.value === 'force') {
      r.mode = 'force';
      r.target = Math.min(r.maxForce, Math.max(r.minForce, v));
    } else {
      r.mode = 'displacement';
      r.target = Math.min(r.maxDisp, Math.max(r.minDisp, v));
    }
    out[this.row] = r;
  }

  override storeLambda(lambda: Float64Array): void {
    const l = lambda[this.row];
    this.force.setValue(l);
    this.physicalForce.setValue(l / this.context.getDt());
  }

  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateEndEvent) || this.states.length === 0) return;
    this.displacement.setValue(this.coordinate() - this.initialCoordinate);
  }
}
