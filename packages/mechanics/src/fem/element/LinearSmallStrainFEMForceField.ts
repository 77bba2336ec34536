import { sofaComponent } from '@sofa-ts/core';
import { BaseElementLinearFEMForceField, elementFemTemplates } from './BaseElementLinearFEMForceField.js';

/**
 * SOFA's LinearSmallStrainFEMForceField (v26 element FEM): Hooke's law under small strain on
 * tetrahedra, hexahedra, pyramids, prisms, or triangles, quads and edges in 3D (template
 * `Vec3,Tetrahedron`, `Vec3,Hexahedron`, …, `Vec3,Triangle`, `Vec3,Quad`, `Vec3,Edge`).
 *   f_j −= (K_e·(x − X))_j per element,  K = ∂f/∂x = −Σ K_e (constant),
 * K_e = ∫ Bᵀ·D·B dV at the rest positions (see BaseElementLinearFEMForceField).
 */
@sofaComponent({
  name: 'LinearSmallStrainFEMForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: "Hooke's law assuming small strain, on volumes, triangles, quads or edges.",
  templates: elementFemTemplates,
})
export class LinearSmallStrainFEMForceField extends BaseElementLinearFEMForceField {
  protected rotating = false;

  protected computeRotation(): void {}
}
