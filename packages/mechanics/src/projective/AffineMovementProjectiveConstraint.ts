import { RealArray, sofaComponent } from '@sofa-ts/core';
import { InterpolatedMovementConstraint } from './interpolated-movement.js';

/**
 * SOFA's AffineMovementProjectiveConstraint: the points go, between beginConstraintTime and
 * endConstraintTime, from their initial positions x0 to the affine image xf = R·x0 + T
 * (`rotation` R, a 3×3 matrix written row by row, `translation` T), linearly in time
 * (interpolated-movement.ts). Used for patch tests: the mesh between the moved border points
 * should then follow the same affine map. sofa-ts's default R is the identity (SOFA's is zero).
 */
@sofaComponent({
  name: 'AffineMovementProjectiveConstraint',
  aliases: ['AffineMovementConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Move given points by an affine transformation, linearly in time.',
  templates: ['Vec3d'],
})
export class AffineMovementProjectiveConstraint extends InterpolatedMovementConstraint {
  readonly rotation = this.initData({
    name: 'rotation',
    type: RealArray(0, 'Mat3x3d'),
    default: Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1),
    help: 'rotation applied to the border points (3×3 matrix, row by row)',
  });
  readonly quaternion = this.initData({
    name: 'quaternion',
    type: RealArray(0, 'Quatd'),
    default: Float64Array.of(0, 0, 0, 1),
    help: 'quaternion applied to border points (Rigid templates only)',
  });
  readonly translation = this.initData({
    name: 'translation',
    type: RealArray(0, 'Vec3d'),
    default: Float64Array.of(0, 0, 0),
    unit: 'm',
    help: 'translation applied to the border points',
  });

  override init(): void {
    super.init();
    if (this.rotation.value.length !== 9) throw this.error(`'rotation' needs a 3×3 matrix (9 numbers), got ${this.rotation.value.length}`);
    if (this.translation.value.length !== 3) throw this.error(`'translation' needs 3 numbers, got ${this.translation.value.length}`);
  }

  /** xf = R·x0 + T. */
  protected finalPositions(xf: Float64Array, x0: Float64Array): void {
    const R = this.rotation.value,
      T = this.translation.value;
    for (let j = 0; j < x0.length / 3; j++) {
      for (let r = 0; r < 3; r++) xf[3 * j + r] = R[3 * r] * x0[3 * j] + R[3 * r + 1] * x0[3 * j + 1] + R[3 * r + 2] * x0[3 * j + 2] + T[r];
    }
  }
}
