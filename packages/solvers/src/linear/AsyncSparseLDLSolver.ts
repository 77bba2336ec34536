import { sofaComponent } from '@sofa-ts/core';
import { SparseLDLSolver } from '../SparseLDLSolver.js';
import { crsTemplates } from './matrix-linear-solver.js';

/**
 * SOFA's AsyncSparseLDLSolver: SparseLDLSolver whose factorisation runs in a thread beside the
 * simulation (a step may use the factorisation of an earlier matrix while the new one is computed).
 * sofa-ts runs on one thread: the factorisation is done in the step, so the results are those of
 * SparseLDLSolver with an up-to-date factorisation at every solve.
 */
@sofaComponent({
  name: 'AsyncSparseLDLSolver',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Direct',
  description: 'Direct linear solver based on a sparse LDL^T factorization, factorised asynchronously in SOFA (sequentially in sofa-ts).',
  templates: crsTemplates,
  defaultTemplate: 'CompressedRowSparseMatrixMat3x3d',
})
export class AsyncSparseLDLSolver extends SparseLDLSolver {}
