import type { ComponentClass } from '@sofa-ts/core';
import { AngularSpringForceField } from './AngularSpringForceField.js';
import { FastTriangularBendingSprings } from './FastTriangularBendingSprings.js';
import { MeshSpringForceField } from './MeshSpringForceField.js';
import { ParallelMeshSpringForceField, ParallelSpringForceField } from './parallel-springs.js';
import { PolynomialRestShapeSpringsForceField } from './PolynomialRestShapeSpringsForceField.js';
import { PolynomialSpringsForceField } from './PolynomialSpringsForceField.js';
import { JointSpringForceField } from './JointSpringForceField.js';
import { GearSpringForceField } from './GearSpringForceField.js';
import { TriangularBiquadraticSpringsForceField, TriangularQuadraticSpringsForceField } from './TriangularQuadraticSprings.js';
import { QuadBendingSprings } from './QuadBendingSprings.js';
import { QuadularBendingSprings } from './QuadularBendingSprings.js';
import { TriangleBendingSprings } from './TriangleBendingSprings.js';
import { RegularGridSpringForceField } from './RegularGridSpringForceField.js';
import { TriangularBendingSprings } from './TriangularBendingSprings.js';

/** Components of this folder, registered by the package's module.ts. */
export const springComponents: readonly ComponentClass[] = [
  MeshSpringForceField,
  ParallelMeshSpringForceField,
  ParallelSpringForceField,
  RegularGridSpringForceField,
  TriangularBendingSprings,
  QuadBendingSprings,
  FastTriangularBendingSprings,
  TriangleBendingSprings,
  QuadularBendingSprings,
  PolynomialSpringsForceField,
  PolynomialRestShapeSpringsForceField,
  JointSpringForceField,
  GearSpringForceField,
  AngularSpringForceField,
  TriangularQuadraticSpringsForceField,
  TriangularBiquadraticSpringsForceField,
];
