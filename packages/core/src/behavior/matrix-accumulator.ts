/**
 * Where components write matrix entries (stiffness K, damping B, mass M), in their own local
 * scalar index space: for a component on one state, row/col = point·derivSize + axis; for an
 * interaction component on states (s0, s1), the indices of s1 follow those of s0.
 *
 * The assembly engine builds the sparsity pattern once from a first run and then refills values,
 * so a component must emit the same (row, col) sequence at every call while its topology is
 * unchanged: emit zero values rather than skipping entries.
 */
export interface MatrixAccumulator {
  add(row: number, col: number, value: number): void;
}
