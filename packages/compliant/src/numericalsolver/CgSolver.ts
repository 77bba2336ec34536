import { sofaComponent } from '@sofa-ts/core';
import { CgWorkspace, conjugateGradient, type LinearOperator } from '@sofa-ts/linalg';
import { KrylovKKTSolver } from './krylov-solver.js';
import type { KrylovResult } from './minres.js';

/**
 * The Compliant plugin's CgSolver: conjugate gradients on the Schur complement of the constraints
 * when the node has a Response (symmetric positive definite), otherwise on the whole KKT system
 * (symmetric but indefinite: CG may stall there; MinresSolver is the safe choice).
 */
@sofaComponent({
  name: 'CgSolver',
  category: 'LinearSolver',
  module: 'Compliant',
  description: 'Iterative conjugate gradient solver of KKT systems (Schur complement with a Response, full KKT otherwise).',
})
export class CgSolver extends KrylovKKTSolver {
  private ws = new CgWorkspace(0);

  protected get method(): string {
    return 'cg';
  }

  protected iterate(
    apply: LinearOperator,
    b: Float64Array,
    x: Float64Array,
    maxIterations: number,
    tolerance: number,
    out: KrylovResult,
  ): void {
    if (this.ws.n !== b.length) this.ws = new CgWorkspace(b.length);
    let nb = 0;
    for (let i = 0; i < b.length; i++) nb += b[i] * b[i];
    nb = Math.sqrt(nb);
    // |r| ≤ tolerance, as a tolerance on |r|/|b| for the linalg kernel
    const r = conjugateGradient(
      apply,
      b,
      x,
      { maxIterations, tolerance: nb > 0 ? tolerance / nb : 0, threshold: 0, warmStart: true, firstSolve: false },
      this.ws,
    );
    out.iterations = r.iterations;
    out.residual = r.residual * nb;
  }
}
