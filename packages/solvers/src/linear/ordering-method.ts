import { BaseObject } from '@sofa-ts/core';

/**
 * A fill-reducing ordering component (SOFA BaseOrderingMethod): given the pattern of a square
 * matrix, a permutation `perm` (new → old) such that factorising A(perm, perm) creates little fill.
 * Direct solvers find it in their own node (`orderingMethod` link) and ask it once per pattern.
 */
export abstract class BaseOrderingMethod extends BaseObject {
  readonly isOrderingMethod = true;

  /** perm (n), new → old, for the pattern (rowPtr (n+1), colInd) of an n x n matrix. Allocates. */
  abstract computePermutation(n: number, rowPtr: Int32Array, colInd: Int32Array): Int32Array;

  /** The method's name as SOFA prints it ('AMD', 'Natural', 'Metis'). */
  abstract get methodName(): string;
}

export function isOrderingMethod(o: unknown): o is BaseOrderingMethod {
  return typeof o === 'object' && o !== null && (o as { isOrderingMethod?: unknown }).isOrderingMethod === true;
}
