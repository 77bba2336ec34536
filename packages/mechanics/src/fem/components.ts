import type { ComponentClass } from '@sofa-ts/core';
import { BeamFEMForceField } from './beam/BeamFEMForceField.js';
import { diffusionComponents } from './diffusion/components.js';
import { elementFemComponents } from './element/components.js';
import { StandardTetrahedralFEMForceField } from './hyperelastic/StandardTetrahedralFEMForceField.js';
import { TetrahedronHyperelasticityFEMForceField } from './hyperelastic/TetrahedronHyperelasticityFEMForceField.js';
import { QuadBendingFEMForceField } from './quad/QuadBendingFEMForceField.js';
import { tensorMassComponents } from './tensormass/components.js';
import { tledComponents } from './tled/components.js';
import { triangleFemComponents } from './triangle/components.js';
import { volumeFemComponents } from './volume-components.js';

/** The finite-element force fields of @sofa-ts/mechanics. */
export const femComponents: readonly ComponentClass[] = [
  ...volumeFemComponents,
  ...triangleFemComponents,
  ...elementFemComponents,
  TetrahedronHyperelasticityFEMForceField,
  StandardTetrahedralFEMForceField,
  QuadBendingFEMForceField,
  BeamFEMForceField,
  ...tensorMassComponents,
  ...diffusionComponents,
  ...tledComponents,
];
