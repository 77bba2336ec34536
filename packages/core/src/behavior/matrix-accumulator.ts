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
  /**
   * Optional fast path: adds factor·block[offset .. offset+9) (a row-major 3x3 block) at rows
   * row..row+2, columns col..col+2. It is the same emission as the 9 `add` calls in row-major
   * order; call it through `addBlock3`, which falls back to them.
   */
  addBlock3?(row: number, col: number, block: ArrayLike<number>, offset: number, factor: number): void;
  /**
   * Optional fast path: adds factor·K, the (3n × 3n) row-major matrix of an element whose n Vec3
   * nodes are nodes[n·e … n·e+n), as its n² 3x3 blocks at the rows and columns of those nodes. It is
   * the same emission as the n² `addBlock3` calls in row-major block order (emitElementMatrix).
   */
  addElement3?(nodes: ArrayLike<number>, e: number, n: number, K: ArrayLike<number>, factor: number): void;
  /**
   * Optional fast path for symmetric element matrices given by their upper blocks: elements
   * e0 … e0+count−1 of n nodes (nodes[n·e … n·e+n)), element e0+k's n(n+1)/2 blocks (i, j) with
   * i ≤ j at U[k·nu …) (nu = 9·n(n+1)/2), row-major 9 values each, in the order (0,0), (0,1), …,
   * (0,n−1), (1,1), …; block (j, i) is block (i, j) transposed. The same emission (and the same
   * values) as `addElement3` with each full matrix (emitSymmetricElements).
   */
  addSymmetricElements3?(nodes: ArrayLike<number>, e0: number, count: number, n: number, U: Float64Array, factor: number): void;
  /**
   * Optional: an array the caller may fill with the upper blocks of up to `count` elements of n
   * nodes for addSymmetricElements3, which then reads them without a copy (or undefined).
   */
  symmetricElementBuffer?(n: number, count: number): Float64Array | undefined;
}

/**
 * Where an interaction force field writes its stiffness blocks with a state that is not part of the
 * solver's system (the non-simulated side of a contact): `o` is a scalar dof of that outside state
 * in SOFA's numbering of it, `arg` a state of getMechanicalStates() and `d` its local scalar dof.
 * SOFA's assembled linear system keeps such blocks (see MechanicalSystem); the values carry the
 * stiffness factor, as in addKToMatrix.
 */
export interface OutsideStateAccumulator {
  /** K(outside dof o, dof d of state arg) += value. */
  addOutsideRow(o: number, arg: number, d: number, value: number): void;
  /** K(dof d of state arg, outside dof o) += value. */
  addOutsideCol(arg: number, d: number, o: number, value: number): void;
}

/** Index of the upper block (i, j), i ≤ j, of an element of n nodes in the layout of addSymmetricElements3. */
export function upperBlockIndex(n: number, i: number, j: number): number {
  return i * n - ((i * (i - 1)) >> 1) + j - i;
}

/** Emits factor·(3x3 block at `offset` of `block`, row-major) at (row, col), by the fast path when there is one. */
export function addBlock3(
  acc: MatrixAccumulator,
  row: number,
  col: number,
  block: ArrayLike<number>,
  offset: number,
  factor: number,
): void {
  if (acc.addBlock3) {
    acc.addBlock3(row, col, block, offset, factor);
    return;
  }
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) acc.add(row + i, col + j, factor * block[offset + 3 * i + j]);
  }
}
