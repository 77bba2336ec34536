import { sofaComponent } from '@sofa-ts/core';
import { MatrixLinearSystem } from './MatrixLinearSystem.js';

/**
 * SOFA's ConstantSparsityPatternSystem: a MatrixLinearSystem that records where each local
 * contribution lands in the compressed global matrix at the first assembly and only refills the
 * values afterwards. That is how sofa-ts's compiled system always assembles (pattern built once,
 * values refilled; the pattern is rebuilt when a topology changes, where SOFA's would go wrong).
 */
@sofaComponent({
  name: 'ConstantSparsityPatternSystem',
  category: 'LinearSystem',
  module: 'Sofa.Component.LinearSystem',
  description: 'Linear system assembled on a sparsity pattern built once and refilled at each step.',
  templates: ['CompressedRowSparseMatrixd'],
  defaultTemplate: 'CompressedRowSparseMatrixd',
})
export class ConstantSparsityPatternSystem extends MatrixLinearSystem {}
