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
  for (let e = 0; e < n; e++) {
    const r = 9 * e;
    // Q_e = R_eᵀ·R₀_e, added to each node of e
    const a0 = rot[r],
      a1 = rot[r + 1],
      a2 = rot[r + 2],
      a3 = rot[r + 3],
      a4 = rot[r + 4],
      a5 = rot[r + 5],
      a6 = rot[r + 6],
      a7 = rot[r + 7],
      a8 = rot[r + 8];
    const b0 = rot0[r],
      b1 = rot0[r + 1],
      b2 = rot0[r + 2],
      b3 = rot0[r + 3],
      b4 = rot0[r + 4],
      b5 = rot0[r + 5],
      b6 = rot0[r + 6],
      b7 = rot0[r + 7],
      b8 = rot0[r + 8];
    const q0 = a0 * b0 + a3 * b3 + a6 * b6,
      q1 = a0 * b1 + a3 * b4 + a6 * b7,
      q2 = a0 * b2 + a3 * b5 + a6 * b8,
      q3 = a1 * b0 + a4 * b3 + a7 * b6,
      q4 = a1 * b1 + a4 * b4 + a7 * b7,
      q5 = a1 * b2 + a4 * b5 + a7 * b8,
      q6 = a2 * b0 + a5 * b3 + a8 * b6,
      q7 = a2 * b1 + a5 * b4 + a8 * b7,
      q8 = a2 * b2 + a5 * b5 + a8 * b8;
    const e0 = nodesPerElement * e;
    for (let k = 0; k < nodesPerElement; k++) {
      const o = 9 * elems[e0 + k];
      out[o] += q0;
      out[o + 1] += q1;
      out[o + 2] += q2;
      out[o + 3] += q3;
      out[o + 4] += q4;
      out[o + 5] += q5;
      out[o + 6] += q6;
      out[o + 7] += q7;
      out[o + 8] += q8;
    }
  }
  const Q = scratch;
  const M = sumScratch;
  for (let i = 0; i < nNodes; i++) {
    const o = 9 * i;
    let empty = true;
    for (let m = 0; m < 9; m++) {
      M[m] = out[o + m];
      if (M[m] !== 0) empty = false;
    }
    if (empty) {
      out[o] = out[o + 4] = out[o + 8] = 1;
      continue;
    }
    const det = M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) + M[2] * (M[3] * M[7] - M[4] * M[6]);
    if (!(det > 0)) polarDecompositionStable(Q, M);
    else if (!nearRotationPolar(Q, M)) polarDecomposition(Q, M);
    for (let m = 0; m < 9; m++) out[o + m] = Q[m];
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
  // (locals rather than arrays: the same operations in the same order, kept in registers; a
  // warped preconditioner runs this for every node at every step)
  const m0 = m[0],
    m1 = m[1],
    m2 = m[2],
    m3 = m[3],
    m4 = m[4],
    m5 = m[5],
    m6 = m[6],
    m7 = m[7],
    m8 = m[8];
  const f = m0 * m0 + m1 * m1 + m2 * m2 + m3 * m3 + m4 * m4 + m5 * m5 + m6 * m6 + m7 * m7 + m8 * m8;
  if (!(f > 0)) return false;
  const c = Math.sqrt(3 / f);
  let q0 = m0 * c,
    q1 = m1 * c,
    q2 = m2 * c,
    q3 = m3 * c,
    q4 = m4 * c,
    q5 = m5 * c,
    q6 = m6 * c,
    q7 = m7 * c,
    q8 = m8 * c;
  for (let it = 0; it < 10; it++) {
    // S = XᵀX − I (symmetric), e = its largest entry
    const s00 = q0 * q0 + q3 * q3 + q6 * q6 - 1,
      s01 = q0 * q1 + q3 * q4 + q6 * q7,
      s02 = q0 * q2 + q3 * q5 + q6 * q8,
      s11 = q1 * q1 + q4 * q4 + q7 * q7 - 1,
      s12 = q1 * q2 + q4 * q5 + q7 * q8,
      s22 = q2 * q2 + q5 * q5 + q8 * q8 - 1;
    let e = 0;
    if (Math.abs(s00) > e) e = Math.abs(s00);
    if (Math.abs(s01) > e) e = Math.abs(s01);
    if (Math.abs(s02) > e) e = Math.abs(s02);
    if (Math.abs(s11) > e) e = Math.abs(s11);
    if (Math.abs(s12) > e) e = Math.abs(s12);
    if (Math.abs(s22) > e) e = Math.abs(s22);
    if (e <= 1e-15) {
      q[0] = q0;
      q[1] = q1;
      q[2] = q2;
      q[3] = q3;
      q[4] = q4;
      q[5] = q5;
      q[6] = q6;
      q[7] = q7;
      q[8] = q8;
      return true;
    }
    if (it === 0 && e >= 0.5) return false;
    // X ← X·(I − ½S)  (= ½·X·(3I − XᵀX)), row by row
    let x0 = q0,
      x1 = q1,
      x2 = q2;
    q0 = x0 - 0.5 * (x0 * s00 + x1 * s01 + x2 * s02);
    q1 = x1 - 0.5 * (x0 * s01 + x1 * s11 + x2 * s12);
    q2 = x2 - 0.5 * (x0 * s02 + x1 * s12 + x2 * s22);
    x0 = q3;
    x1 = q4;
    x2 = q5;
    q3 = x0 - 0.5 * (x0 * s00 + x1 * s01 + x2 * s02);
    q4 = x1 - 0.5 * (x0 * s01 + x1 * s11 + x2 * s12);
    q5 = x2 - 0.5 * (x0 * s02 + x1 * s12 + x2 * s22);
    x0 = q6;
    x1 = q7;
    x2 = q8;
    q6 = x0 - 0.5 * (x0 * s00 + x1 * s01 + x2 * s02);
    q7 = x1 - 0.5 * (x0 * s01 + x1 * s11 + x2 * s12);
    q8 = x2 - 0.5 * (x0 * s02 + x1 * s12 + x2 * s22);
  }
  return false;
}
