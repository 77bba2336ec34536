import { sofaComponent } from '@sofa-ts/core';
import { nestedDissectionOrdering } from '@sofa-ts/linalg';
import { BaseOrderingMethod } from './ordering-method.js';

/**
 * SOFA's MetisOrderingMethod, with this project's own nested dissection in place of the METIS
 * library: level-structure separators from pseudo-peripheral vertices, halves ordered
 * recursively, separators last, parts of at most 64 vertices ordered by approximate minimum
 * degree (see nestedDissectionOrdering). The permutation differs from METIS's, so factors differ
 * in fill, not in the solution.
 */
@sofaComponent({
  name: 'MetisOrderingMethod',
  category: 'OrderingMethod',
  module: 'Sofa.Metis',
  description: 'Nested dissection ordering (graph separators numbered last), reducing the fill of a sparse factorization.',
})
export class MetisOrderingMethod extends BaseOrderingMethod {
  get methodName(): string {
    return 'Metis';
  }

  computePermutation(n: number, rowPtr: Int32Array, colInd: Int32Array): Int32Array {
    return nestedDissectionOrdering(n, rowPtr, colInd);
  }
}
