import { Bool, DataEngine, Real, sofaComponent, stateTypeOf, type SofaEvent } from '@sofa-ts/core';
import { Coords } from '../engine-support.js';

/**
 * SOFA's HausdorffDistance between two point clouds P1 and P2:
 *   d12 = max_{p ∈ P1} min_{q ∈ P2} |p − q|,  d21 = max_{q ∈ P2} min_{p ∈ P1} |p − q|,
 *   max = max(d12, d21) (the symmetric Hausdorff distance).
 * Computed at init; with `update`, again when the clouds change (SOFA recomputes it at each step).
 */
@sofaComponent({
  name: 'HausdorffDistance',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Analyze',
  description: 'Compute the Hausdorff distance of two point clouds.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Rigid3d', 'Rigid2d'],
  defaultTemplate: 'Vec3d',
})
export class HausdorffDistance extends DataEngine {
  readonly points1 = this.initData({
    name: 'points1',
    type: Coords,
    default: new Float64Array(0),
    help: 'points of the first cloud',
    group: 'Input',
  });
  readonly points2 = this.initData({
    name: 'points2',
    type: Coords,
    default: new Float64Array(0),
    help: 'points of the second cloud',
    group: 'Input',
  });
  readonly d12 = this.initData({
    name: 'd12',
    type: Real,
    default: 0,
    help: 'distance from cloud 1 to cloud 2',
    output: true,
    group: 'Output',
  });
  readonly d21 = this.initData({
    name: 'd21',
    type: Real,
    default: 0,
    help: 'distance from cloud 2 to cloud 1',
    output: true,
    group: 'Output',
  });
  readonly max = this.initData({
    name: 'max',
    type: Real,
    default: 0,
    help: 'symmetric Hausdorff distance',
    output: true,
    group: 'Output',
  });
  readonly updateEachStep = this.initData({ name: 'update', type: Bool, default: false, help: 'recompute at every time step' });

  private computed = false;
  /** Checkpoint: whether the first computation was made (later ones depend on it). */
  readonly checkpointFields = ['computed'] as const;

  constructor() {
    super();
    this.listening.value = true;
    this.listening.isSet = false;
    this.addInput(this.points1, this.points2);
    this.addOutput(this.d12, this.d21, this.max);
  }

  override init(): void {
    this.startUpdates();
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type === 'AnimateBeginEvent' && this.updateEachStep.value) this.updateIfDirty();
  }

  protected updateOutputs(): void {
    if (this.computed && !this.updateEachStep.value) return;
    const t = stateTypeOf(this.template || 'Vec3d')!;
    const cs = t.coordSize,
      dims = t.isRigid ? t.spatialDimensions : cs;
    const a = this.points1.value,
      b = this.points2.value;
    const directed = (p: Float64Array, q: Float64Array): number => {
      let worst = 0;
      for (let i = 0; i < p.length; i += cs) {
        let best = Infinity;
        for (let j = 0; j < q.length; j += cs) {
          let s = 0;
          for (let k = 0; k < dims; k++) s += (p[i + k] - q[j + k]) ** 2;
          best = Math.min(best, s);
        }
        if (q.length > 0) worst = Math.max(worst, Math.sqrt(best));
      }
      return worst;
    };
    const d12 = directed(a, b),
      d21 = directed(b, a);
    this.d12.value = d12;
    this.d21.value = d21;
    this.max.value = Math.max(d12, d21);
    this.computed = true;
  }
}
