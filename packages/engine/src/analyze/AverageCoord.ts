import {
  contextMechanicalState,
  DataEngine,
  Indices,
  sofaComponent,
  stateTypeOf,
  UInt,
  type BaseMechanicalState,
  type Data,
  type SofaEvent,
} from '@sofa-ts/core';
import { Coords } from '../engine-support.js';

/** SOFA's VecCoordId indices of a state's coordinate vectors. */
const VEC_IDS: Record<number, string> = { 1: 'position', 2: 'rest_position', 3: 'free_position', 4: 'reset_position' };

/**
 * SOFA's AverageCoord: the mean of coordinates of the context state,
 *   average = (1/n) Σ_{i ∈ indices} x_i   (all points when indices is empty),
 * of the vector vecId (1 position, default; 2 rest_position; 3 free_position; 4 reset_position).
 * It follows the state as the state changes, and is recomputed at each AnimateBeginEvent when
 * listening, as SOFA's is. Components are averaged as numbers (a Rigid3 orientation too, as SOFA).
 */
@sofaComponent({
  name: 'AverageCoord',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Analyze',
  description: 'Compute the average of coordinates.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Rigid3d', 'Rigid2d'],
})
export class AverageCoord extends DataEngine {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the coordinates to average (empty: all)',
  });
  readonly vecId = this.initData({
    name: 'vecId',
    type: UInt,
    default: 1,
    help: 'index of the coordinate vector: 1 position, 2 rest_position, 3 free_position, 4 reset_position',
  });
  readonly average = this.initData({
    name: 'average',
    type: Coords,
    default: new Float64Array(0),
    help: 'average of the coordinates with the given indices',
    output: true,
  });

  private state: BaseMechanicalState | undefined;
  private coords: Data<Float64Array> | undefined;

  constructor() {
    super();
    this.addInput(this.indices, this.vecId);
    this.addOutput(this.average);
  }

  override init(): void {
    this.state = contextMechanicalState(this.context);
    if (!this.state) throw this.error('no mechanical state in the context to average');
    if (!this.template) this.template = this.state.stateType.name;
    if (stateTypeOf(this.template)?.coordSize !== this.state.stateType.coordSize)
      throw this.error(`template ${this.template} does not match the state's ${this.state.stateType.name}`);
    const name = VEC_IDS[this.vecId.value];
    this.coords = name ? (this.state.findData(name) as Data<Float64Array> | undefined) : undefined;
    if (!this.coords)
      throw this.error(
        `vecId ${this.vecId.value} names no coordinate vector of ${this.state.describe()}`,
        'use 1 (position), 2 (rest_position), 3 (free_position) or 4 (reset_position)',
      );
    this.addInput(this.coords as Data<unknown>);
    this.startUpdates();
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type === 'AnimateBeginEvent') this.updateIfDirty();
  }

  protected updateOutputs(): void {
    const cs = this.state!.stateType.coordSize;
    const x = this.coords!.value;
    const ind = this.indices.value;
    const n = ind.length > 0 ? ind.length : x.length / cs;
    if (n === 0) throw this.error('nothing to average: the state has no points and no indices are given');
    const avg = new Float64Array(cs);
    for (let k = 0; k < n; k++) {
      const i = ind.length > 0 ? ind[k] : k;
      if ((i + 1) * cs > x.length) throw this.error(`index ${i} is past the ${x.length / cs} points of the state`);
      for (let c = 0; c < cs; c++) avg[c] += x[i * cs + c];
    }
    for (let c = 0; c < cs; c++) avg[c] /= n;
    this.average.value = avg;
  }
}
