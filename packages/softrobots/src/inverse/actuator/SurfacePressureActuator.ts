import { Real, sofaComponent, type ConstraintOrder, type ConstraintResolution } from '@sofa-ts/core';
import { SurfacePressureModel } from '../../constraint/surface-pressure-model.js';
import { optional, type InverseConstraint, type InverseRows } from '../inverse-rows.js';

/**
 * SoftRobots' SurfacePressureActuator: a cavity (see SurfacePressureModel) whose pressure λ is an
 * unknown of the inverse problem. Its row is the volume growth
 *
 *   δ = |V(x_free)| − V₀,   J = ∂|V|/∂x   (faces out of the cavity, or into it with flipNormal),
 *
 * λ·J being the nodal load of the pressure, so λ is SOFA's impulse (pressure·dt) and
 * `physicalPressure` = λ/dt the pressure itself. Bounds:
 *   - λ in [minPressure, maxPressure] and, when maxPressureVariation is set, within that much of
 *     the last step's λ (sofa-ts applies SoftRobots' model Data to λ's bounds here);
 *   - δ in [minVolumeGrowth, maxVolumeGrowth] and within maxVolumeGrowthVariation of the last
 *     step's growth.
 * Unset bounds are absent; a window that misses the range moves towards it (variation-window.ts). `volumeGrowth` is the growth the solver gave the cavity
 * (δ = δ_free + W·λ, on which the bounds hold exactly); `cavityVolume` is measured on the positions
 * at the end of the step (the two differ by the non-linearity of V within one step).
 * The Data are those of SoftRobots' SurfacePressureModel (its inverse component's own Data are
 * not known to sofa-ts: epsilon follows CableActuator).
 */
@sofaComponent({
  name: 'SurfacePressureActuator',
  category: 'SoftRobots.Inverse',
  module: 'SoftRobots.Inverse',
  description:
    'A pressurised cavity whose pressure is found by the inverse problem solver (pneumatic or hydraulic actuation of a soft robot).',
  templates: ['Vec3d'],
})
export class SurfacePressureActuator extends SurfacePressureModel implements InverseConstraint {
  readonly inverseRole = 'actuator';
  readonly minPressure = this.initData({
    name: 'minPressure',
    type: Real,
    default: 0,
    help: 'lower bound on λ (SOFA impulse, pressure·dt; unbounded when not set; negative drains the cavity)',
  });
  readonly maxPressure = this.initData({
    name: 'maxPressure',
    type: Real,
    default: 0,
    help: 'upper bound on λ (SOFA impulse, pressure·dt; unbounded when not set)',
  });
  readonly maxPressureVariation = this.initData({
    name: 'maxPressureVariation',
    type: Real,
    default: 0,
    help: 'largest change of λ in one step (unbounded when not set)',
  });
  readonly minVolumeGrowth = this.initData({
    name: 'minVolumeGrowth',
    type: Real,
    default: 0,
    help: 'smallest volume growth |V| − V₀ (unbounded when not set)',
  });
  readonly maxVolumeGrowth = this.initData({
    name: 'maxVolumeGrowth',
    type: Real,
    default: 0,
    help: 'largest volume growth |V| − V₀ (unbounded when not set)',
  });
  readonly maxVolumeGrowthVariation = this.initData({
    name: 'maxVolumeGrowthVariation',
    type: Real,
    default: 0,
    help: 'largest change of the volume growth in one step (unbounded when not set)',
  });
  readonly epsilon = this.initData({
    name: 'epsilon',
    type: Real,
    default: 0,
    help: "this actuator's weight of the deformation energy in the QP (the solver's epsilon when not set)",
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
    help: 'volume growth given by the solver in the last step',
    output: true,
  });

  override reset(): void {
    super.reset();
    this.pressure.setValue(0);
    this.physicalPressure.setValue(0);
    this.volumeGrowth.setValue(0);
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder): void {
    out[this.row] = this.freeVolume(order) - this.initialCavityVolume.value;
  }

  getInverseRows(rows: InverseRows): void {
    const i = this.row;
    rows.setActuator(i, optional(this.epsilon, NaN));
    rows.boundForce(
      i,
      optional(this.minPressure, -Infinity),
      optional(this.maxPressure, Infinity),
      this.pressure.value,
      optional(this.maxPressureVariation, Infinity),
    );
    rows.boundDisplacement(
      i,
      optional(this.minVolumeGrowth, -Infinity),
      optional(this.maxVolumeGrowth, Infinity),
      this.volumeGrowth.value,
      optional(this.maxVolumeGrowthVariation, Infinity),
    );
  }

  storeResults(lambda: Float64Array, delta: Float64Array, dt: number): void {
    this.pressure.setValue(lambda[this.row]);
    this.physicalPressure.setValue(lambda[this.row] / dt);
    this.volumeGrowth.setValue(delta[this.row]);
  }

  getConstraintResolution(_out: Array<ConstraintResolution | undefined>): void {
    throw this.error(
      'an actuator is solved by an inverse problem solver',
      'add a QPInverseProblemSolver (or GaussSeidelInverseProblemSolver), or use SurfacePressureConstraint for direct actuation',
    );
  }
}
