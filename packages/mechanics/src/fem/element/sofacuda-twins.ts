import { sofaComponent } from '@sofa-ts/core';
import { elementFemTemplates } from './BaseElementLinearFEMForceField.js';
import { CorotationalFEMForceField } from './CorotationalFEMForceField.js';
import { LinearSmallStrainFEMForceField } from './LinearSmallStrainFEMForceField.js';

/**
 * SofaCUDA's element force fields on the CPU. SofaCUDA registers CudaCorotationalFEMForceField and
 * CudaLinearSmallStrainFEMForceField (template `CudaVec3f,<element>`) as CUDA kernels of the CPU
 * element force fields' equations. sofa-ts has no GPU path: these are its CPU force fields under
 * SofaCUDA's names, on the state's Vec3d (CudaVec3f is read as Vec3d, state-types.ts): the same
 * physics, computed in double precision where SofaCUDA computes in float — results agree to float
 * precision, not to the last digit. Each says so once, at init.
 */

const cpuNote = (cpu: string): string =>
  `SofaCUDA's GPU kernels are not used: this is sofa-ts's ${cpu} on the CPU, in double precision (SofaCUDA's CudaVec3f computes in float, so its results differ at float precision)`;

@sofaComponent({
  name: 'CudaCorotationalFEMForceField',
  category: 'ForceField',
  module: 'SofaCUDA',
  description: "SofaCUDA's CorotationalFEMForceField, run on the CPU as CorotationalFEMForceField (double precision).",
  templates: elementFemTemplates,
})
export class CudaCorotationalFEMForceField extends CorotationalFEMForceField {
  override init(): void {
    this.warn(cpuNote('CorotationalFEMForceField'));
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
    this.warn(cpuNote('LinearSmallStrainFEMForceField'));
    super.init();
  }
}
