import type { ComponentClass } from '@sofa-ts/core';
import { DirectionProjectiveConstraint } from './DirectionProjectiveConstraint.js';
import { FixedPlaneProjectiveConstraint } from './FixedPlaneProjectiveConstraint.js';
import { LinearMovementProjectiveConstraint } from './LinearMovementProjectiveConstraint.js';
import { LinearVelocityProjectiveConstraint } from './LinearVelocityProjectiveConstraint.js';
import { LineProjectiveConstraint } from './LineProjectiveConstraint.js';
import { PartialFixedProjectiveConstraint } from './PartialFixedProjectiveConstraint.js';
import { PlaneProjectiveConstraint } from './PlaneProjectiveConstraint.js';
import { PointProjectiveConstraint } from './PointProjectiveConstraint.js';

/** Components of this folder, registered by the package's module.ts. */
export const projectiveComponents: readonly ComponentClass[] = [
  PartialFixedProjectiveConstraint,
  FixedPlaneProjectiveConstraint,
  LinearMovementProjectiveConstraint,
  PointProjectiveConstraint,
  LineProjectiveConstraint,
  PlaneProjectiveConstraint,
  DirectionProjectiveConstraint,
  LinearVelocityProjectiveConstraint,
];
