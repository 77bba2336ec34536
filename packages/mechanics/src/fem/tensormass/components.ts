import type { ComponentClass } from '@sofa-ts/core';
import { TetrahedralTensorMassForceField } from './TetrahedralTensorMassForceField.js';
import { TriangularTensorMassForceField } from './TriangularTensorMassForceField.js';

/** SOFA's tensor-mass force fields (Sofa.Component.SolidMechanics.TensorMass). */
export const tensorMassComponents: readonly ComponentClass[] = [TetrahedralTensorMassForceField, TriangularTensorMassForceField];
