import type { ComponentClass } from '@sofa-ts/core';
import { beamAdapterComponents } from './beamadapter/components.js';
import { Fluid2D } from './eulerianfluid/Fluid2D.js';
import { Fluid3D } from './eulerianfluid/Fluid3D.js';
import { femComponents } from './fem/components.js';
import { FixedProjectiveConstraint } from './projective/FixedProjectiveConstraint.js';
import { MechanicalStateController } from './controller/MechanicalStateController.js';
import { loadComponents } from './load/components.js';
import { massComponents } from './mass/components.js';
import { MappedObject } from './MappedObject.js';
import { MechanicalObject } from './MechanicalObject.js';
import { projectiveComponents } from './projective/components.js';
import { springComponents } from './spring/components.js';
import { sphFluidComponents } from './sphfluid/components.js';
import { SpringForceField, StiffSpringForceField } from './spring/SpringForceField.js';
import { UniformMass } from './mass/UniformMass.js';

/** Every component of @sofa-ts/mechanics, registered by module.ts. */
export const mechanicsComponents: readonly ComponentClass[] = [
  MechanicalObject,
  MappedObject,
  UniformMass,
  FixedProjectiveConstraint,
  SpringForceField,
  StiffSpringForceField,
  ...massComponents,
  ...springComponents,
  ...loadComponents,
  ...projectiveComponents,
  ...femComponents,
  ...beamAdapterComponents,
  MechanicalStateController,
  Fluid2D,
  Fluid3D,
  ...sphFluidComponents,
];
