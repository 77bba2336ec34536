/**
 * The symbolic analysis that SparseLDLT and SupernodalLDLT share, for P A Pᵀ = L D Lᵀ of a
 * symmetric A given as square CSR: the fill-reducing ordering, the read triangle of P A Pᵀ by
 * columns (with the A-slot of each entry), the elimination tree and the column counts of L.
 * Everything here allocates (analysis time, not step time).
 */
import { type CsrMatrix, csrNnz } from './csr.js';
import { amdOrdering } from './ordering/amd.js';
import { naturalOrdering } from './ordering/natural.js';

/** Which part of the symmetric matrix A is stored/read. */
export type SymmetricStorage = 'full' | 'upper' | 'lower';

/** Fill-reducing ordering for an LDLᵀ analyze: a name or an explicit perm (new → old). */
export type LdltOrdering = 'amd' | 'natural' | Int32Array | readonly number[];

export interface LdltAnalyzeOptions {
  /**
   * 'full' (default): A holds both triangles of a symmetric matrix; only the upper triangle
   * (row ≤ column) is read. 'upper' / 'lower': A holds only that triangle (others are ignored).
   */
  storage?: SymmetricStorage;
  /** A pivot with |D_k| <= pivotTolerance (or non-finite) is reported as zero. Default 0. */
  pivotTolerance?: number;
}

/** Order n of the square A; `who` (the class) names the error otherwise. */
export function squareOrder(A: CsrMatrix, who: string): number {
  if (A.rows !== A.cols) throw new Error(`${who}.analyze: matrix must be square, got ${A.rows}x${A.cols}`);
  return A.rows;
}

/** Throws unless an analysis of order n with nnzA stored entries has run and A still fits it (n, nnz only). */
export function checkAnalysedPattern(A: CsrMatrix, analyzed: boolean, n: number, nnzA: number, who: string): void {
  if (!analyzed) throw new Error(`${who}.factorize: analyze first`);
  if (A.rows !== n || csrNnz(A) !== nnzA) {
    throw new Error(`${who}.factorize: matrix pattern differs from the analysed one (re-run analyze)`);
  }
}

/** The requested ordering of A (new → old), n entries; `who` names the error on a wrong length. */
export function fillReducingOrdering(A: CsrMatrix, ordering: LdltOrdering, who: string): Int32Array {
  const n = A.rows;
  let perm: Int32Array;
  if (ordering === 'amd') perm = amdOrdering(n, A.rowPtr, A.colInd);
  else if (ordering === 'natural') perm = naturalOrdering(n);
  else perm = Int32Array.from(ordering);
  if (perm.length !== n) throw new Error(`${who}.analyze: ordering has ${perm.length} entries, expected ${n}`);
  return perm;
}

/** Number of negative entries of D (the negative eigenvalues of A, by Sylvester's law of inertia). */
export function countNegative(D: Float64Array): number {
  let c = 0;
  for (let k = 0; k < D.length; k++) if (D[k] < 0) c++;
  return c;
}

/** Pattern of a triangle of P A Pᵀ by columns, in the new numbering. */
export interface ColumnPattern {
  /** (n+1) column pointers. */
  ptr: Int32Array;
  /** (nnz) row index (new numbering) of each entry. */
  row: Int32Array;
  /** (nnz) slot in A.values of each entry. */
  src: Int32Array;
}

// Whether entry (r, c) of A belongs to the triangle read for the given storage.
function readEntry(storage: SymmetricStorage, r: number, c: number): boolean {
  return storage === 'lower' ? r >= c : r <= c;
}

/**
 * The read triangle of A mapped through pinv and stored by columns of the new numbering: an entry
 * (r, c) lands at (min, max) of (pinv r, pinv c) for the upper triangle (row ≤ column), at (max, min)
 * for the lower one. Within a column, entries keep the order in which A is visited (row by row).
 */
function trianglePattern(A: CsrMatrix, storage: SymmetricStorage, pinv: Int32Array, upper: boolean): ColumnPattern {
  const n = A.rows;
  const { rowPtr, colInd } = A;
  const ptr = new Int32Array(n + 1);
  for (let r = 0; r < n; r++) {
    for (let q = rowPtr[r]; q < rowPtr[r + 1]; q++) {
      const c = colInd[q];
      if (!readEntry(storage, r, c)) continue;
      const a = pinv[r];
      const b = pinv[c];
      ptr[(upper ? Math.max(a, b) : Math.min(a, b)) + 1]++;
    }
  }
  for (let j = 0; j < n; j++) ptr[j + 1] += ptr[j];
  const row = new Int32Array(ptr[n]);
  const src = new Int32Array(ptr[n]);
  const pos = ptr.slice(0, n);
  for (let r = 0; r < n; r++) {
    for (let q = rowPtr[r]; q < rowPtr[r + 1]; q++) {
      const c = colInd[q];
      if (!readEntry(storage, r, c)) continue;
      const a = pinv[r];
      const b = pinv[c];
      const col = upper ? Math.max(a, b) : Math.min(a, b);
      const p = pos[col]++;
      row[p] = upper ? Math.min(a, b) : Math.max(a, b);
      src[p] = q;
    }
  }
  return { ptr, row, src };
}

/** C = triu(P A Pᵀ) by columns (rows ≤ column). */
export function upperColumns(A: CsrMatrix, storage: SymmetricStorage, pinv: Int32Array): ColumnPattern {
  return trianglePattern(A, storage, pinv, true);
}

/** tril(P A Pᵀ) by columns (rows ≥ column, increasing). */
export function lowerColumns(A: CsrMatrix, storage: SymmetricStorage, pinv: Int32Array): ColumnPattern {
  return trianglePattern(A, storage, pinv, false);
}

/**
 * Elimination tree (parent[j], −1 for a root) from the upper triangle by columns: for each entry
 * (i, k), i < k, the root of i's current subtree becomes a child of k (ancestors are path-compressed).
 */
export function eliminationTree(n: number, ptr: Int32Array, row: Int32Array): Int32Array {
  const parent = new Int32Array(n).fill(-1);
  const ancestor = new Int32Array(n).fill(-1);
  for (let k = 0; k < n; k++) {
    for (let q = ptr[k]; q < ptr[k + 1]; q++) {
      let i = row[q];
      while (i !== -1 && i < k) {
        const next = ancestor[i];
        ancestor[i] = k;
        if (next === -1) parent[i] = k;
        i = next;
      }
    }
  }
  return parent;
}

/**
 * counts[j] = entries of column j of L below the diagonal. Row k of L has an entry in every column
 * of the row subtree of k: the nodes met climbing the tree from each i with A(i,k) ≠ 0, i < k,
 * up to k or a node already met for this row.
 */
export function columnCounts(n: number, ptr: Int32Array, row: Int32Array, parent: Int32Array): Int32Array {
  const counts = new Int32Array(n);
  const mark = new Int32Array(n).fill(-1);
  for (let k = 0; k < n; k++) {
    mark[k] = k;
    for (let q = ptr[k]; q < ptr[k + 1]; q++) {
      for (let j = row[q]; mark[j] !== k; j = parent[j]) {
        counts[j]++;
        mark[j] = k;
      }
    }
  }
  return counts;
}

/** The row structure of supernodes (SupernodalLDLT's analysis arrays). */
export interface SupernodeStructure {
  readonly nsuper: number;
  /** (nsuper+1) first column of each supernode. */
  readonly superStart: Int32Array;
  /** (nsuper+1) start of each supernode's rows in superRows; its own columns first. */
  readonly superRowPtr: Int32Array;
  readonly superRows: Int32Array;
  /** (n) supernode of each column. */
  readonly superOf: Int32Array;
}

/**
 * The updates of a left-looking supernodal factorization, in order: supernode d (nd columns) updates
 * supernode t with its rows from p (n1 of them in t's columns, n2 from p to its last row):
 * fn(d, t, p, n1, n2). Analyses count their work with it.
 */
export function forEachSupernodeUpdate(s: SupernodeStructure, fn: (d: number, t: number, p: number, n1: number, n2: number) => void): void {
  const { nsuper, superStart, superRowPtr, superRows, superOf } = s;
  for (let d = 0; d < nsuper; d++) {
    const rEnd = superRowPtr[d + 1];
    for (let p = superRowPtr[d] + superStart[d + 1] - superStart[d]; p < rEnd;) {
      const t = superOf[superRows[p]];
      const tEnd = superStart[t + 1];
      let p2 = p;
      while (p2 < rEnd && superRows[p2] < tEnd) p2++;
      fn(d, t, p, p2 - p, rEnd - p);
      p = p2;
    }
  }
}
