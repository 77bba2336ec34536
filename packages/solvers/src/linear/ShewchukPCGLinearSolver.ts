import { sofaComponent } from '@sofa-ts/core';
import { PcgLinearSolverBase } from './pcg-base.js';

/**
 * SOFA's ShewchukPCGLinearSolver: the preconditioned conjugate gradient of Shewchuk's "An
 * introduction to the conjugate gradient method without the agonizing pain" (B2), the same
 * iteration as PCGLinearSolver, refreshing the preconditioner every `update_step` solves (or only
 * once with build_precond = false).
 */
@sofaComponent({
  name: 'ShewchukPCGLinearSolver',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Iterative',
  description: 'Preconditioned conjugate gradient after Shewchuk, with a preconditioner refreshed every update_step solves.',
  templates: ['GraphScattered', 'CompressedRowSparseMatrixd', 'CompressedRowSparseMatrixMat3x3d'],
  defaultTemplate: 'GraphScattered',
})
export class ShewchukPCGLinearSolver extends PcgLinearSolverBase {}
