import { sofaComponent } from '@sofa-ts/core';
import { naturalOrdering } from '@sofa-ts/linalg';
import { BaseOrderingMethod } from './ordering-method.js';

/** SOFA's NaturalOrderingMethod: the identity permutation, perm[k] = k (no fill reduction). */
@sofaComponent({
  name: 'NaturalOrderingMethod',
  category: 'OrderingMethod',
  module: 'Sofa.Component.LinearSolver.Ordering',
  description: 'Natural order (no permutation): the matrix is factorised as it is assembled.',
})
export class NaturalOrderingMethod extends BaseOrderingMethod {
  get methodName(): string {
    return 'Natural';
  }

  computePermutation(n: number): Int32Array {
    return naturalOrdering(n);
  }
}
