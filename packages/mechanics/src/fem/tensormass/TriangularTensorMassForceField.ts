import { sofaComponent, type BaseMeshTopology } from '@sofa-ts/core';
import { EdgeTensorForceField } from './edge-tensor-force-field.js';

/**
 * SOFA's TriangularTensorMassForceField: a linear elastic membrane of triangles in small
 * displacements (Delingette's tensor-mass model), stored per edge (see EdgeTensorForceField). With
 * the plane-stress coefficients λ = Eν/(1 − ν²), μ = E(1 − ν)/(1 − ν²) (= 2G) and, for the edge
 * (k, l) opposite vertex j of a triangle of rest area A (Heron's formula), a = X_j − X_k,
 * b = X_j − X_l and cot_j the cotangent of the angle at j, the tensor coupling l to k is
 *   T = λ/(4A)·a⊗b + μ/(8A)·b⊗a − ½·cot_j·(λ + μ)·I  (f_k += T·(u_k − u_l)),
 * which within the plane is the linear plane-stress triangle; the identity term also acts along
 * the normal, so the membrane resists out-of-plane deformation with cotangent-weighted stiffness,
 * as SOFA's does.
 */
@sofaComponent({
  name: 'TriangularTensorMassForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.TensorMass',
  description: 'Linear elastic membrane of triangles in small displacements, stored as edge tensors (tensor-mass model).',
  templates: ['Vec3d'],
})
export class TriangularTensorMassForceField extends EdgeTensorForceField {
  protected buildTensors(topo: BaseMeshTopology, X: Float64Array): void {
    const tris = topo.getTriangles();
    if (tris.length === 0) this.warn(`no triangles in ${topo.describe()}`);
    const E = this.youngModulus.value,
      nu = this.poissonRatio.value;
    const lambda = (E * nu) / (1 - nu * nu),
      mu = (E * (1 - nu)) / (1 - nu * nu);
    const P = new Float64Array(9),
      L2 = new Float64Array(3),
      T = new Float64Array(9),
      a = new Float64Array(3),
      b = new Float64Array(3);
    for (let e = 0; e < tris.length / 3; e++) {
      for (let j = 0; j < 3; j++) for (let c = 0; c < 3; c++) P[3 * j + c] = X[3 * tris[3 * e + j] + c];
      // squared lengths of the edges opposite each vertex, area by Heron's formula
      for (let j = 0; j < 3; j++) {
        const p = 3 * ((j + 1) % 3),
          q = 3 * ((j + 2) % 3);
        L2[j] = (P[p] - P[q]) ** 2 + (P[p + 1] - P[q + 1]) ** 2 + (P[p + 2] - P[q + 2]) ** 2;
      }
      let area = 0;
      for (let j = 0; j < 3; j++) area += L2[j] * (L2[(j + 1) % 3] + L2[(j + 2) % 3] - L2[j]);
      area = Math.sqrt(area) / 4;
      if (!(area > 0)) throw this.error(`triangle ${e} has zero area at rest`);
      const ls = lambda / (4 * area),
        ms = mu / (8 * area);
      for (let j = 0; j < 3; j++) {
        const k = (j + 1) % 3,
          l = (j + 2) % 3;
        const cot = (L2[k] + L2[l] - L2[j]) / (4 * area);
        for (let c = 0; c < 3; c++) {
          a[c] = P[3 * j + c] - P[3 * k + c];
          b[c] = P[3 * j + c] - P[3 * l + c];
        }
        const diag = (-cot * (lambda + mu)) / 2;
        for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) T[3 * r + c] = ls * a[r] * b[c] + ms * b[r] * a[c] + (r === c ? diag : 0);
        // T couples l to k: f_k += T·(u_k − u_l)
        this.addEdgeTensor(tris[3 * e + l], tris[3 * e + k], T);
      }
    }
  }
}
