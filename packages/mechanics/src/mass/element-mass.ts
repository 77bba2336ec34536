import { HEXA_CORNERS, HEXA_GAUSS_POINT, hexahedronJacobianDeterminant, hexahedronShapeFunctions } from '../fem/hexahedron-kernels.js';
import { collapsedHexahedron, foldCollapsedHexahedron } from '../fem/element/volume-elements.js';
import { tetrahedronVolume } from './element-geometry.js';

/**
 * Element mass matrices of SOFA's FEMMass (scalar, n × n, row-major; the same block for each axis):
 *   M_e(i, j) = Σ_q w_q·ρ(q)·|det J(q)|·N_i(q)·N_j(q),  ρ(q) = Σ_k N_k(q)·ρ_k (nodal densities),
 * with the quadrature rule SOFA's FiniteElement gives each element type by default.
 */

/**
 * Tetrahedron, SOFA's default rule: one point at the centroid (N_i = 1/4, weight 1/6, |det J| = 6V),
 * so M_e(i, j) = ρ̄·V/16 for every pair (ρ̄ the mean nodal density). The total mass ρ̄·V is exact;
 * the element matrix has rank one. X: 12 positions, rho: 4 densities.
 */
export function tetrahedronMassMatrix(out: Float64Array, X: Float64Array, rho: ArrayLike<number>): Float64Array {
  const V = tetrahedronVolume(X, 0, 1, 2, 3);
  const mean = (rho[0] + rho[1] + rho[2] + rho[3]) / 4;
  out.fill((mean * V) / 16, 0, 16);
  return out;
}

const N = new Float64Array(8);

/**
 * Trilinear hexahedron, SOFA's default rule: 2×2×2 Gauss points (±1/√3)³ of weight 1, exact for
 * N_i·N_j on parallelepipeds; on an a×b×c box of density ρ, M_e(i, j) = ρ·abc·Π over the three
 * axes of 1/3 (i and j on the same side) or 1/6 (opposite sides).
 * X: 24 positions in SOFA's vertex order, rho: 8 densities.
 */
export function hexahedronMassMatrix(out: Float64Array, X: Float64Array, rho: ArrayLike<number>): Float64Array {
  out.fill(0, 0, 64);
  const g = HEXA_GAUSS_POINT;
  for (let q = 0; q < 8; q++) {
    const c = HEXA_CORNERS[q];
    const xi = c[0] * g,
      eta = c[1] * g,
      zeta = c[2] * g;
    hexahedronShapeFunctions(N, xi, eta, zeta);
    let density = 0;
    for (let k = 0; k < 8; k++) density += N[k] * rho[k];
    const w = density * Math.abs(hexahedronJacobianDeterminant(X, xi, eta, zeta));
    for (let i = 0; i < 8; i++) {
      const wi = w * N[i];
      for (let j = 0; j < 8; j++) out[8 * i + j] += wi * N[j];
    }
  }
  return out;
}

const hexNodes = new Float64Array(24);
const hexRho = new Float64Array(8);
const hexM = new Float64Array(64);

/**
 * Pyramid (base 0..3, apex 4), SOFA's default rule: the hexahedron's 2×2×2 Gauss rule on the cube
 * collapsed onto the apex (see volume-elements.ts), i.e. M_pyr = Pᵀ·M_hex·P with the apex (its
 * position and density) copied onto nodes 4..7. X: 15 positions, rho: 5 densities; out 5 × 5.
 */
export function pyramidMassMatrix(out: Float64Array, X: Float64Array, rho: ArrayLike<number>): Float64Array {
  collapsedHexahedron(hexNodes, X);
  for (let k = 0; k < 8; k++) hexRho[k] = rho[Math.min(k, 4)];
  hexahedronMassMatrix(hexM, hexNodes, hexRho);
  return foldCollapsedHexahedron(out, hexM, 1, 1);
}
