import type { ComponentClass } from '@sofa-ts/core';
import { DiagonalMass } from './DiagonalMass.js';
import { MeshMatrixMass } from './MeshMatrixMass.js';

/** Components of this folder, registered by the package's module.ts. */
export const massComponents: readonly ComponentClass[] = [DiagonalMass, MeshMatrixMass];
