import type { ComponentClass } from '@sofa-ts/core';
import { CableConstraint } from './constraint/CableConstraint.js';
import { SurfacePressureConstraint } from './constraint/SurfacePressureConstraint.js';
import { UnilateralPlaneConstraint } from './constraint/UnilateralPlaneConstraint.js';
import { PositionConstraint } from './constraint/PositionConstraint.js';
import { JointConstraint } from './constraint/JointConstraint.js';
import { CableSensor } from './sensor/CableSensor.js';
import { SurfacePressureSensor } from './sensor/SurfacePressureSensor.js';
import { CableActuator } from './inverse/actuator/CableActuator.js';
import { CableEffector } from './inverse/effector/CableEffector.js';
import { PositionEffector } from './inverse/effector/PositionEffector.js';
import { CableEquality } from './inverse/equality/CableEquality.js';
import { PositionEquality } from './inverse/equality/PositionEquality.js';
import { GaussSeidelInverseProblemSolver } from './inverse/GaussSeidelInverseProblemSolver.js';
import { QPInverseProblemSolver } from './inverse/QPInverseProblemSolver.js';
import { SurfacePressureActuator } from './inverse/actuator/SurfacePressureActuator.js';
import { SurfacePressureEquality } from './inverse/equality/SurfacePressureEquality.js';
import { VolumeEffector } from './inverse/effector/VolumeEffector.js';
import { SlidingActuator } from './inverse/actuator/SlidingActuator.js';
import { ForcePointActuator } from './inverse/actuator/ForcePointActuator.js';
import { JointActuator } from './inverse/actuator/JointActuator.js';
import { BarycentricCenterEffector } from './inverse/effector/BarycentricCenterEffector.js';
import { DataVariationLimiter } from './controller/DataVariationLimiter.js';
import { SerialPortBridgeGeneric } from './controller/SerialPortBridgeGeneric.js';
import { AnimationEditor } from './controller/AnimationEditor.js';
import { CommunicationController } from './controller/CommunicationController.js';
import { InteractiveControl } from './controller/InteractiveControl.js';
import { PREquivalentStiffnessForceField } from './forcefield/PREquivalentStiffnessForceField.js';

/** Every component of @sofa-ts/softrobots, registered by module.ts. */
export const softRobotsComponents: readonly ComponentClass[] = [
  CableConstraint,
  SurfacePressureConstraint,
  SurfacePressureSensor,
  CableSensor,
  UnilateralPlaneConstraint,
  PositionConstraint,
  JointConstraint,
  // controllers
  DataVariationLimiter,
  SerialPortBridgeGeneric,
  AnimationEditor,
  CommunicationController,
  InteractiveControl,
  // force fields
  PREquivalentStiffnessForceField,
  // inverse problems
  QPInverseProblemSolver,
  GaussSeidelInverseProblemSolver,
  CableActuator,
  CableEffector,
  CableEquality,
  PositionEffector,
  PositionEquality,
  SurfacePressureActuator,
  SurfacePressureEquality,
  VolumeEffector,
  SlidingActuator,
  ForcePointActuator,
  JointActuator,
  BarycentricCenterEffector,
];
