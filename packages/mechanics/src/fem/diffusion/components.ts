import type { ComponentClass } from '@sofa-ts/core';
import { TetrahedronDiffusionFEMForceField } from './TetrahedronDiffusionFEMForceField.js';

/** SOFA's diffusion force fields (Sofa.Component.Diffusion). */
export const diffusionComponents: readonly ComponentClass[] = [TetrahedronDiffusionFEMForceField];
