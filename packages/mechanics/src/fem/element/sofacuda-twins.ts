import { sofaComponent, warnSofaCudaTwin } from '@sofa-ts/core';
import { elementFemTemplates } from './BaseElementLinearFEMForceField.js';
import { CorotationalFEMForceField } from './CorotationalFEMForceField.js';
import { LinearSmallStrainFEMForceField } from './LinearSmallStrainFEMForceField.js';

/**
 * SofaCUDA's element force fields on the CPU. SofaCUDA registers CudaCorotationalFEMForceField and
 * CudaLinearSmallStrainFEMForceField (template `CudaVec3f,<element>`) as CUDA kernels of the CPU
 * element force fields' equations. sofa-ts has no GPU path: these are its CPU force fields under
 * SofaCUDA's names, on the state's Vec3d (CudaVec3f is read as Vec3d, state-types.ts): the same
 * physics, computed in double precision where SofaCUDA computes in float — results agree to float
 * precision, not to the last digit. Each says so at init, once per scene (warnSofaCudaTwin).
 */

@sofaComponent({
  name: 'CudaCorotationalFEMForceField',
  category: 'ForceField',
  module: 'SofaCUDA',
  description: "SofaCUDA's CorotationalFEMForceField, run on the CPU as CorotationalFEMForceField (double precision).",
  templates: elementFemTemplates,
})
export class CudaCorotationalFEMForceField extends CorotationalFEMForceField {
  override init(): void {
    warnSofaCudaTwin(this, 'CorotationalFEMForceField');
    super.init();
  }
}

@sofaComponent({
  name: 'CudaLinearSmallStrainFEMForceField',
  category: 'ForceField',
  module: 'SofaCUDA',
  description: "SofaCUDA's LinearSmallStrainFEMForceField, run on the CPU as LinearSmallStrainFEMForceField (double precision).",
  templates: elementFemTemplates,
})
export class CudaLinearSmallStrainFEMForceField extends LinearSmallStrainFEMForceField {
  override init(): void {
    warnSofaCudaTwin(this, 'LinearSmallStrainFEMForceField');
    super.init();
  }
}
