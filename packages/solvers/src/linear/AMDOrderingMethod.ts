import { sofaComponent } from '@sofa-ts/core';
import { amdOrdering } from '@sofa-ts/linalg';
import { BaseOrderingMethod } from './ordering-method.js';

/**
 * SOFA's AMDOrderingMethod: approximate minimum degree (Amestoy, Davis & Duff 1996) on the
 * symmetrised pattern A + Aᵀ. The default ordering of the direct solvers.
 */
@sofaComponent({
  name: 'AMDOrderingMethod',
  category: 'OrderingMethod',
  module: 'Sofa.Component.LinearSolver.Ordering',
  description: 'Approximate minimum degree ordering, reducing the fill of a sparse factorization.',
})
export class AMDOrderingMethod extends BaseOrderingMethod {
  get methodName(): string {
    return 'AMD';
  }

  computePermutation(n: number, rowPtr: Int32Array, colInd: Int32Array): Int32Array {
    return amdOrdering(n, rowPtr, colInd);
  }
}
