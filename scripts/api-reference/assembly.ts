/**
 * The compiled mechanical system an ODE solver works on (MechanicalSystem: global vectors, the
 * matrix-free product and the assembled matrix of m·M + b·B + k·K) and the LinearSolver base class
 * of linear solver components.
 *
 * @module @sofa-ts/assembly
 */
export {
  MechanicalSystem,
  LinearSolver,
  isAssemblyLinearSolver,
  type MBKFactors,
  type SystemState,
  type MasterState,
} from '@sofa-ts/assembly';
