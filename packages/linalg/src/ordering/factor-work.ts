import { columnCounts, eliminationTree, upperColumns } from '../ldlt-analysis.js';
import { invertPermutation } from './permutation.js';

/** What factorising P·A·Pᵀ = L·D·Lᵀ costs for an ordering, from the pattern alone. */
export interface FactorWork {
  /** Entries of L below its diagonal. */
  nnzL: number;
  /** Multiply-adds of the elimination: Σ_j c_j(c_j + 1)/2, c_j the entries of column j of L below the diagonal. */
  multiplyAdds: number;
}

/**
 * The size and the work of the LDLᵀ factor of the symmetric pattern (rowPtr (n+1), colInd; both
 * triangles stored, the upper one read, the diagonal optional: symmetricAdjacency's graph will do)
 * under the ordering perm (new → old): the elimination tree
 * and the column counts of the symbolic analysis, without the factor. Eliminating column j updates
 * the c_j(c_j + 1)/2 entries (i ≥ k) of the trailing matrix that its entries pair up.
 * Allocates (analysis-time work), O(nnz(A)·α) besides the counts.
 */
export function factorWork(n: number, rowPtr: Int32Array, colInd: Int32Array, perm: Int32Array): FactorWork {
  const pattern = { rows: n, cols: n, rowPtr, colInd, values: new Float64Array(0) };
  const { ptr, row } = upperColumns(pattern, 'full', invertPermutation(perm));
  const counts = columnCounts(n, ptr, row, eliminationTree(n, ptr, row));
  let nnzL = 0;
  let multiplyAdds = 0;
  for (let j = 0; j < n; j++) {
    const c = counts[j];
    nnzL += c;
    multiplyAdds += (c * (c + 1)) / 2;
  }
  return { nnzL, multiplyAdds };
}
