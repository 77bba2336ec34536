import type { ComponentClass } from '@sofa-ts/core';
import { FreeMotionAnimationLoop } from './animationloop/FreeMotionAnimationLoop.js';
import { UncoupledConstraintCorrection } from './correction/UncoupledConstraintCorrection.js';
import { BilateralLagrangianConstraint } from './model/BilateralLagrangianConstraint.js';
import { UnilateralLagrangianConstraint } from './model/UnilateralLagrangianConstraint.js';
import { BlockGaussSeidelConstraintSolver } from './solver/BlockGaussSeidelConstraintSolver.js';

/** Every component of @sofa-ts/constraint, registered by module.ts. */
export const constraintComponents: readonly ComponentClass[] = [
  FreeMotionAnimationLoop,
  UncoupledConstraintCorrection,
  BlockGaussSeidelConstraintSolver,
  BilateralLagrangianConstraint,
  UnilateralLagrangianConstraint,
];
