import type { ComponentClass } from '@sofa-ts/core';
import { GenericConstraintCorrection } from './correction/GenericConstraintCorrection.js';
import { LinearSolverConstraintCorrection } from './correction/LinearSolverConstraintCorrection.js';
import { PrecomputedConstraintCorrection } from './correction/PrecomputedConstraintCorrection.js';
import { SlidingLagrangianConstraint } from './model/SlidingLagrangianConstraint.js';
import { StopperLagrangianConstraint } from './model/StopperLagrangianConstraint.js';
import { FixedLagrangianConstraint } from './model/FixedLagrangianConstraint.js';
import { UniformLagrangianConstraint } from './model/UniformLagrangianConstraint.js';
import { BipotentialUzawaConstraintSolver } from './solver/BipotentialUzawaConstraintSolver.js';
import { GenericConstraintSolver } from './solver/GenericConstraintSolver.js';
import { LCPConstraintSolver } from './solver/LCPConstraintSolver.js';
import { NNCGConstraintSolver } from './solver/NNCGConstraintSolver.js';
import { ImprovedJacobiConstraintSolver } from './solver/ImprovedJacobiConstraintSolver.js';
import { PreconditionedConjugateResidual } from './solver/PreconditionedConjugateResidual.js';
import { UnbuiltGaussSeidelConstraintSolver } from './solver/UnbuiltGaussSeidelConstraintSolver.js';
import { FreeMotionAnimationLoop } from './animationloop/FreeMotionAnimationLoop.js';
import { UncoupledConstraintCorrection } from './correction/UncoupledConstraintCorrection.js';
import { BilateralLagrangianConstraint } from './model/BilateralLagrangianConstraint.js';
import { UnilateralLagrangianConstraint } from './model/UnilateralLagrangianConstraint.js';
import { BlockGaussSeidelConstraintSolver } from './solver/BlockGaussSeidelConstraintSolver.js';
import { ComplianceMatrixImage } from './solver/ComplianceMatrixImage.js';

/** Every component of @sofa-ts/constraint, registered by module.ts. */
export const constraintComponents: readonly ComponentClass[] = [
  FreeMotionAnimationLoop,
  UncoupledConstraintCorrection,
  LinearSolverConstraintCorrection,
  GenericConstraintCorrection,
  PrecomputedConstraintCorrection,
  BlockGaussSeidelConstraintSolver,
  UnbuiltGaussSeidelConstraintSolver,
  NNCGConstraintSolver,
  ImprovedJacobiConstraintSolver,
  PreconditionedConjugateResidual,
  GenericConstraintSolver,
  LCPConstraintSolver,
  BipotentialUzawaConstraintSolver,
  BilateralLagrangianConstraint,
  UnilateralLagrangianConstraint,
  SlidingLagrangianConstraint,
  StopperLagrangianConstraint,
  FixedLagrangianConstraint,
  UniformLagrangianConstraint,
  ComplianceMatrixImage,
];
