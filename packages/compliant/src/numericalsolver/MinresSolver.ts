import { sofaComponent } from '@sofa-ts/core';
import type { LinearOperator } from '@sofa-ts/linalg';
import { KrylovKKTSolver } from './krylov-solver.js';
import { MinresWorkspace, minres, type KrylovResult } from './minres.js';

/**
 * The Compliant plugin's MinresSolver: MINRES on the KKT system, which suits its symmetric
 * indefinite form; on the Schur complement when the node has a Response (see KrylovKKTSolver).
 */
@sofaComponent({
  name: 'MinresSolver',
  category: 'LinearSolver',
  module: 'Compliant',
  description: 'Iterative MINRES solver of KKT systems (Schur complement with a Response, full KKT otherwise).',
})
export class MinresSolver extends KrylovKKTSolver {
  private readonly ws = new MinresWorkspace();

  protected get method(): string {
    return 'minres';
  }

  protected iterate(
    apply: LinearOperator,
    b: Float64Array,
    x: Float64Array,
    maxIterations: number,
    tolerance: number,
    out: KrylovResult,
  ): void {
    minres(apply, b, x, maxIterations, tolerance, this.ws, out);
  }
}
