import type { ComponentClass } from '@sofa-ts/core';
import { BarycentricMapping } from './BarycentricMapping.js';
import { BeamLinearMapping } from './BeamLinearMapping.js';
import { DifferenceMapping } from './DifferenceMapping.js';
import { DifferenceMultiMapping } from './DifferenceMultiMapping.js';
import { DistanceFromTargetMapping } from './DistanceFromTargetMapping.js';
import { DistanceMapping } from './DistanceMapping.js';
import { IdentityMapping } from './IdentityMapping.js';
import { IdentityMultiMapping } from './IdentityMultiMapping.js';
import { RigidMapping } from './RigidMapping.js';
import { SubsetMapping } from './SubsetMapping.js';
import { SubsetMultiMapping } from './SubsetMultiMapping.js';

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
  BeamLinearMapping,
];
