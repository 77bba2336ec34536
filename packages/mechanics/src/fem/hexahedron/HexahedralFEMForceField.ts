import { sofaComponent } from '@sofa-ts/core';
import { HexahedronFEMForceField } from './HexahedronFEMForceField.js';

/**
 * SOFA's HexahedralFEMForceField: corotational trilinear hexahedra on a dynamic hexahedron topology,
 * "large" (frame of the mean edges) or "polar". Its element is HexahedronFEMForceField's: SOFA
 * integrates K = ∫Bᵀ·D·B analytically on axis-aligned boxes (a diagonal inverse Jacobian), which
 * 2×2×2 Gauss integration reproduces exactly; here K is computed in the element's rest frame, so
 * boxes of any orientation (and parallelepipeds) are exact too. The Data are
 * HexahedronFEMForceField's (SOFA's Hexahedral has method, youngModulus, poissonRatio of them).
 */
@sofaComponent({
  name: 'HexahedralFEMForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: 'Corotational trilinear hexahedra (large or polar) on a hexahedron topology.',
  templates: ['Vec3d'],
})
export class HexahedralFEMForceField extends HexahedronFEMForceField {}
