import type { ComponentClass } from '@sofa-ts/core';
import { FastTetrahedralCorotationalForceField } from './FastTetrahedralCorotationalForceField.js';
import { HexahedralFEMForceField } from './HexahedralFEMForceField.js';
import { HexahedralFEMForceFieldAndMass } from './HexahedralFEMForceFieldAndMass.js';
import { HexahedronFEMForceField } from './HexahedronFEMForceField.js';
import { ParallelHexahedronFEMForceField } from './ParallelHexahedronFEMForceField.js';
import { ParallelTetrahedronFEMForceField } from './ParallelTetrahedronFEMForceField.js';
import { HexahedronFEMForceFieldAndMass } from './HexahedronFEMForceFieldAndMass.js';
import { TetrahedralCorotationalFEMForceField } from './TetrahedralCorotationalFEMForceField.js';
import { TetrahedronFEMForceField } from './TetrahedronFEMForceField.js';

/** The volume finite-element force fields of @sofa-ts/mechanics. */
export const volumeFemComponents: readonly ComponentClass[] = [TetrahedronFEMForceField, TetrahedralCorotationalFEMForceField, HexahedronFEMForceField, HexahedronFEMForceFieldAndMass, FastTetrahedralCorotationalForceField, HexahedralFEMForceField, HexahedralFEMForceFieldAndMass, ParallelTetrahedronFEMForceField, ParallelHexahedronFEMForceField];
