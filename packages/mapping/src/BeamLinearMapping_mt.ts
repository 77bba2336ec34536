import { sofaComponent, UInt } from '@sofa-ts/core';
import { BeamLinearMapping } from './BeamLinearMapping.js';

/**
 * MultiThreading's BeamLinearMapping_mt: BeamLinearMapping with its points split into tasks of at
 * least `granularity` points on the task scheduler's threads (SOFA), the same outputs. sofa-ts maps
 * them on one thread and says so at init.
 */
@sofaComponent({
  name: 'BeamLinearMapping_mt',
  category: 'Mapping',
  module: 'MultiThreading',
  description: 'BeamLinearMapping computed by several threads (SOFA; sofa-ts: one thread, same outputs).',
  templates: ['Rigid3d,Vec3d'],
})
export class BeamLinearMapping_mt extends BeamLinearMapping {
  readonly granularity = this.initData({
    name: 'granularity',
    type: UInt,
    default: 32,
    help: 'minimum number of beam points per task (SOFA; sofa-ts maps on one thread)',
  });

  override init(): void {
    super.init();
    this.warn('runs on one thread in sofa-ts (the outputs of BeamLinearMapping)');
  }
}
