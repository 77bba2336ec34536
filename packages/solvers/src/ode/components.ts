import type { ComponentClass } from '@sofa-ts/core';
import { BDFOdeSolver } from './BDFOdeSolver.js';
import { CentralDifferenceSolver } from './CentralDifferenceSolver.js';
import { DampVelocitySolver } from './DampVelocitySolver.js';
import { EulerExplicitSolver } from './EulerExplicitSolver.js';
import { NewmarkImplicitSolver } from './NewmarkImplicitSolver.js';
import { NewtonRaphsonSolver } from './NewtonRaphsonSolver.js';
import { RungeKutta2Solver } from './RungeKutta2Solver.js';
import { RungeKutta4Solver } from './RungeKutta4Solver.js';
import { StaticSolver } from './StaticSolver.js';
import { VariationalSymplecticSolver } from './VariationalSymplecticSolver.js';

/** Components of this folder, registered by the package's module.ts. */
export const odeComponents: readonly ComponentClass[] = [
  EulerExplicitSolver,
  CentralDifferenceSolver,
  RungeKutta2Solver,
  RungeKutta4Solver,
  StaticSolver,
  NewtonRaphsonSolver,
  VariationalSymplecticSolver,
  BDFOdeSolver,
  NewmarkImplicitSolver,
  DampVelocitySolver,
];
