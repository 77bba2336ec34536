import type { ComponentClass } from '@sofa-ts/core';
import { CGLinearSolver } from './CGLinearSolver.js';
import { DefaultAnimationLoop } from './DefaultAnimationLoop.js';
import { EulerImplicitSolver } from './EulerImplicitSolver.js';
import { MultiStepAnimationLoop } from './MultiStepAnimationLoop.js';
import { linearComponents } from './linear/components.js';
import { linearSystemComponents } from './linear-system/components.js';
import { odeComponents } from './ode/components.js';
import { SparseLDLSolver } from './SparseLDLSolver.js';
import { ParallelCGLinearSolver } from './ParallelCGLinearSolver.js';
import { AnimationLoopParallelScheduler } from './multithreading/AnimationLoopParallelScheduler.js';
import { DataExchange } from './multithreading/DataExchange.js';
import { MeanComputation } from './multithreading/MeanComputation.js';

/** Every component of @sofa-ts/solvers, registered by module.ts. */
export const solverComponents: readonly ComponentClass[] = [
  DefaultAnimationLoop,
  MultiStepAnimationLoop,
  EulerImplicitSolver,
  CGLinearSolver,
  ParallelCGLinearSolver,
  AnimationLoopParallelScheduler,
  DataExchange,
  MeanComputation,
  SparseLDLSolver,
  ...odeComponents,
  ...linearComponents,
  ...linearSystemComponents,
];
