import { sofaComponent, type BaseMeshTopology } from '@sofa-ts/core';
import { mat3Invert } from '@sofa-ts/linalg';
import { tetrahedraOfTopology } from '../tetrahedron/tetrahedron-element.js';
import { BaseTLEDForceField, type TLEDElements } from './BaseTLEDForceField.js';

/**
 * SofaCUDA's CudaTetrahedronTLEDForceField on the CPU: TLED (BaseTLEDForceField) on linear
 * tetrahedra, one integration point. With rest positions X₀..X₃ and D = [X₁ − X₀, X₂ − X₀, X₃ − X₀]
 * (columns), ∇N_a = D⁻ᵀ·∇_ξN_a for a = 1..3 and ∇N₀ = −Σ ∇N_a; V = |det D|/6.
 * A topology without tetrahedra but with hexahedra has each cube cut into 6 tetrahedra, as SofaCUDA
 * does (with a warning: CudaHexahedronTLEDForceField integrates the hexahedra themselves).
 */
@sofaComponent({
  name: 'CudaTetrahedronTLEDForceField',
  category: 'ForceField',
  module: 'SofaCUDA',
  description:
    "SofaCUDA's TLED (Total Lagrangian Explicit Dynamics) neo-Hookean tetrahedra, run on the CPU (double precision), with an exact tangent for implicit solvers.",
  templates: ['CudaVec3f'],
})
export class CudaTetrahedronTLEDForceField extends BaseTLEDForceField {
  protected buildElements(topo: BaseMeshTopology, X: Float64Array, pointCount: number): TLEDElements {
    const nodes = Uint32Array.from(tetrahedraOfTopology(topo));
    if (nodes.length === 0) throw this.error(`the topology ${topo.describe()} has no tetrahedra (nor hexahedra to cut)`);
    if (topo.getTetrahedra().length === 0)
      this.warn(
        'each hexahedron has been split into 6 tetrahedra (as SofaCUDA does)',
        'CudaHexahedronTLEDForceField integrates the hexahedra themselves',
      );
    for (const v of nodes) if (v >= pointCount) throw this.error(`the topology names point ${v}, but the state has ${pointCount} points`);
    const count = nodes.length / 4;
    const grad = new Float64Array(12 * count),
      volume = new Float64Array(count);
    const D = new Float64Array(9),
      Dinv = new Float64Array(9);
    for (let e = 0; e < count; e++) {
      const o0 = 3 * nodes[4 * e];
      // D (row i, column a−1) = X_a,i − X_0,i
      for (let a = 1; a < 4; a++) {
        const oa = 3 * nodes[4 * e + a];
        for (let i = 0; i < 3; i++) D[3 * i + a - 1] = X[oa + i] - X[o0 + i];
      }
      const det = mat3Invert(Dinv, D);
      if (!(Math.abs(det) > 0))
        throw this.error(`tetrahedron ${e} (${Array.from(nodes.subarray(4 * e, 4 * e + 4)).join(' ')}) has zero volume at rest`);
      volume[e] = Math.abs(det) / 6;
      // ∇N_a (a = 1..3) is row a − 1 of D⁻¹
      const go = 12 * e;
      for (let r = 0; r < 3; r++)
        for (let c = 0; c < 3; c++) {
          grad[go + 3 * (r + 1) + c] = Dinv[3 * r + c];
          grad[go + c] -= Dinv[3 * r + c];
        }
    }
    return { n: 4, nodes, grad, volume };
  }
}
