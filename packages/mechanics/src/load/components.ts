import type { ComponentClass } from '@sofa-ts/core';
import { ConicalForceField } from './ConicalForceField.js';
import { ConstantForceField } from './ConstantForceField.js';
import { DiagonalVelocityDampingForceField } from './DiagonalVelocityDampingForceField.js';
import { EdgePressureForceField } from './EdgePressureForceField.js';
import { EllipsoidForceField } from './EllipsoidForceField.js';
import { Gravity } from './Gravity.js';
import { InteractionEllipsoidForceField } from './InteractionEllipsoidForceField.js';
import { LinearForceField } from './LinearForceField.js';
import { PlaneForceField } from './PlaneForceField.js';
import { QuadPressureForceField } from './QuadPressureForceField.js';
import { RestShapeSpringsForceField } from './RestShapeSpringsForceField.js';
import { SphereForceField } from './SphereForceField.js';
import { SurfacePressureForceField } from './SurfacePressureForceField.js';
import { TaitSurfacePressureForceField } from './TaitSurfacePressureForceField.js';
import { TrianglePressureForceField } from './TrianglePressureForceField.js';
import { UniformVelocityDampingForceField } from './UniformVelocityDampingForceField.js';

/** Components of this folder, registered by the package's module.ts. */
export const loadComponents: readonly ComponentClass[] = [
  ConstantForceField,
  Gravity,
  PlaneForceField,
  RestShapeSpringsForceField,
  TrianglePressureForceField,
  QuadPressureForceField,
  EdgePressureForceField,
  SurfacePressureForceField,
  TaitSurfacePressureForceField,
  EllipsoidForceField,
  InteractionEllipsoidForceField,
  SphereForceField,
  ConicalForceField,
  LinearForceField,
  UniformVelocityDampingForceField,
  DiagonalVelocityDampingForceField,
];
