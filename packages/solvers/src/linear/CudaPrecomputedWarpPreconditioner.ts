import { sofaComponent, warnSofaCudaTwin } from '@sofa-ts/core';
import { PrecomputedWarpPreconditioner } from './PrecomputedWarpPreconditioner.js';

/**
 * SofaCUDA's PrecomputedWarpPreconditioner (CudaVec3f): A₀⁻¹ computed once from the first system
 * matrix, applied as R·A₀⁻¹·Rᵀ with the node rotations of the node's rotation finder. sofa-ts has
 * no GPU path: this is PrecomputedWarpPreconditioner on the CPU, with its Data, saying so at init (once per scene).
 */
@sofaComponent({
  name: 'CudaPrecomputedWarpPreconditioner',
  category: 'LinearSolver',
  module: 'SofaCUDA',
  description: "SofaCUDA's PrecomputedWarpPreconditioner, run on the CPU as PrecomputedWarpPreconditioner (double precision).",
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class CudaPrecomputedWarpPreconditioner extends PrecomputedWarpPreconditioner {
  override init(): void {
    warnSofaCudaTwin(this, 'PrecomputedWarpPreconditioner');
    super.init();
  }
}
