import type { ComponentClass } from '@sofa-ts/core';
import { CableConstraint } from './constraint/CableConstraint.js';

/** Every component of @sofa-ts/softrobots, registered by module.ts. */
export const softRobotsComponents: readonly ComponentClass[] = [CableConstraint];
