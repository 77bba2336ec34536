import { Real, UInt, sofaComponent } from '@sofa-ts/core';
import { crsTemplates } from './matrix-linear-solver.js';
import { SparseCholeskySolver } from './SparseCholeskySolver.js';

/**
 * SOFA's SparseTAUCSLLtSolver (the TAUCS library's A = L·Lᵀ, an old SOFA solver the
 * PersistentContact scenes still name), solved by sofa-ts's sparse Cholesky (SparseCholeskySolver):
 * the same factorization of a symmetric positive definite matrix. What TAUCS offered beyond it is
 * not honoured, with one located warning: an incomplete factorization (ic_dropTol ≠ 0; sofa-ts
 * factorizes exactly) and several processors (nproc_simu ≠ 1).
 */
@sofaComponent({
  name: 'SparseTAUCSLLtSolver',
  category: 'LinearSolver',
  module: 'SofaTaucsSolver',
  description: 'Direct linear solvers implemented with the TAUCS library (in sofa-ts: the sparse Cholesky LLᵀ of SparseCholeskySolver).',
  templates: crsTemplates,
  defaultTemplate: 'CompressedRowSparseMatrixd',
})
export class SparseTAUCSLLtSolver extends SparseCholeskySolver {
  readonly icDropTol = this.initData({
    name: 'ic_dropTol',
    type: Real,
    default: 0,
    help: 'Drop tolerance use for incomplete factorization',
  });
  readonly nprocSimu = this.initData({ name: 'nproc_simu', type: UInt, default: 1, help: 'NB proc used for the simulation' });

  override init(): void {
    super.init();
    const differs: string[] = [];
    if (this.icDropTol.value !== 0) differs.push(`ic_dropTol=${this.icDropTol.value} (the factorization is complete)`);
    if (this.nprocSimu.value !== 1) differs.push(`nproc_simu=${this.nprocSimu.value} (one thread)`);
    if (differs.length > 0) this.warn(`solved by sofa-ts's sparse Cholesky, which ignores ${differs.join(', ')}`);
  }
}
