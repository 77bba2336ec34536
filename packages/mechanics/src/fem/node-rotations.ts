import { polarDecomposition, polarDecompositionStable } from './polar-decomposition.js';

/**
 * The node rotations a corotational element force field gives as SOFA's BaseRotationFinder
 * (getRotations, used by warped preconditioners): for node i,
 *   Q_i = rotation factor of Σ_{e ∋ i} Q_e,   Q_e = R_eᵀ·R₀_e,
 * where R_e maps world vectors to element e's frame now and R₀_e at rest (x ≈ Q_e·X on the element),
 * as SOFA averages the element rotations around a node then takes the polar decomposition (its
 * scaled Newton iteration, polarDecomposition, as SOFA's getRotation; the SVD form where the sum is
 * inverted or flat, so that Q_i stays a rotation). A node of no element gets the identity. Shapes: out (nNodes·9), elems (nElements·nodesPerElement),
 * rot and rot0 (nElements·9), row-major.
 */
export function nodeRotationsOfElements(
  out: Float64Array,
  nNodes: number,
  elems: Uint32Array,
  nodesPerElement: number,
  rot: Float64Array,
  rot0: Float64Array,
): void {
  const sum = out.subarray(0, 9 * nNodes);
  sum.fill(0);
  const n = elems.length / nodesPerElement;
  const Q = scratch;
  for (let e = 0; e < n; e++) {
    const r = 9 * e;
    // Q_e = R_eᵀ·R₀_e
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++)
        Q[3 * i + j] = rot[r + i]! * rot0[r + j]! + rot[r + 3 + i]! * rot0[r + 3 + j]! + rot[r + 6 + i]! * rot0[r + 6 + j]!;
    for (let k = 0; k < nodesPerElement; k++) {
      const o = 9 * elems[nodesPerElement * e + k]!;
      for (let m = 0; m < 9; m++) sum[o + m] += Q[m]!;
    }
  }
  for (let i = 0; i < nNodes; i++) {
    const o = 9 * i;
    const block = sum.subarray(o, o + 9);
    let empty = true;
    for (let m = 0; m < 9; m++) if (block[m] !== 0) empty = false;
    if (empty) {
      block[0] = block[4] = block[8] = 1;
      continue;
    }
    const det =
      block[0]! * (block[4]! * block[8]! - block[5]! * block[7]!) -
      block[1]! * (block[3]! * block[8]! - block[5]! * block[6]!) +
      block[2]! * (block[3]! * block[7]! - block[4]! * block[6]!);
    if (det > 0) polarDecomposition(Q, block);
    else polarDecompositionStable(Q, block);
    block.set(Q);
  }
}

const scratch = new Float64Array(9);
