import type { ComponentClass } from '@sofa-ts/core';
import { ExtrudeSurface } from './ExtrudeSurface.js';
import { GenerateCylinder } from './GenerateCylinder.js';
import { GenerateGrid } from './GenerateGrid.js';
import { GenerateRigidMass } from './GenerateRigidMass.js';
import { MergeMeshes } from './MergeMeshes.js';
import { MeshBarycentricMapperEngine } from './MeshBarycentricMapperEngine.js';
import { MergePoints } from './MergePoints.js';
import { MergeVectors } from './MergeVectors.js';
import { MeshClosingEngine } from './MeshClosingEngine.js';
import { MeshTetraStuffing } from './MeshTetraStuffing.js';
import { NormEngine } from './NormEngine.js';
import { RandomPointDistributionInSurface } from './RandomPointDistributionInSurface.js';
import { Spiral } from './Spiral.js';
import { VolumeFromTriangles } from './VolumeFromTriangles.js';
import { VolumeFromVolumetricElements } from './VolumeFromVolumetricElements.js';

/** Sofa.Component.Engine.Generate. */
export const generateComponents: readonly ComponentClass[] = [
  MergeMeshes,
  MergeVectors,
  MergePoints,
  NormEngine,
  GenerateCylinder,
  GenerateGrid,
  GenerateRigidMass,
  Spiral,
  VolumeFromTriangles,
  VolumeFromVolumetricElements,
  ExtrudeSurface,
  RandomPointDistributionInSurface,
  MeshClosingEngine,
  MeshBarycentricMapperEngine,
  MeshTetraStuffing,
];
