/**
 * The 6-node triangular prism of SOFA's FiniteElement<Prism> (nodes a, b, c of the bottom triangle,
 * d, e, f above them): reference coordinates (ξ, η) in the unit triangle and ζ in [0, 1],
 *   N = ((1 − ξ − η)(1 − ζ), ξ(1 − ζ), η(1 − ζ), (1 − ξ − η)ζ, ξζ, ηζ),
 * integrated with SOFA's rule: 2 points (1/3, 1/3, (1 ∓ 1/√3)/2) of weight 1/4 (exact for the
 * volume and for polynomials of degree 3 in ζ and 1 in ξ, η).
 */

/** SOFA's quadrature points of the prism (ξ, η, ζ) and their common weight. */
const G = 0.57735026919; // SOFA's 1/√3, as written in its table
export const PRISM_QUADRATURE: readonly (readonly [number, number, number])[] = [
  [1 / 3, 1 / 3, 0.5 * (1 - G)],
  [1 / 3, 1 / 3, 0.5 * (1 + G)],
];
export const PRISM_WEIGHT = 0.25;

/** out (6) = N(ξ, η, ζ). */
export function prismShapeFunctions(out: Float64Array, x: number, y: number, z: number): Float64Array {
  const l = 1 - x - y;
  out[0] = l * (1 - z);
  out[1] = x * (1 - z);
  out[2] = y * (1 - z);
  out[3] = l * z;
  out[4] = x * z;
  out[5] = y * z;
  return out;
}

/** out (6 × 3, node-major) = ∂N/∂(ξ, η, ζ). */
export function prismReferenceGradients(out: Float64Array, x: number, y: number, z: number): Float64Array {
  const g = [
    [z - 1, z - 1, x + y - 1],
    [1 - z, 0, -x],
    [0, 1 - z, -y],
    [-z, -z, 1 - x - y],
    [z, 0, x],
    [0, z, y],
  ];
  for (let i = 0; i < 6; i++) for (let k = 0; k < 3; k++) out[3 * i + k] = g[i][k];
  return out;
}

const dRef = new Float64Array(18);
const dX = new Float64Array(18);
const Nq = new Float64Array(6);

/**
 * The world gradients of N at a reference point into dX (6 × 3) for the nodes X (18); returns
 * det J, J = Σ_i X_i ⊗ ∂N_i/∂ξ (0 when degenerate, dX then unset).
 */
function worldGradients(X: ArrayLike<number>, x: number, y: number, z: number): number {
  prismReferenceGradients(dRef, x, y, z);
  const J = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < 6; i++) for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) J[3 * r + c] += X[3 * i + r] * dRef[3 * i + c];
  const [a, b, c, d, e, f, g, h, k] = J as [number, number, number, number, number, number, number, number, number];
  const A = e * k - f * h,
    B = f * g - d * k,
    C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (det === 0) return 0;
  // J⁻¹ (row-major); ∇N_i = J⁻ᵀ·∂N_i/∂ξ, i.e. (∇N_i)_r = Σ_c Jinv[c][r]·dRef_i,c
  const inv = [A, c * h - b * k, b * f - c * e, B, a * k - c * g, c * d - a * f, C, b * g - a * h, a * e - b * d].map((v) => v / det);
  for (let i = 0; i < 6; i++)
    for (let r = 0; r < 3; r++) dX[3 * i + r] = inv[r] * dRef[3 * i] + inv[3 + r] * dRef[3 * i + 1] + inv[6 + r] * dRef[3 * i + 2];
  return det;
}

/**
 * out (18 × 18, node-major) = Σ_q w·|det J|·Bᵀ·D·B with Hooke's matrix (D00, D01, D33): the 3 × 3
 * block (i, j), a = ∇N_i, b = ∇N_j, is D01·a⊗b + D33·(b⊗a + (a·b)·I) + (D00 − D01 − 2·D33)·diag(a∘b).
 * X: 18 positions. Returns the signed volume Σ_q w·det J (≤ 0: degenerate or inverted).
 */
export function prismStiffness(out: Float64Array, X: ArrayLike<number>, d00: number, d01: number, d33: number): number {
  out.fill(0, 0, 324);
  let vol = 0;
  for (const [x, y, z] of PRISM_QUADRATURE) {
    const det = worldGradients(X, x, y, z);
    if (det === 0) return 0;
    vol += PRISM_WEIGHT * det;
    const s = PRISM_WEIGHT * Math.abs(det),
      extra = d00 - d01 - 2 * d33;
    for (let i = 0; i < 6; i++) {
      for (let j = 0; j < 6; j++) {
        const ab = dX[3 * i] * dX[3 * j] + dX[3 * i + 1] * dX[3 * j + 1] + dX[3 * i + 2] * dX[3 * j + 2];
        for (let p = 0; p < 3; p++) {
          for (let q = 0; q < 3; q++) {
            const ap = dX[3 * i + p],
              aq = dX[3 * i + q],
              bp = dX[3 * j + p],
              bq = dX[3 * j + q];
            let v = d01 * ap * bq + d33 * aq * bp;
            if (p === q) v += d33 * ab + extra * ap * bp;
            out[(3 * i + p) * 18 + 3 * j + q] += s * v;
          }
        }
      }
    }
  }
  return vol;
}

/**
 * out (6 × 6) = Σ_q w·ρ(q)·|det J|·N_i·N_j, ρ(q) = Σ_k N_k(q)·ρ_k (SOFA's FEMMass on its rule).
 * X: 18 positions, rho: 6 nodal densities.
 */
export function prismMassMatrix(out: Float64Array, X: ArrayLike<number>, rho: ArrayLike<number>): Float64Array {
  out.fill(0, 0, 36);
  for (const [x, y, z] of PRISM_QUADRATURE) {
    const det = worldGradients(X, x, y, z);
    prismShapeFunctions(Nq, x, y, z);
    let r = 0;
    for (let k = 0; k < 6; k++) r += Nq[k] * rho[k];
    const s = PRISM_WEIGHT * r * Math.abs(det);
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) out[6 * i + j] += s * Nq[i] * Nq[j];
  }
  return out;
}
