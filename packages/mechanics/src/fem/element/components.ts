import type { ComponentClass } from '@sofa-ts/core';
import { CorotationalFEMForceField } from './CorotationalFEMForceField.js';
import { LinearSmallStrainFEMForceField } from './LinearSmallStrainFEMForceField.js';
import { CudaCorotationalFEMForceField, CudaLinearSmallStrainFEMForceField } from './sofacuda-twins.js';

/** SOFA's element force fields (v26 FEM: LinearSmallStrainFEMForceField, CorotationalFEMForceField), and SofaCUDA's names for them. */
export const elementFemComponents: readonly ComponentClass[] = [
  LinearSmallStrainFEMForceField,
  CorotationalFEMForceField,
  CudaLinearSmallStrainFEMForceField,
  CudaCorotationalFEMForceField,
];
