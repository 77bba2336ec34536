import type { ComponentClass } from '@sofa-ts/core';
import { DampingCompliance } from './compliance/DampingCompliance.js';
import { DiagonalCompliance } from './compliance/DiagonalCompliance.js';
import { DiagonalStiffness } from './compliance/DiagonalStiffness.js';
import { UniformCompliance } from './compliance/UniformCompliance.js';
import { UniformStiffness } from './compliance/UniformStiffness.js';
import { BaumgarteStabilization } from './constraint/BaumgarteStabilization.js';
import { ConstraintValue } from './constraint/ConstraintValue.js';
import { CoulombConstraint } from './constraint/CoulombConstraint.js';
import { HolonomicConstraintValue } from './constraint/HolonomicConstraintValue.js';
import { NegativeUnilateralConstraint } from './constraint/NegativeUnilateralConstraint.js';
import { Restitution } from './constraint/Restitution.js';
import { Stabilization } from './constraint/Stabilization.js';
import { UnilateralConstraint } from './constraint/UnilateralConstraint.js';
import { VelocityConstraintValue } from './constraint/VelocityConstraintValue.js';
import { CgSolver } from './numericalsolver/CgSolver.js';
import { DiagonalResponse } from './numericalsolver/DiagonalResponse.js';
import { LDLTResponse } from './numericalsolver/LDLTResponse.js';
import { LDLTSolver } from './numericalsolver/LDLTSolver.js';
import { LUResponse } from './numericalsolver/LUResponse.js';
import { LUSolver } from './numericalsolver/LUSolver.js';
import { MinresSolver } from './numericalsolver/MinresSolver.js';
import { SequentialSolver } from './numericalsolver/SequentialSolver.js';
import { CompliantImplicitSolver } from './odesolver/CompliantImplicitSolver.js';

/** Every component of @sofa-ts/compliant (the Compliant plugin), registered by module.ts. */
export const compliantComponents: readonly ComponentClass[] = [
  CompliantImplicitSolver,
  UniformCompliance,
  DiagonalCompliance,
  DampingCompliance,
  UniformStiffness,
  DiagonalStiffness,
  ConstraintValue,
  Stabilization,
  HolonomicConstraintValue,
  BaumgarteStabilization,
  VelocityConstraintValue,
  Restitution,
  UnilateralConstraint,
  NegativeUnilateralConstraint,
  CoulombConstraint,
  LDLTSolver,
  LUSolver,
  MinresSolver,
  CgSolver,
  SequentialSolver,
  LDLTResponse,
  DiagonalResponse,
  LUResponse,
];
