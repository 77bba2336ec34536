import { Real, sofaComponent, type ConstraintOrder, type ConstraintResolution } from '@sofa-ts/core';
import { SurfacePressureModel } from '../../constraint/surface-pressure-model.js';
import type { InverseConstraint, InverseRows } from '../inverse-rows.js';

/**
 * SoftRobots' SurfacePressureEquality: a cavity (see SurfacePressureModel) whose pressure λ is an
 * unknown of the inverse problem, under an equality: its volume growth δ = |V(x_free)| − V₀ + W·λ
 * equals `eqVolumeGrowth` (when set), or else λ equals `eqPressure` (SOFA impulse, pressure·dt,
 * as the direct SurfacePressureConstraint's value). Outputs as SurfacePressureActuator's:
 * `pressure` (λ), `physicalPressure` (λ/dt), `volumeGrowth` (the solver's δ), `cavityVolume`
 * (measured at the end of the step). Solved by QPInverseProblemSolver.
 */
@sofaComponent({
  name: 'SurfacePressureEquality',
  category: 'SoftRobots.Inverse',
  module: 'SoftRobots.Inverse',
  description: 'A cavity of the inverse problem held at a given volume growth or pressure (equality constraint).',
  templates: ['Vec3d'],
})
export class SurfacePressureEquality extends SurfacePressureModel implements InverseConstraint {
  readonly inverseRole = 'equality';
  readonly eqVolumeGrowth = this.initData({
    name: 'eqVolumeGrowth',
    type: Real,
    default: 0,
    help: 'the volume growth |V| − V₀ to hold (takes precedence over eqPressure)',
  });
  readonly eqPressure = this.initData({
    name: 'eqPressure',
    type: Real,
    default: 0,
    help: 'the λ to hold when eqVolumeGrowth is not set (SOFA impulse, pressure·dt)',
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

  override init(): void {
    super.init();
    if (!this.eqVolumeGrowth.isSet && !this.eqPressure.isSet)
      throw this.error('neither eqVolumeGrowth nor eqPressure is set: give the value to hold');
  }

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
    if (this.eqVolumeGrowth.isSet) rows.setEqualityOnDisplacement(this.row, this.eqVolumeGrowth.value);
    else rows.setEqualityOnForce(this.row, this.eqPressure.value);
  }

  storeResults(lambda: Float64Array, delta: Float64Array, dt: number): void {
    this.pressure.setValue(lambda[this.row]);
    this.physicalPressure.setValue(lambda[this.row] / dt);
    this.volumeGrowth.setValue(delta[this.row]);
  }

  getConstraintResolution(_out: Array<ConstraintResolution | undefined>): void {
    throw this.error(
      'an equality of the inverse problem is solved by QPInverseProblemSolver',
      'use SurfacePressureConstraint for direct actuation',
    );
  }
}
