import type { ComponentClass } from '@sofa-ts/core';
import { FixedPlaneProjectiveConstraint } from './FixedPlaneProjectiveConstraint.js';
import { PartialFixedProjectiveConstraint } from './PartialFixedProjectiveConstraint.js';
import { LinearMovementProjectiveConstraint } from './LinearMovementProjectiveConstraint.js';

/** Components of this folder, registered by the package's module.ts. */
export const projectiveComponents: readonly ComponentClass[] = [PartialFixedProjectiveConstraint, FixedPlaneProjectiveConstraint, LinearMovementProjectiveConstraint];
