import { Str, sofaComponent } from '@sofa-ts/core';
import { TetrahedronHyperelasticityFEMForceField } from './TetrahedronHyperelasticityFEMForceField.js';

/**
 * SOFA's StandardTetrahedralFEMForceField: the older twin of TetrahedronHyperelasticityFEMForceField
 * (the same tetrahedra, f_a = −V·F·S·∇N_a written with a strain-displacement matrix, the same
 * materials and ParameterSet), without StableNeoHookean. It shares that component's kernel.
 * ParameterFile (per-tetrahedron parameters in SOFA's old file format) is not read.
 */
@sofaComponent({
  name: 'StandardTetrahedralFEMForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.HyperElastic',
  description: 'Hyperelastic tetrahedra (the older twin of TetrahedronHyperelasticityFEMForceField).',
  templates: ['Vec3d'],
})
export class StandardTetrahedralFEMForceField extends TetrahedronHyperelasticityFEMForceField {
  readonly parameterFile = this.initData({
    name: 'ParameterFile',
    type: Str,
    default: 'myFile.param',
    help: 'file of per-tetrahedron material parameters (not read: give ParameterSet)',
  });

  override init(): void {
    if (this.materialName.value === 'StableNeoHookean')
      throw this.error(
        "StandardTetrahedralFEMForceField has no material 'StableNeoHookean'",
        'use TetrahedronHyperelasticityFEMForceField for it',
      );
    if (this.parameterFile.isSet) this.warn(`ParameterFile '${this.parameterFile.value}' is not read; the material takes ParameterSet`);
    super.init();
  }
}
