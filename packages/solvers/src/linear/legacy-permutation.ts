import { Enum } from '@sofa-ts/core';

/** The old `permutation` option of SparseLUSolver / SparseCholeskySolver and its ordering name. */
export const LegacyPermutation = Enum(['None', 'SuiteSparse', 'METIS']);

/** None → Natural, SuiteSparse (CSparse's AMD) → AMD, METIS → Metis. */
export function orderingOfPermutation(p: string): 'Natural' | 'AMD' | 'Metis' {
  return p === 'None' ? 'Natural' : p === 'SuiteSparse' ? 'AMD' : 'Metis';
}
