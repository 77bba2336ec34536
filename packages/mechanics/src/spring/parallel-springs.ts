import { sofaComponent } from '@sofa-ts/core';
import { MeshSpringForceField } from './MeshSpringForceField.js';
import { SpringForceField } from './SpringForceField.js';

/**
 * MultiThreading's ParallelSpringForceField and ParallelMeshSpringForceField: SOFA computes the
 * springs' forces and products on the task scheduler's threads, with the same results. sofa-ts runs
 * them on one thread (each spring is a few operations: a thread's wake-up costs more than a
 * mesh's springs) and says so at init; the forces are SpringForceField's and MeshSpringForceField's.
 */

const oneThread = (cpu: string): string => `runs on one thread in sofa-ts (the forces of ${cpu})`;

@sofaComponent({
  name: 'ParallelSpringForceField',
  category: 'ForceField',
  module: 'MultiThreading',
  description: 'SpringForceField with its forces computed by several threads (SOFA; sofa-ts: one thread, same forces).',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d', 'Rigid3d'],
})
export class ParallelSpringForceField extends SpringForceField {
  override init(): void {
    super.init();
    this.warn(oneThread('SpringForceField'));
  }
}

@sofaComponent({
  name: 'ParallelMeshSpringForceField',
  category: 'ForceField',
  module: 'MultiThreading',
  description: 'MeshSpringForceField with its forces computed by several threads (SOFA; sofa-ts: one thread, same forces).',
  templates: ['Vec3d', 'Vec2d', 'Vec1d'],
})
export class ParallelMeshSpringForceField extends MeshSpringForceField {
  override init(): void {
    super.init();
    this.warn(oneThread('MeshSpringForceField'));
  }
}
