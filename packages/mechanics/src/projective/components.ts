import type { ComponentClass } from '@sofa-ts/core';
import { AffineMovementProjectiveConstraint } from './AffineMovementProjectiveConstraint.js';
import { AttachProjectiveConstraint } from './AttachProjectiveConstraint.js';
import { FixedRotationProjectiveConstraint } from './FixedRotationProjectiveConstraint.js';
import { HermiteSplineProjectiveConstraint } from './HermiteSplineProjectiveConstraint.js';
import { OscillatorProjectiveConstraint } from './OscillatorProjectiveConstraint.js';
import { ParabolicProjectiveConstraint } from './ParabolicProjectiveConstraint.js';
import { PatchTestMovementProjectiveConstraint } from './PatchTestMovementProjectiveConstraint.js';
import { DirectionProjectiveConstraint } from './DirectionProjectiveConstraint.js';
import { FixedPlaneProjectiveConstraint } from './FixedPlaneProjectiveConstraint.js';
import { LinearMovementProjectiveConstraint } from './LinearMovementProjectiveConstraint.js';
import { LinearVelocityProjectiveConstraint } from './LinearVelocityProjectiveConstraint.js';
import { LineProjectiveConstraint } from './LineProjectiveConstraint.js';
import { PartialFixedProjectiveConstraint } from './PartialFixedProjectiveConstraint.js';
import { PlaneProjectiveConstraint } from './PlaneProjectiveConstraint.js';
import { PointProjectiveConstraint } from './PointProjectiveConstraint.js';
import { PositionBasedDynamicsProjectiveConstraint } from './PositionBasedDynamicsProjectiveConstraint.js';

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
  OscillatorProjectiveConstraint,
  ParabolicProjectiveConstraint,
  HermiteSplineProjectiveConstraint,
  FixedRotationProjectiveConstraint,
  AffineMovementProjectiveConstraint,
  PatchTestMovementProjectiveConstraint,
  AttachProjectiveConstraint,
  PositionBasedDynamicsProjectiveConstraint,
];
