import type { ComponentClass } from '@sofa-ts/core';
import { DiagonalMass } from './DiagonalMass.js';
import { FEMMass } from './FEMMass.js';
import { MeshMatrixMass } from './MeshMatrixMass.js';
import { NodalMassDensity } from './NodalMassDensity.js';

/** Components of this folder, registered by the package's module.ts. */
export const massComponents: readonly ComponentClass[] = [DiagonalMass, MeshMatrixMass, NodalMassDensity, FEMMass];
