import { sofaComponent } from '@sofa-ts/core';
import { HexahedronFEMForceFieldAndMass } from './HexahedronFEMForceFieldAndMass.js';

/**
 * SOFA's HexahedralFEMForceFieldAndMass: HexahedralFEMForceField and the mass of its hexahedra, the
 * same element mass as HexahedronFEMForceFieldAndMass (blocks (8/27)·ρV·I, gravity ρV/8 per corner,
 * lumpedMass for the row sums). SOFA assembles only the diagonal blocks of M and K in its matrix
 * (while its products use the full matrices); here the assembled and matrix-free forms are the same
 * full matrices.
 */
@sofaComponent({
  name: 'HexahedralFEMForceFieldAndMass',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: 'HexahedralFEMForceField and the mass of its hexahedra in one component.',
  templates: ['Vec3d'],
})
export class HexahedralFEMForceFieldAndMass extends HexahedronFEMForceFieldAndMass {}
