import { sofaComponent } from '@sofa-ts/core';
import { TypedMatrixLinearSystem } from '../linear-system/TypedMatrixLinearSystem.js';

/**
 * SOFA's PrecomputedMatrixSystem: the linear system of a PrecomputedWarpPreconditioner. It
 * assembles nothing of its own: the preconditioner inverts a matrix once, at its first use (the
 * matrix it is handed, or the factorisation of the linear solver it links), and keeps that inverse.
 */
@sofaComponent({
  name: 'PrecomputedMatrixSystem',
  category: 'LinearSystem',
  module: 'Sofa.Component.LinearSolver.Preconditioner',
  description: 'Linear system of a precomputed preconditioner: the matrix is inverted once and kept.',
  templates: ['CompressedRowSparseMatrixd'],
  defaultTemplate: 'CompressedRowSparseMatrixd',
})
export class PrecomputedMatrixSystem extends TypedMatrixLinearSystem {
  readonly isPrecomputedMatrixSystem = true;
}
