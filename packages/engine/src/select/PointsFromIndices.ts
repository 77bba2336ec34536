import { DataEngine, Indices, sofaComponent, type StateType } from '@sofa-ts/core';
import { Coords, engineStateType, followContextPositions } from '../engine-support.js';

/**
 * SOFA's PointsFromIndices: the coordinates of the points listed in `indices`,
 *   indices_position = (x[indices[0]], x[indices[1]], …),
 * skipping a coordinate already in the output (SOFA keeps each distinct point once). `position`
 * not given follows the position of the first mechanical state of the node or above.
 */
@sofaComponent({
  name: 'PointsFromIndices',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Find the points given a list of indices.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Rigid3d', 'Rigid2d'],
})
export class PointsFromIndices extends DataEngine {
  readonly position = this.initData({
    name: 'position',
    type: Coords,
    default: new Float64Array(0),
    help: 'position coordinates of the degrees of freedom (default: those of the context state)',
  });
  readonly indices = this.initData({ name: 'indices', type: Indices, default: new Uint32Array(0), help: 'indices of the points' });
  readonly indicesPosition = this.initData({
    name: 'indices_position',
    type: Coords,
    default: new Float64Array(0),
    help: 'coordinates of the points contained in indices',
    output: true,
  });

  private stateType: StateType | undefined;

  constructor() {
    super();
    this.addInput(this.position, this.indices);
    this.addOutput(this.indicesPosition);
  }

  override init(): void {
    this.stateType = engineStateType(this);
    followContextPositions(this, this.position, { stateData: 'position', search: 'up', required: false });
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const cs = this.stateType!.coordSize;
    const x = this.position.value;
    if (x.length === 0) return;
    const n = x.length / cs;
    const out: number[] = [];
    for (const i of this.indices.value) {
      if (i >= n) throw this.error(`index ${i} is out of range: 'position' has ${n} points`);
      const p = x.subarray(i * cs, i * cs + cs);
      let seen = false;
      for (let o = 0; o < out.length && !seen; o += cs) {
        seen = true;
        for (let k = 0; k < cs && seen; k++) seen = out[o + k] === p[k];
      }
      if (!seen) for (const v of p) out.push(v);
    }
    this.indicesPosition.value = Float64Array.from(out);
  }
}
