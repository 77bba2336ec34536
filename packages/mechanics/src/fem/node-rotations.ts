import { polarDecomposition, polarDecompositionStable } from './polar-decomposition.js';

/**
 * The node rotations a corotational element force field gives as SOFA's BaseRotationFinder
 * (getRotations, used by warped preconditioners): for node i,
 *   Q_i = rotation factor of Σ_{e ∋ i} Q_e,   Q_e = R_eᵀ·R₀_e,
 * where R_e maps world vectors to element e's frame now and R₀_e at rest (x ≈ Q_e·X on the element),
 * as SOFA averages the element rotations around a node then takes the polar decomposition (its
 * scaled Newton iteration, polarDecomposition, as SOFA's getRotation; the SVD form where the sum is
 * inverted or flat, so that Q_i stays a rotation; nearRotationPolar where the sum is close to a
 * scaled rotation, the usual case). A node of no element gets the identity.
 * Shapes: out (nNodes·9), elems (nElements·nodesPerElement), rot and rot0 (nElements·9), row-major.
 */
export function nodeRotationsOfElements(
  out: Float64Array,
  nNodes: number,
  elems: Uint32Array,
  nodesPerElement: number,
  rot: Float64Array,
  rot0: Float64Array,
): void {
  out.fill(0, 0, 9 * nNodes);
  const n = elems.length / nodesPerElement;
  const Q = scratch;
  for (let e = 0; e < n; e++) {
    const r = 9 * e;
    // Q_e = R_eᵀ·R₀_e, added to each node of e
    for (let i = 0; i < 3; i++) {
      const a0 = rot[r + i]!,
        a1 = rot[r + 3 + i]!,
        a2 = rot[r + 6 + i]!;
      Q[3 * i] = a0 * rot0[r]! + a1 * rot0[r + 3]! + a2 * rot0[r + 6]!;
      Q[3 * i + 1] = a0 * rot0[r + 1]! + a1 * rot0[r + 4]! + a2 * rot0[r + 7]!;
      Q[3 * i + 2] = a0 * rot0[r + 2]! + a1 * rot0[r + 5]! + a2 * rot0[r + 8]!;
    }
    for (let k = 0; k < nodesPerElement; k++) {
      const o = 9 * elems[nodesPerElement * e + k]!;
      out[o] += Q[0]!;
      out[o + 1] += Q[1]!;
      out[o + 2] += Q[2]!;
      out[o + 3] += Q[3]!;
      out[o + 4] += Q[4]!;
      out[o + 5] += Q[5]!;
      out[o + 6] += Q[6]!;
      out[o + 7] += Q[7]!;
      out[o + 8] += Q[8]!;
    }
  }
  const M = sumScratch;
  for (let i = 0; i < nNodes; i++) {
    const o = 9 * i;
    let empty = true;
    for (let m = 0; m < 9; m++) {
      M[m] = out[o + m]!;
      if (M[m] !== 0) empty = false;
    }
    if (empty) {
      out[o] = out[o + 4] = out[o + 8] = 1;
      continue;
    }
    const det = M[0]! * (M[4]! * M[8]! - M[5]! * M[7]!) - M[1]! * (M[3]! * M[8]! - M[5]! * M[6]!) + M[2]! * (M[3]! * M[7]! - M[4]! * M[6]!);
    if (!(det > 0)) polarDecompositionStable(Q, M);
    else if (!nearRotationPolar(Q, M)) polarDecomposition(Q, M);
    for (let m = 0; m < 9; m++) out[o + m] = Q[m]!;
  }
}

const scratch = new Float64Array(9);
const sumScratch = new Float64Array(9);

/**
 * q = orthogonal polar factor of m when m is close to a scaled rotation (Newton–Schulz:
 * X₀ = m·√3/‖m‖_F, X ← ½·X·(3I − XᵀX), quadratically convergent while ‖XᵀX − I‖ < 1; the same
 * factor as polarDecomposition to round-off, at a fraction of its cost). Returns false (q
 * unspecified) when m is too far from a rotation (‖X₀ᵀX₀ − I‖ ≥ ½) or the iteration does not reach
 * ‖XᵀX − I‖ ≤ 1e-15 in 10 steps.
 */
export function nearRotationPolar(q: Float64Array, m: ArrayLike<number>): boolean {
  let f = 0;
  for (let k = 0; k < 9; k++) f += m[k]! * m[k]!;
  if (!(f > 0)) return false;
  const c = Math.sqrt(3 / f);
  for (let k = 0; k < 9; k++) q[k] = m[k]! * c;
  const S = gramScratch;
  for (let it = 0; it < 10; it++) {
    // S = XᵀX − I (symmetric), e = its largest entry
    let e = 0;
    for (let i = 0; i < 3; i++)
      for (let j = i; j < 3; j++) {
        const v = q[i]! * q[j]! + q[3 + i]! * q[3 + j]! + q[6 + i]! * q[6 + j]! - (i === j ? 1 : 0);
        S[3 * i + j] = S[3 * j + i] = v;
        if (Math.abs(v) > e) e = Math.abs(v);
      }
    if (e <= 1e-15) return true;
    if (it === 0 && e >= 0.5) return false;
    // X ← X·(I − ½S)  (= ½·X·(3I − XᵀX))
    for (let r = 0; r < 3; r++) {
      const x0 = q[3 * r]!,
        x1 = q[3 * r + 1]!,
        x2 = q[3 * r + 2]!;
      q[3 * r] = x0 - 0.5 * (x0 * S[0]! + x1 * S[3]! + x2 * S[6]!);
      q[3 * r + 1] = x1 - 0.5 * (x0 * S[1]! + x1 * S[4]! + x2 * S[7]!);
      q[3 * r + 2] = x2 - 0.5 * (x0 * S[2]! + x1 * S[5]! + x2 * S[8]!);
    }
  }
  return false;
}

const gramScratch = new Float64Array(9);
