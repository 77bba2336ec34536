import type { ComponentClass } from '@sofa-ts/core';
import { CudaHexahedronTLEDForceField } from './CudaHexahedronTLEDForceField.js';
import { CudaTetrahedronTLEDForceField } from './CudaTetrahedronTLEDForceField.js';

/** SofaCUDA's TLED force fields (Total Lagrangian Explicit Dynamics), run on the CPU. */
export const tledComponents: readonly ComponentClass[] = [CudaTetrahedronTLEDForceField, CudaHexahedronTLEDForceField];
