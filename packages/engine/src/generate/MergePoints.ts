import { Bool, DataEngine, Indices, sofaComponent, stateTypeOf } from '@sofa-ts/core';
import { Coords } from '../engine-support.js';

/**
 * SOFA's MergePoints: one point list from two.
 *  - addition (no mappingX2): points = [position1; position2], indices1 = 0 … n1−1,
 *    indices2 = n1 … n1+n2−1;
 *  - injection (mappingX2 given): points = position1 with point mappingX2[i] replaced by
 *    position2[i]; indices2 = the replaced indices (sorted), indices1 = the others.
 * With noUpdate the first result is kept.
 */
@sofaComponent({
  name: 'MergePoints',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Generate',
  description: 'Merge 2 cordinate vectors.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Rigid3d', 'Rigid2d'],
  defaultTemplate: 'Vec3d',
})
export class MergePoints extends DataEngine {
  readonly position1 = this.initData({
    name: 'position1',
    type: Coords,
    default: new Float64Array(0),
    help: 'coordinates of the points of the first object',
  });
  readonly position2 = this.initData({
    name: 'position2',
    type: Coords,
    default: new Float64Array(0),
    help: 'coordinates of the points of the second object',
  });
  readonly mappingX2 = this.initData({
    name: 'mappingX2',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of position1 where position2 is injected',
  });
  readonly indices1 = this.initData({
    name: 'indices1',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the points of the first object',
    output: true,
  });
  readonly indices2 = this.initData({
    name: 'indices2',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the points of the second object',
    output: true,
  });
  readonly points = this.initData({
    name: 'points',
    type: Coords,
    default: new Float64Array(0),
    help: 'coordinates of the merge',
    output: true,
  });
  readonly noUpdate = this.initData({
    name: 'noUpdate',
    type: Bool,
    default: false,
    help: 'do not update the output after the first time',
  });

  private done = false;
  /** Checkpoint: whether the first computation was made (later ones depend on it). */
  readonly checkpointFields = ['done'] as const;

  constructor() {
    super();
    this.addInput(this.position1, this.position2, this.mappingX2);
    this.addOutput(this.indices1, this.indices2, this.points);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    if (this.noUpdate.value && this.done) return;
    const cs = stateTypeOf(this.template || 'Vec3d')?.coordSize ?? 3;
    const x1 = this.position1.value,
      x2 = this.position2.value;
    const n1 = x1.length / cs,
      n2 = x2.length / cs;
    const map = this.mappingX2.value;
    if (map.length > 0) {
      if (map.length > n2) throw this.error(`mappingX2 has ${map.length} entries but position2 only ${n2} points`);
      const pts = Float64Array.from(x1);
      for (let i = 0; i < map.length; i++) {
        if (map[i] >= n1) throw this.error(`mappingX2[${i}] = ${map[i]} is past the ${n1} points of position1`);
        pts.set(x2.subarray(i * cs, i * cs + cs), map[i] * cs);
      }
      const injected = new Uint8Array(n1);
      for (const i of map) injected[i] = 1;
      const i1: number[] = [],
        i2: number[] = [];
      for (let i = 0; i < n1; i++) (injected[i] ? i2 : i1).push(i);
      this.points.value = pts;
      this.indices1.value = Uint32Array.from(i1);
      this.indices2.value = Uint32Array.from(i2);
    } else {
      const pts = new Float64Array(x1.length + x2.length);
      pts.set(x1);
      pts.set(x2, x1.length);
      this.points.value = pts;
      this.indices1.value = Uint32Array.from({ length: n1 }, (_, i) => i);
      this.indices2.value = Uint32Array.from({ length: n2 }, (_, i) => n1 + i);
    }
    this.done = true;
  }
}
