import { BaseObject, Int, sofaComponent } from '@sofa-ts/core';

/**
 * SOFA's PreconditionedMatrixFreeSystem: the matrix-free system of a preconditioned conjugate
 * gradient (A·p computed over the scene graph, never assembled), which also rebuilds the matrix of
 * the preconditioner's own linear system every `assemblingRate` solves: the first solve, then each
 * assemblingRate-th one. The PCGLinearSolver linked to it (or of its node) asks it when to hand a new
 * matrix to its preconditioner.
 */
@sofaComponent({
  name: 'PreconditionedMatrixFreeSystem',
  category: 'LinearSystem',
  module: 'Sofa.Component.LinearSolver.Iterative',
  description: 'Matrix-free linear system of a preconditioned CG, rebuilding the preconditioner matrix every assemblingRate solves.',
  templates: ['GraphScattered'],
  defaultTemplate: 'GraphScattered',
})
export class PreconditionedMatrixFreeSystem extends BaseObject {
  readonly isPreconditionedMatrixFreeSystem = true;
  readonly assemblingRate = this.initData({
    name: 'assemblingRate',
    type: Int,
    default: 1,
    help: 'the preconditioner matrix is rebuilt every this many solves (time steps or Newton iterations)',
    aliases: ['update_step'],
  });
  /** Solves since the last rebuild (SOFA's counter: starts at the rate so that the first solve rebuilds). */
  private counter = 0;
  /** Checkpoint: the counter of solves. */
  readonly checkpointFields = ['counter'] as const;

  override init(): void {
    if (this.assemblingRate.value < 1) throw this.error(`assemblingRate must be >= 1 (got ${this.assemblingRate.value})`);
    this.counter = this.assemblingRate.value;
  }

  override reset(): void {
    this.counter = this.assemblingRate.value;
  }

  /** Called once per solve: true when the preconditioner matrix is to be rebuilt now. */
  rebuildDue(): boolean {
    if (++this.counter >= this.assemblingRate.value) {
      this.counter = 0;
      return true;
    }
    return false;
  }
}

export function isPreconditionedMatrixFreeSystem(o: unknown): o is PreconditionedMatrixFreeSystem {
  return (
    typeof o === 'object' && o !== null && (o as { isPreconditionedMatrixFreeSystem?: unknown }).isPreconditionedMatrixFreeSystem === true
  );
}
