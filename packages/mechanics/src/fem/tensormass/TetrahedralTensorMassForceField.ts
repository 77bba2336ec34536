import { sofaComponent, type BaseMeshTopology } from '@sofa-ts/core';
import { strainDisplacement, tetrahedronStiffness } from '../tetrahedron/tetrahedron-element.js';
import { isotropicHooke } from '../volume-elasticity.js';
import { EdgeTensorForceField } from './edge-tensor-force-field.js';

/** SOFA's local edges of a tetrahedron. */
const TETRA_EDGES = [
  [0, 1],
  [0, 2],
  [0, 3],
  [1, 2],
  [1, 3],
  [2, 3],
] as const;

/**
 * SOFA's TetrahedralTensorMassForceField: linear elasticity of tetrahedra in small displacements
 * (Delingette's tensor-mass model), stored per edge (see EdgeTensorForceField). The tensor of the
 * edge (k, l) of a tetrahedron of rest volume V is the block K_lk = V·B_lᵀ·D·B_k of its linear
 * stiffness (λ, μ from youngModulus and poissonRatio), computed by the same kernel as the
 * linear tetrahedra of TetrahedronFEMForceField:
 *   K_lk = V·(λ·∇N_l ∇N_kᵀ + μ·∇N_k ∇N_lᵀ + μ·(∇N_k·∇N_l)·I).
 */
@sofaComponent({
  name: 'TetrahedralTensorMassForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.TensorMass',
  description: 'Linear elastic tetrahedra in small displacements, stored as edge tensors (tensor-mass model).',
  templates: ['Vec3d'],
})
export class TetrahedralTensorMassForceField extends EdgeTensorForceField {
  protected buildTensors(topo: BaseMeshTopology, X: Float64Array): void {
    const tets = topo.getTetrahedra();
    if (tets.length === 0) this.warn(`no tetrahedra in ${topo.describe()}`);
    const hooke = isotropicHooke(new Float64Array(3), this.youngModulus.value, this.poissonRatio.value);
    const P = new Float64Array(12),
      grad = new Float64Array(12),
      K = new Float64Array(144),
      T = new Float64Array(9);
    for (let e = 0; e < tets.length / 4; e++) {
      for (let j = 0; j < 4; j++) for (let c = 0; c < 3; c++) P[3 * j + c] = X[3 * tets[4 * e + j] + c];
      const ux = P[3] - P[0],
        uy = P[4] - P[1],
        uz = P[5] - P[2];
      const vx = P[6] - P[0],
        vy = P[7] - P[1],
        vz = P[8] - P[2];
      const wx = P[9] - P[0],
        wy = P[10] - P[1],
        wz = P[11] - P[2];
      const V = Math.abs((uy * vz - uz * vy) * wx + (uz * vx - ux * vz) * wy + (ux * vy - uy * vx) * wz) / 6;
      if (!(V > 0)) throw this.error(`tetrahedron ${e} has zero volume at rest`);
      // J·K·Jᵀ = V·Bᵀ·D·B from the cofactor gradients and Hooke / 36V
      strainDisplacement(grad, 0, P);
      const s = 1 / (36 * V);
      tetrahedronStiffness(K, grad, 0, hooke[0] * s, hooke[1] * s, hooke[2] * s);
      for (const [k, l] of TETRA_EDGES) {
        for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) T[3 * r + c] = K[12 * (3 * l + r) + 3 * k + c];
        this.addEdgeTensor(tets[4 * e + k], tets[4 * e + l], T);
      }
    }
  }
}
