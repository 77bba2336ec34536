import type { ComponentClass } from '@sofa-ts/core';
import { TriangleFEMForceField } from './triangle/TriangleFEMForceField.js';
import { TriangularFEMForceField } from './triangle/TriangularFEMForceField.js';
import { TriangularFEMForceFieldOptim } from './triangle/TriangularFEMForceFieldOptim.js';

/** The triangle finite-element force fields of @sofa-ts/mechanics. */
export const triangleFemComponents: readonly ComponentClass[] = [TriangularFEMForceField, TriangleFEMForceField, TriangularFEMForceFieldOptim];
