import type { ComponentClass } from '@sofa-ts/core';
import { TriangleFEMForceField } from './TriangleFEMForceField.js';
import { TriangularFEMForceField } from './TriangularFEMForceField.js';
import { TriangularFEMForceFieldOptim } from './TriangularFEMForceFieldOptim.js';

/** The triangle finite-element force fields of @sofa-ts/mechanics. */
export const triangleFemComponents: readonly ComponentClass[] = [
  TriangularFEMForceField,
  TriangleFEMForceField,
  TriangularFEMForceFieldOptim,
];
