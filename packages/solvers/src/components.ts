import { CGLinearSolver } from './CGLinearSolver.js';
import { DefaultAnimationLoop } from './DefaultAnimationLoop.js';
import { EulerImplicitSolver } from './EulerImplicitSolver.js';
import { SparseLDLSolver } from './SparseLDLSolver.js';

/** Every component of @sofa-ts/solvers, registered by module.ts. */
export const solverComponents = [DefaultAnimationLoop, EulerImplicitSolver, CGLinearSolver, SparseLDLSolver] as const;
