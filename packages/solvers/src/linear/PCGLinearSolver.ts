import { sofaComponent } from '@sofa-ts/core';
import { PcgLinearSolverBase } from './pcg-base.js';

/**
 * SOFA's PCGLinearSolver: preconditioned conjugate gradient (see sofaPcg for the iteration and
 * its stopping rule rᵀM⁻¹r <= tolerance·bᵀb, at most `iterations` updates). The solution vector
 * given by the ODE solver is the initial guess (for EulerImplicitSolver, the previous Δv).
 */
@sofaComponent({
  name: 'PCGLinearSolver',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Iterative',
  description: 'Preconditioned conjugate gradient, warm-started from the previous solution.',
  templates: ['GraphScattered', 'CompressedRowSparseMatrixd', 'CompressedRowSparseMatrixMat3x3d'],
  defaultTemplate: 'GraphScattered',
})
export class PCGLinearSolver extends PcgLinearSolverBase {}
