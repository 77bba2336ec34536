import { sofaComponent, type BaseMeshTopology } from '@sofa-ts/core';
import { mat3Invert } from '@sofa-ts/linalg';
import { BaseTLEDForceField, type TLEDElements } from './BaseTLEDForceField.js';

/** SOFA's hexahedron node order: node a sits at (ξ, η, ζ) = HEXA_SIGNS[a] of the reference cube [−1, 1]³. */
const HEXA_SIGNS = [
  [-1, -1, -1],
  [1, -1, -1],
  [1, 1, -1],
  [-1, 1, -1],
  [-1, -1, 1],
  [1, -1, 1],
  [1, 1, 1],
  [-1, 1, 1],
] as const;

/** The 4 hourglass base vectors h_α (ξη, ηζ, ξζ, ξηζ at the nodes), 8 values each. */
const HOURGLASS_BASE = [
  HEXA_SIGNS.map(([x, y]) => x * y),
  HEXA_SIGNS.map(([, y, z]) => y * z),
  HEXA_SIGNS.map(([x, , z]) => x * z),
  HEXA_SIGNS.map(([x, y, z]) => x * y * z),
];

/**
 * SofaCUDA's CudaHexahedronTLEDForceField on the CPU: TLED (BaseTLEDForceField) on 8-node
 * hexahedra with one integration point and hourglass control (Flanagan & Belytschko 1981, as the
 * TLED papers use it: Joldes, Wittek, Miller 2008):
 * - the uniform gradients ∇N_a = (1/V)·∫ ∂N_a/∂X dV and the volume V = ∫ dV, both exact with the
 *   2×2×2 Gauss rule (the integrands are at most quadratic in each of ξ, η, ζ), so that a
 *   homogeneous deformation is reproduced (the patch test) on any hexahedron;
 * - the hourglass vectors γ_α = h_α − Σ_k ∇N_k·(h_αᵀ·X_k) (X_k the nodes' k-th coordinates), orthogonal
 *   to every linear field, and Γ = V·(Σ_a |∇N_a|²)/8·Σ_α γ_α·γ_αᵀ: the force −κ(λ + 2μ)·Γ·u
 *   resists the 4 hourglass modes per direction (which one point does not see) and vanishes for
 *   linear displacements and rigid motions, κ = 0.5 as SofaCUDA hard-codes it.
 * SofaCUDA weighs the point with 8·det J at the centre and takes ∇N_a from the same exact integral;
 * the two weights agree on parallelepipeds (the grids of its scenes); sofa-ts uses V on every shape.
 */
@sofaComponent({
  name: 'CudaHexahedronTLEDForceField',
  category: 'ForceField',
  module: 'SofaCUDA',
  description:
    "SofaCUDA's TLED (Total Lagrangian Explicit Dynamics) neo-Hookean hexahedra with hourglass control, run on the CPU (double precision), with an exact tangent for implicit solvers.",
  templates: ['CudaVec3f'],
})
export class CudaHexahedronTLEDForceField extends BaseTLEDForceField {
  protected buildElements(topo: BaseMeshTopology, X: Float64Array, pointCount: number): TLEDElements {
    const nodes = Uint32Array.from(topo.getHexahedra());
    if (nodes.length === 0) throw this.error(`the topology ${topo.describe()} has no hexahedra`);
    for (const v of nodes) if (v >= pointCount) throw this.error(`the topology names point ${v}, but the state has ${pointCount} points`);
    const count = nodes.length / 8;
    const grad = new Float64Array(24 * count),
      volume = new Float64Array(count),
      hourglass = new Float64Array(64 * count);
    const Jm = new Float64Array(9),
      Ji = new Float64Array(9),
      dN = new Float64Array(24),
      gamma = new Float64Array(32);
    const gp = 1 / Math.sqrt(3);
    for (let e = 0; e < count; e++) {
      const go = 24 * e;
      let V = 0;
      for (let q = 0; q < 8; q++) {
        const xi = HEXA_SIGNS[q][0] * gp,
          eta = HEXA_SIGNS[q][1] * gp,
          zeta = HEXA_SIGNS[q][2] * gp;
        // ∂N_a/∂(ξ, η, ζ), N_a = (1 + s_ξ ξ)(1 + s_η η)(1 + s_ζ ζ)/8
        for (let a = 0; a < 8; a++) {
          const [sx, sy, sz] = HEXA_SIGNS[a];
          const fx = 1 + sx * xi,
            fy = 1 + sy * eta,
            fz = 1 + sz * zeta;
          dN[3 * a] = (sx * fy * fz) / 8;
          dN[3 * a + 1] = (fx * sy * fz) / 8;
          dN[3 * a + 2] = (fx * fy * sz) / 8;
        }
        // J (row j = ∂/∂ξ_j, column k = X_k)
        Jm.fill(0);
        for (let a = 0; a < 8; a++) {
          const o = 3 * nodes[8 * e + a];
          for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) Jm[3 * j + k] += dN[3 * a + j] * X[o + k];
        }
        const det = mat3Invert(Ji, Jm);
        V += det;
        // ∂N_a/∂X = J⁻¹·∂N_a/∂ξ, weighted by det J (Gauss weights 1)
        for (let a = 0; a < 8; a++)
          for (let k = 0; k < 3; k++)
            grad[go + 3 * a + k] += det * (Ji[3 * k] * dN[3 * a] + Ji[3 * k + 1] * dN[3 * a + 1] + Ji[3 * k + 2] * dN[3 * a + 2]);
      }
      if (!(Math.abs(V) > 0))
        throw this.error(`hexahedron ${e} (${Array.from(nodes.subarray(8 * e, 8 * e + 8)).join(' ')}) has zero volume at rest`);
      for (let k = 0; k < 24; k++) grad[go + k] /= V;
      V = Math.abs(V);
      volume[e] = V;
      // γ_α = h_α − Σ_k ∇N_k·(h_αᵀ·X_k)
      let g2 = 0;
      for (let k = 0; k < 24; k++) g2 += grad[go + k] * grad[go + k];
      for (let al = 0; al < 4; al++) {
        const h = HOURGLASS_BASE[al];
        const hx = [0, 0, 0];
        for (let a = 0; a < 8; a++) {
          const o = 3 * nodes[8 * e + a];
          for (let k = 0; k < 3; k++) hx[k] += h[a] * X[o + k];
        }
        for (let a = 0; a < 8; a++)
          gamma[8 * al + a] = h[a] - (grad[go + 3 * a] * hx[0] + grad[go + 3 * a + 1] * hx[1] + grad[go + 3 * a + 2] * hx[2]);
      }
      const s = (V * g2) / 8,
        ho = 64 * e;
      for (let a = 0; a < 8; a++)
        for (let b = 0; b < 8; b++) {
          let v = 0;
          for (let al = 0; al < 4; al++) v += gamma[8 * al + a] * gamma[8 * al + b];
          hourglass[ho + 8 * a + b] = s * v;
        }
    }
    return { n: 8, nodes, grad, volume, hourglass };
  }
}
