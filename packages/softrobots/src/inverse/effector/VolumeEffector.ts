import { Real, sofaComponent, type ConstraintOrder, type ConstraintResolution } from '@sofa-ts/core';
import { SurfacePressureModel } from '../../constraint/surface-pressure-model.js';
import type { InverseConstraint, InverseRows } from '../inverse-rows.js';

/**
 * SoftRobots' VolumeEffector: the volume of a cavity (see SurfacePressureModel; no pressure acts on
 * it) is an effector of the inverse problem, driven towards `desiredVolume` in the least-squares
 * sense with `weight`. Its row is
 *
 *   δ = |V(x_free)| − desiredVolume,   J = ∂|V|/∂x   (faces out of the cavity, or into it with flipNormal).
 *
 * desiredVolume defaults to the initial volume V₀ (the cavity is held). `delta` is δ = δ_free + W·λ
 * predicted by the solver, `cavityVolume` the volume measured at the end of the step. The Data
 * (desiredVolume, weight, delta) follow the other effectors of sofa-ts (CableEffector's
 * desiredLength); SoftRobots.Inverse's own are not known to sofa-ts.
 */
@sofaComponent({
  name: 'VolumeEffector',
  category: 'SoftRobots.Inverse',
  module: 'SoftRobots.Inverse',
  description: 'The volume of a cavity, brought by the inverse problem to a desired volume (effector).',
  templates: ['Vec3d'],
})
export class VolumeEffector extends SurfacePressureModel implements InverseConstraint {
  readonly inverseRole = 'effector';
  readonly desiredVolume = this.initData({
    name: 'desiredVolume',
    type: Real,
    default: 0,
    help: 'the cavity volume to reach (default: the initial volume)',
  });
  readonly weight = this.initData({
    name: 'weight',
    type: Real,
    default: 1,
    help: 'weight of this effector in the least-squares objective',
  });
  readonly delta = this.initData({
    name: 'delta',
    type: Real,
    default: 0,
    help: '|V| − desiredVolume predicted by the solver in the last step',
    output: true,
  });

  /** desiredVolume was not given: it follows V₀ (measured at init and again at bwdInit). */
  private goalIsInitialVolume = false;

  override init(): void {
    this.goalIsInitialVolume = !this.desiredVolume.isSet;
    super.init();
    if (this.goalIsInitialVolume) this.desiredVolume.setValue(this.initialCavityVolume.value);
  }

  override bwdInit(): void {
    super.bwdInit();
    if (this.goalIsInitialVolume) this.desiredVolume.setValue(this.initialCavityVolume.value);
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder): void {
    out[this.row] = this.freeVolume(order) - this.desiredVolume.value;
  }

  getInverseRows(rows: InverseRows): void {
    rows.setEffector(this.row, this.weight.value);
  }

  storeResults(_lambda: Float64Array, delta: Float64Array): void {
    this.delta.setValue(delta[this.row]);
  }

  getConstraintResolution(_out: Array<ConstraintResolution | undefined>): void {
    throw this.error('an effector is solved by an inverse problem solver', 'add a QPInverseProblemSolver');
  }
}
