import type { ComponentClass } from '@sofa-ts/core';
import { HexahedronFEMForceField } from './HexahedronFEMForceField.js';
import { ParallelHexahedronFEMForceField } from './ParallelHexahedronFEMForceField.js';
import { ParallelTetrahedronFEMForceField } from './ParallelTetrahedronFEMForceField.js';
import { TetrahedralCorotationalFEMForceField } from './TetrahedralCorotationalFEMForceField.js';
import { TetrahedronFEMForceField } from './TetrahedronFEMForceField.js';

/** The volume finite-element force fields of @sofa-ts/mechanics. */
export const volumeFemComponents: readonly ComponentClass[] = [TetrahedronFEMForceField, TetrahedralCorotationalFEMForceField, HexahedronFEMForceField, ParallelTetrahedronFEMForceField, ParallelHexahedronFEMForceField];
