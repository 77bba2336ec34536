import type { ComponentClass } from '@sofa-ts/core';
import { BarycentricMapping } from './BarycentricMapping.js';
import { IdentityMapping } from './IdentityMapping.js';
import { RigidMapping } from './RigidMapping.js';
import { SubsetMapping } from './SubsetMapping.js';

/** Every component of @sofa-ts/mapping, registered by module.ts. */
export const mappingComponents: readonly ComponentClass[] = [IdentityMapping, SubsetMapping, BarycentricMapping, RigidMapping];
