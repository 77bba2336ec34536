import { sofaComponent, warnSofaCudaTwin } from '@sofa-ts/core';
import { NewProximityIntersection } from './detection/NewProximityIntersection.js';
import { SphereCollisionModel } from './model/SphereCollisionModel.js';

/**
 * SofaCUDA's collision components on the CPU (no GPU path in sofa-ts; CudaVec3f states are Vec3d):
 * - CudaSphereModel: SofaCUDA registers SphereCollisionModel<CudaVec3f> with the aliases CudaSphere
 *   and CudaSphereModel: the spheres of SphereCollisionModel, centred on the points of the state.
 * - CudaProximityIntersection: SofaCUDA's class derives from NewProximityIntersection and adds the
 *   Cuda spheres' pairs computed with its tests (sphere-sphere, ray-sphere, triangle-sphere): it is
 *   NewProximityIntersection, with its Data (alarmDistance, contactDistance, useLineLine). As the
 *   Cuda spheres are sofa-ts's spheres, they also meet points and segments (NewProximityIntersection's
 *   sphere-point and segment-sphere tests), pairs SofaCUDA's intersection has no test for.
 * Each says at init, once per scene, that it runs on the CPU.
 */

@sofaComponent({
  name: 'CudaSphereModel',
  aliases: ['CudaSphere'],
  category: 'CollisionModel',
  module: 'SofaCUDA',
  description: "SofaCUDA's SphereCollisionModel<CudaVec3f>, run on the CPU as SphereCollisionModel (double precision).",
  templates: ['Vec3d'],
})
export class CudaSphereModel extends SphereCollisionModel {
  override init(): void {
    warnSofaCudaTwin(this, 'SphereCollisionModel');
    super.init();
  }
}

@sofaComponent({
  name: 'CudaProximityIntersection',
  category: 'CollisionAlgorithm',
  module: 'SofaCUDA',
  description:
    "SofaCUDA's proximity intersection (a NewProximityIntersection knowing Cuda spheres), run on the CPU as NewProximityIntersection.",
})
export class CudaProximityIntersection extends NewProximityIntersection {
  override init(): void {
    warnSofaCudaTwin(this, 'NewProximityIntersection');
    super.init();
  }
}
