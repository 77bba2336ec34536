import type { ComponentClass } from '@sofa-ts/core';
import { FastTetrahedralCorotationalForceField } from './tetrahedron/FastTetrahedralCorotationalForceField.js';
import { HexahedralFEMForceField } from './hexahedron/HexahedralFEMForceField.js';
import { HexahedralFEMForceFieldAndMass } from './hexahedron/HexahedralFEMForceFieldAndMass.js';
import { HexahedronFEMForceField } from './hexahedron/HexahedronFEMForceField.js';
import { ParallelHexahedronFEMForceField } from './hexahedron/ParallelHexahedronFEMForceField.js';
import { ParallelTetrahedronFEMForceField } from './tetrahedron/ParallelTetrahedronFEMForceField.js';
import { HexahedronFEMForceFieldAndMass } from './hexahedron/HexahedronFEMForceFieldAndMass.js';
import { NonUniformHexahedronFEMForceFieldAndMass } from './hexahedron/NonUniformHexahedronFEMForceFieldAndMass.js';
import { HexahedronCompositeFEMForceFieldAndMass } from './hexahedron/HexahedronCompositeFEMForceFieldAndMass.js';
import { HexahedronCompositeFEMMapping } from './hexahedron/HexahedronCompositeFEMMapping.js';
import { TetrahedralCorotationalFEMForceField } from './tetrahedron/TetrahedralCorotationalFEMForceField.js';
import { TetrahedronFEMForceField } from './tetrahedron/TetrahedronFEMForceField.js';

/** The volume finite-element force fields of @sofa-ts/mechanics (and the composite FEM's mapping). */
export const volumeFemComponents: readonly ComponentClass[] = [
  TetrahedronFEMForceField,
  TetrahedralCorotationalFEMForceField,
  HexahedronFEMForceField,
  HexahedronFEMForceFieldAndMass,
  NonUniformHexahedronFEMForceFieldAndMass,
  HexahedronCompositeFEMForceFieldAndMass,
  HexahedronCompositeFEMMapping,
  FastTetrahedralCorotationalForceField,
  HexahedralFEMForceField,
  HexahedralFEMForceFieldAndMass,
  ParallelTetrahedronFEMForceField,
  ParallelHexahedronFEMForceField,
];
