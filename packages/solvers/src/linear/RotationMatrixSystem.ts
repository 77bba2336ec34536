import { Int, sofaComponent } from '@sofa-ts/core';
import { TypedMatrixLinearSystem, isMatrixLinearSystem } from '../linear-system/TypedMatrixLinearSystem.js';
import { findRotationFinder, isRotationFinder, type RotationFinder } from './rotation-finder.js';

/**
 * SOFA's RotationMatrixSystem: the linear system of a WarpPreconditioner, a block-diagonal matrix of
 * per-node rotations R. Every `assemblingRate` builds it rebuilds the main assembled system (the
 * matrix the warp's linear solver factorises) and R becomes the identity; in between R holds the
 * node rotations given by the rotation finder (a corotational force field of the node), so that
 * R·A⁻¹·Rᵀ follows the rotation of the material since the last factorisation.
 */
@sofaComponent({
  name: 'RotationMatrixSystem',
  category: 'LinearSystem',
  module: 'Sofa.Component.LinearSolver.Preconditioner',
  description: 'Rotation matrix of a warped preconditioner, rebuilding the main assembled system every assemblingRate builds.',
  templates: ['RotationMatrixd'],
  defaultTemplate: 'RotationMatrixd',
})
export class RotationMatrixSystem extends TypedMatrixLinearSystem {
  readonly isRotationMatrixSystem = true;
  readonly assemblingRate = this.initData({
    name: 'assemblingRate',
    type: Int,
    default: 1,
    help: 'the main system is rebuilt (and the rotations reset to identity) every this many builds',
  });
  readonly mainSystem = this.initLink<TypedMatrixLinearSystem>({
    name: 'mainSystem',
    help: 'the main assembled linear system that is warped (default: the first assembled system of the node)',
    accepts: (o): o is TypedMatrixLinearSystem =>
      isMatrixLinearSystem(o) && o !== this && !(o as { isRotationMatrixSystem?: boolean }).isRotationMatrixSystem,
    expected: 'an assembled linear system (MatrixLinearSystem, ...)',
    search: 'local',
  });
  readonly rotationFinder = this.initLink<RotationFinder>({
    name: 'rotationFinder',
    help: 'the component giving the node rotations (default: the first of the node)',
    accepts: isRotationFinder,
    expected: 'a rotation finder (a corotational force field)',
  });
  private counter = 0;
  /** Checkpoint: the counter of assemblies. */
  readonly checkpointFields = ['counter'] as const;

  override init(): void {
    super.init();
    if (this.assemblingRate.value < 1) throw this.error(`assemblingRate must be >= 1 (got ${this.assemblingRate.value})`);
    if (!this.rotationFinder.get()) this.rotationFinder.set(findRotationFinder(this));
    if (this.assemblingRate.value > 1 && !this.rotationFinder.get()) {
      throw this.error(
        'a rotation finder is needed between two assemblies (assemblingRate > 1), and no component of this node gives node rotations',
        'with assemblingRate="1" the rotations are always the identity and none is needed',
      );
    }
    this.counter = this.assemblingRate.value;
  }

  override reset(): void {
    this.counter = this.assemblingRate.value;
  }

  /** Called at each build: true when the main system is rebuilt now (rotations back to identity). */
  rebuildMainDue(): boolean {
    if (++this.counter >= this.assemblingRate.value) {
      this.counter = 0;
      return true;
    }
    return false;
  }
}

export function isRotationMatrixSystem(o: unknown): o is RotationMatrixSystem {
  return typeof o === 'object' && o !== null && (o as { isRotationMatrixSystem?: unknown }).isRotationMatrixSystem === true;
}
