import type { ComponentClass } from '@sofa-ts/core';
import { ParticleSource } from './ParticleSource.js';
import { ParticlesRepulsionForceField } from './ParticlesRepulsionForceField.js';
import { SPHFluidForceField } from './SPHFluidForceField.js';
import { SPHFluidSurfaceMapping } from './SPHFluidSurfaceMapping.js';
import { SpatialGridContainer } from './SpatialGridContainer.js';

/** SOFA's SofaSphFluid plugin (SofaCUDA's Cuda templates of them run as their Vec3d twins). */
export const sphFluidComponents: readonly ComponentClass[] = [
  SpatialGridContainer,
  SPHFluidForceField,
  ParticlesRepulsionForceField,
  ParticleSource,
  SPHFluidSurfaceMapping,
];
