import type { ComponentClass } from '@sofa-ts/core';
import { CorotationalFEMForceField } from './CorotationalFEMForceField.js';
import { LinearSmallStrainFEMForceField } from './LinearSmallStrainFEMForceField.js';

/** SOFA's element force fields (v26 FEM: LinearSmallStrainFEMForceField, CorotationalFEMForceField). */
export const elementFemComponents: readonly ComponentClass[] = [LinearSmallStrainFEMForceField, CorotationalFEMForceField];
