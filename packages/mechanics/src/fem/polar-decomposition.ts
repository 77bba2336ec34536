import { symmetricEigen3 } from '@sofa-ts/linalg';
/**
 * Rotations of 3x3 matrices for the corotational finite elements, as SOFA computes them
 * (helper::Decompose). Matrices are row-major Float64Arrays of 9 numbers.
 *
 * polarDecomposition: M = Q·S with Q orthogonal and S symmetric, by the scaled Newton iteration of
 * Higham and Schreiber ("Fast polar decomposition of an arbitrary matrix", 1988) in the form Shoemake
 * and Barbič wrote it: with Mk = Mᵀ, iterate Mk ← γ/2·Mk + 1/(2γ·det)·adj(Mk)ᵀ, where
 * γ = sqrt(sqrt(‖adjᵀ‖₁‖adjᵀ‖∞ / (‖Mk‖₁‖Mk‖∞)) / |det|), until ‖ΔMk‖₁ ≤ 1e-8·‖Mk‖₁; then Q = Mkᵀ.
 *
 * polarDecompositionStable: Q = U·Vᵀ from an SVD M = U·diag(σ)·Vᵀ where U and V are rotations (the
 * sign of det M goes to the smallest σ), so Q stays a rotation for inverted or flat matrices.
 */

/** Tolerance SOFA uses for doubles in its decompositions. */
const ZERO_TOLERANCE = 1e-8;

/** Largest column sum of |m|. */
function oneNorm(m: Float64Array): number {
  let best = 0;
  for (let c = 0; c < 3; c++) {
    const s = Math.abs(m[c]) + Math.abs(m[3 + c]) + Math.abs(m[6 + c]);
    if (s > best) best = s;
  }
  return best;
}

/** Largest row sum of |m|. */
function infNorm(m: Float64Array): number {
  let best = 0;
  for (let r = 0; r < 3; r++) {
    const s = Math.abs(m[3 * r]) + Math.abs(m[3 * r + 1]) + Math.abs(m[3 * r + 2]);
    if (s > best) best = s;
  }
  return best;
}

/** Scratch of the iteration (not re-entrant across threads; JavaScript has one). */
const mk = new Float64Array(9);
const adj = new Float64Array(9);
const ek = new Float64Array(9);

/**
 * q = orthogonal factor of m (m = q·s); m and q may alias. Returns the determinant of the last
 * iterate (0 if m is singular, in which case q is left as the last iterate, as SOFA does).
 */
export function polarDecomposition(q: Float64Array, m: ArrayLike<number>): number {
  // Mk = Mᵀ
  mk[0] = m[0];
  mk[1] = m[3];
  mk[2] = m[6];
  mk[3] = m[1];
  mk[4] = m[4];
  mk[5] = m[7];
  mk[6] = m[2];
  mk[7] = m[5];
  mk[8] = m[8];
  let mOne = oneNorm(mk);
  let mInf = infNorm(mk);
  let det = 0;
  let eOne = 0;
  for (let it = 0; it < 100; it++) {
    // rows of adj(Mk)ᵀ: row1×row2, row2×row0, row0×row1
    adj[0] = mk[4] * mk[8] - mk[5] * mk[7];
    adj[1] = mk[5] * mk[6] - mk[3] * mk[8];
    adj[2] = mk[3] * mk[7] - mk[4] * mk[6];
    adj[3] = mk[7] * mk[2] - mk[8] * mk[1];
    adj[4] = mk[8] * mk[0] - mk[6] * mk[2];
    adj[5] = mk[6] * mk[1] - mk[7] * mk[0];
    adj[6] = mk[1] * mk[5] - mk[2] * mk[4];
    adj[7] = mk[2] * mk[3] - mk[0] * mk[5];
    adj[8] = mk[0] * mk[4] - mk[1] * mk[3];
    det = mk[0] * adj[0] + mk[1] * adj[1] + mk[2] * adj[2];
    if (det === 0) break;
    const aOne = oneNorm(adj);
    const aInf = infNorm(adj);
    const gamma = Math.sqrt(Math.sqrt((aOne * aInf) / (mOne * mInf)) / Math.abs(det));
    const g1 = gamma * 0.5;
    const g2 = 0.5 / (gamma * det);
    for (let k = 0; k < 9; k++) {
      const prev = mk[k];
      const next = prev * g1 + adj[k] * g2;
      ek[k] = prev - next;
      mk[k] = next;
    }
    eOne = oneNorm(ek);
    mOne = oneNorm(mk);
    mInf = infNorm(mk);
    if (!(eOne > mOne * ZERO_TOLERANCE)) break;
  }
  // Q = Mkᵀ
  q[0] = mk[0];
  q[1] = mk[3];
  q[2] = mk[6];
  q[3] = mk[1];
  q[4] = mk[4];
  q[5] = mk[7];
  q[6] = mk[2];
  q[7] = mk[5];
  q[8] = mk[8];
  return det;
}

const ev = new Float64Array(9);
const ew = new Float64Array(3);
const uu = new Float64Array(9);
const ata = new Float64Array(9);
const V = new Float64Array(9);
const sigma2 = new Float64Array(3);
const order = [0, 1, 2];

/**
 * q = U·Vᵀ from the SVD of m with U, V rotations (SOFA Decompose::polarDecomposition_stable).
 * Returns true when m is inverted or degenerate (a singular value ≤ 0 up to tolerance).
 */
export function polarDecompositionStable(q: Float64Array, m: ArrayLike<number>): boolean {
  // mᵀm = V·diag(σ²)·Vᵀ
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) ata[3 * i + j] = m[i] * m[j] + m[3 + i] * m[3 + j] + m[6 + i] * m[6 + j];
  symmetricEigen3(ev, ew, ata);
  // sort eigenvalues decreasing (columns of V follow)
  order[0] = 0;
  order[1] = 1;
  order[2] = 2;
  for (let i = 1; i < 3; i++)
    for (let j = i; j > 0 && ew[order[j]] > ew[order[j - 1]]; j--) {
      const t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  for (let c = 0; c < 3; c++) {
    sigma2[c] = Math.max(0, ew[order[c]]);
    for (let r = 0; r < 3; r++) V[3 * r + c] = ev[3 * r + order[c]];
  }
  // V a rotation
  const detV = V[0] * (V[4] * V[8] - V[5] * V[7]) - V[1] * (V[3] * V[8] - V[5] * V[6]) + V[2] * (V[3] * V[7] - V[4] * V[6]);
  if (detV < 0) for (let r = 0; r < 3; r++) V[3 * r + 2] = -V[3 * r + 2];
  // U columns: m·v_c / σ_c, completed to an orthonormal basis where σ vanishes
  let degenerated = false;
  const sigmaMax = Math.sqrt(sigma2[0]);
  for (let c = 0; c < 3; c++) {
    let x = 0,
      y = 0,
      z = 0;
    for (let k = 0; k < 3; k++) {
      x += m[k] * V[3 * k + c];
      y += m[3 + k] * V[3 * k + c];
      z += m[6 + k] * V[3 * k + c];
    }
    const n = Math.sqrt(x * x + y * y + z * z);
    uu[c] = x;
    uu[3 + c] = y;
    uu[6 + c] = z;
    if (!(n > ZERO_TOLERANCE * Math.max(1, sigmaMax))) {
      degenerated = true;
      if (c === 0) {
        uu[0] = 1;
        uu[3] = 0;
        uu[6] = 0;
      } else if (c === 1) {
        // any unit vector orthogonal to u0
        const ax = Math.abs(uu[0]),
          ay = Math.abs(uu[3]),
          az = Math.abs(uu[6]);
        let ox = 0,
          oy = 0,
          oz = 0;
        if (ax <= ay && ax <= az) ox = 1;
        else if (ay <= az) oy = 1;
        else oz = 1;
        const px = uu[3] * oz - uu[6] * oy;
        const py = uu[6] * ox - uu[0] * oz;
        const pz = uu[0] * oy - uu[3] * ox;
        const pn = Math.sqrt(px * px + py * py + pz * pz);
        uu[1] = px / pn;
        uu[4] = py / pn;
        uu[7] = pz / pn;
      }
      if (c === 2) {
        // u2 = u0 × u1 below
        uu[2] = 0;
        uu[5] = 0;
        uu[8] = 0;
      }
    } else {
      // Gram-Schmidt against the previous columns for robustness
      for (let p = 0; p < c; p++) {
        const d = uu[p] * uu[c] + uu[3 + p] * uu[3 + c] + uu[6 + p] * uu[6 + c];
        uu[c] -= d * uu[p];
        uu[3 + c] -= d * uu[3 + p];
        uu[6 + c] -= d * uu[6 + p];
      }
      const nn = Math.sqrt(uu[c] * uu[c] + uu[3 + c] * uu[3 + c] + uu[6 + c] * uu[6 + c]);
      uu[c] /= nn;
      uu[3 + c] /= nn;
      uu[6 + c] /= nn;
    }
  }
  // U a rotation: the last column is u0 × u1 (flips the smallest singular value when det m < 0)
  const cx = uu[3] * uu[7] - uu[6] * uu[4];
  const cy = uu[6] * uu[1] - uu[0] * uu[7];
  const cz = uu[0] * uu[4] - uu[3] * uu[1];
  if (cx * uu[2] + cy * uu[5] + cz * uu[8] < 0) degenerated = true;
  uu[2] = cx;
  uu[5] = cy;
  uu[8] = cz;
  // q = U·Vᵀ
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) q[3 * i + j] = uu[3 * i] * V[3 * j] + uu[3 * i + 1] * V[3 * j + 1] + uu[3 * i + 2] * V[3 * j + 2];
  return degenerated;
}
