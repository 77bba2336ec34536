import type { ComponentClass } from '@sofa-ts/core';
import { MeshSpringForceField } from './MeshSpringForceField.js';
import { QuadularBendingSprings } from './QuadularBendingSprings.js';
import { RegularGridSpringForceField } from './RegularGridSpringForceField.js';
import { TriangularBendingSprings } from './TriangularBendingSprings.js';

/** Components of this folder, registered by the package's module.ts. */
export const springComponents: readonly ComponentClass[] = [MeshSpringForceField, QuadularBendingSprings, RegularGridSpringForceField, TriangularBendingSprings];
