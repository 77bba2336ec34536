import { FixedProjectiveConstraint } from './FixedProjectiveConstraint.js';
import { MechanicalObject } from './MechanicalObject.js';
import { SpringForceField, StiffSpringForceField } from './SpringForceField.js';
import { UniformMass } from './UniformMass.js';

/** Every component of @sofa-ts/mechanics, registered by module.ts. */
export const mechanicsComponents = [MechanicalObject, UniformMass, FixedProjectiveConstraint, SpringForceField, StiffSpringForceField] as const;
