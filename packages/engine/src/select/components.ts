import type { ComponentClass } from '@sofa-ts/core';
import { MergeROIs } from './MergeROIs.js';
import { MeshBoundaryROI } from './MeshBoundaryROI.js';
import { MeshROI } from './MeshROI.js';
import { MeshSampler } from './MeshSampler.js';
import { MeshSplittingEngine } from './MeshSplittingEngine.js';
import { MeshSubsetEngine } from './MeshSubsetEngine.js';
import { NearestPointROI } from './NearestPointROI.js';
import { PairBoxROI } from './PairBoxROI.js';
import { PlaneROI } from './PlaneROI.js';
import { PointsFromIndices } from './PointsFromIndices.js';
import { ProximityROI } from './ProximityROI.js';
import { SphereROI } from './SphereROI.js';
import { SubsetTopology } from './SubsetTopology.js';
import { ValuesFromIndices } from './ValuesFromIndices.js';
import { ValuesFromPositions } from './ValuesFromPositions.js';

/** Sofa.Component.Engine.Select (BoxROI, in the engine folder, is one of them too). */
export const selectComponents: readonly ComponentClass[] = [
  SphereROI,
  PlaneROI,
  PairBoxROI,
  SubsetTopology,
  PointsFromIndices,
  ValuesFromIndices,
  ValuesFromPositions,
  MeshBoundaryROI,
  MeshROI,
  MeshSampler,
  MeshSplittingEngine,
  MeshSubsetEngine,
  NearestPointROI,
  ProximityROI,
  MergeROIs,
];
