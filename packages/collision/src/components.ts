import type { ComponentClass } from '@sofa-ts/core';
import { CarvingManager } from './carving/CarvingManager.js';
import { BVHNarrowPhase } from './detection/BVHNarrowPhase.js';
import { BruteForceBroadPhase } from './detection/BruteForceBroadPhase.js';
import { ParallelBruteForceBroadPhase } from './detection/ParallelBruteForceBroadPhase.js';
import { ParallelBVHNarrowPhase } from './detection/ParallelBVHNarrowPhase.js';
import { RayTraceNarrowPhase } from './detection/RayTraceNarrowPhase.js';
import { CCDTightInclusionIntersection } from './detection/CCDTightInclusionIntersection.js';
import { DiscreteIntersection } from './detection/DiscreteIntersection.js';
import { LocalMinDistance } from './detection/LocalMinDistance.js';
import { MinProximityIntersection } from './detection/MinProximityIntersection.js';
import { NewProximityIntersection } from './detection/NewProximityIntersection.js';
import { SweepAndPruneBroadPhase } from './detection/SweepAndPruneBroadPhase.js';
import { DistanceGridForceField } from './distance-grid/DistanceGridForceField.js';
import { RigidDistanceGridCollisionModel } from './distance-grid/RigidDistanceGridCollisionModel.js';
import { FFDDistanceGridCollisionModel } from './distance-grid/FFDDistanceGridCollisionModel.js';
import { CubeCollisionModel } from './model/CubeCollisionModel.js';
import { LineCollisionModel } from './model/LineCollisionModel.js';
import { PointCollisionModel } from './model/PointCollisionModel.js';
import { SphereCollisionModel } from './model/SphereCollisionModel.js';
import { TetrahedronCollisionModel } from './model/TetrahedronCollisionModel.js';
import { TriangleCollisionModel } from './model/TriangleCollisionModel.js';
import { TriangleOctreeCollisionModel } from './model/TriangleOctreeCollisionModel.js';
import { CapsuleCollisionModel } from './obb-capsule/CapsuleCollisionModel.js';
import { OBBCollisionModel } from './obb-capsule/OBBCollisionModel.js';
import { DefaultCollisionGroupManager } from './pipeline/DefaultCollisionGroupManager.js';
import { CollisionPipeline } from './pipeline/CollisionPipeline.js';
import { CompositeCollisionPipeline } from './pipeline/CompositeCollisionPipeline.js';
import { SubCollisionPipeline } from './pipeline/SubCollisionPipeline.js';
import { CollisionResponse } from './response/CollisionResponse.js';
import { PenalityContactForceField } from './response/PenalityContactForceField.js';
import { RuleBasedContactManager } from './response/RuleBasedContactManager.js';
import { CudaProximityIntersection, CudaSphereModel } from './sofacuda-twins.js';

/** Every component of @sofa-ts/collision, registered by module.ts. */
export const collisionComponents: readonly ComponentClass[] = [
  CollisionPipeline,
  CompositeCollisionPipeline,
  SubCollisionPipeline,
  DefaultCollisionGroupManager,
  BruteForceBroadPhase,
  ParallelBruteForceBroadPhase,
  SweepAndPruneBroadPhase,
  BVHNarrowPhase,
  ParallelBVHNarrowPhase,
  RayTraceNarrowPhase,
  DiscreteIntersection,
  MinProximityIntersection,
  NewProximityIntersection,
  LocalMinDistance,
  CCDTightInclusionIntersection,
  CollisionResponse,
  RuleBasedContactManager,
  PenalityContactForceField,
  PointCollisionModel,
  LineCollisionModel,
  TriangleCollisionModel,
  TriangleOctreeCollisionModel,
  TetrahedronCollisionModel,
  SphereCollisionModel,
  CubeCollisionModel,
  CapsuleCollisionModel,
  OBBCollisionModel,
  CarvingManager,
  RigidDistanceGridCollisionModel,
  FFDDistanceGridCollisionModel,
  DistanceGridForceField,
  CudaSphereModel,
  CudaProximityIntersection,
];
