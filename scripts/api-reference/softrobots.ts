/**
 * What an actuator, effector or equality of an inverse problem implements (InverseConstraint) and
 * the rows it fills for the QPInverseProblemSolver (InverseRows).
 *
 * @module @sofa-ts/softrobots
 */
export {
  InverseRows,
  isInverseConstraint,
  optional,
  NONE,
  ACTUATOR,
  EFFECTOR,
  EQUALITY,
  CONTACT,
  type InverseConstraint,
  type InverseRole,
} from '@sofa-ts/softrobots';
