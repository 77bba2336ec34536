import type { ComponentClass } from '@sofa-ts/core';
import { AreaMapping } from './AreaMapping.js';
import { ArticulatedHierarchyContainer } from './articulated/ArticulatedHierarchyContainer.js';
import { ArticulatedHierarchyBVHController } from './articulated/ArticulatedHierarchyBVHController.js';
import { ArticulatedSystemMapping } from './articulated/ArticulatedSystemMapping.js';
import { Articulation } from './articulated/Articulation.js';
import { ArticulationCenter } from './articulated/ArticulationCenter.js';
import { BarycentricMapping } from './BarycentricMapping.js';
import { CenterOfMassMapping } from './CenterOfMassMapping.js';
import { DeformableOnRigidFrameMapping } from './DeformableOnRigidFrameMapping.js';
import { SkinningMapping } from './SkinningMapping.js';
import { BeamLinearMapping } from './BeamLinearMapping.js';
import { BeamLinearMapping_mt } from './BeamLinearMapping_mt.js';
import { DifferenceMapping } from './DifferenceMapping.js';
import { DifferenceMultiMapping } from './DifferenceMultiMapping.js';
import { DistanceFromTargetMapping } from './DistanceFromTargetMapping.js';
import { DistanceMapping } from './DistanceMapping.js';
import { DistanceMultiMapping } from './DistanceMultiMapping.js';
import { DistanceToPlaneMapping } from './DistanceToPlaneMapping.js';
import { IdentityMapping } from './IdentityMapping.js';
import { IdentityMultiMapping } from './IdentityMultiMapping.js';
import { RigidMapping } from './RigidMapping.js';
import { PersistentContactBarycentricMapping } from './persistent/PersistentContactBarycentricMapping.js';
import { PersistentContactRigidMapping } from './persistent/PersistentContactRigidMapping.js';
import { SimpleTesselatedTetraMechanicalMapping } from './SimpleTesselatedTetraMechanicalMapping.js';
import { SquareDistanceMapping } from './SquareDistanceMapping.js';
import { SquareMapping } from './SquareMapping.js';
import { SubsetMapping } from './SubsetMapping.js';
import { SubsetMultiMapping } from './SubsetMultiMapping.js';
import { TubularMapping } from './TubularMapping.js';
import { VolumeMapping } from './VolumeMapping.js';

/** Every component of @sofa-ts/mapping, registered by module.ts. */
export const mappingComponents: readonly ComponentClass[] = [
  IdentityMapping,
  SubsetMapping,
  BarycentricMapping,
  RigidMapping,
  DistanceMapping,
  DistanceFromTargetMapping,
  DifferenceMapping,
  DifferenceMultiMapping,
  SubsetMultiMapping,
  IdentityMultiMapping,
  SquareDistanceMapping,
  SquareMapping,
  DistanceMultiMapping,
  AreaMapping,
  VolumeMapping,
  DistanceToPlaneMapping,
  CenterOfMassMapping,
  SkinningMapping,
  DeformableOnRigidFrameMapping,
  BeamLinearMapping,
  BeamLinearMapping_mt,
  SimpleTesselatedTetraMechanicalMapping,
  TubularMapping,
  ArticulatedSystemMapping,
  ArticulatedHierarchyContainer,
  ArticulatedHierarchyBVHController,
  ArticulationCenter,
  Articulation,
  PersistentContactBarycentricMapping,
  PersistentContactRigidMapping,
];
