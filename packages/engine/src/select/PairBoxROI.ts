import { Bool, DataEngine, Indices, Real, RealArray, sofaComponent, type StateType } from '@sofa-ts/core';
import { Coords, engineStateType, followContextPositions } from '../engine-support.js';

const Vec6 = RealArray(6, 'Vec6d');

/**
 * SOFA's PairBoxROI: the points lying between two nested boxes, i.e. in the inclusive box and not
 * in the included one (boundaries belong to the boxes):
 *   p selected ⇔ p ∈ inclusiveBox ∧ p ∉ includedBox,  p ∈ (min, max) ⇔ min_k ≤ p_k ≤ max_k, k = x, y, z.
 * Boxes are xmin ymin zmin xmax ymax zmax (swapped corners are put back in order). While either box
 * is all zeros (its default) nothing is selected. Positions not given follow the rest_position of the
 * node's state, else the node's loader, else the state above — as BaseROI.
 */
@sofaComponent({
  name: 'PairBoxROI',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Find the points inside a box and outside a second box included in it.',
  templates: ['Vec3d', 'Rigid3d'],
})
export class PairBoxROI extends DataEngine {
  readonly inclusiveBox = this.initData({
    name: 'inclusiveBox',
    type: Vec6,
    default: new Float64Array(6),
    help: 'inclusive box: xmin ymin zmin xmax ymax zmax',
  });
  readonly includedBox = this.initData({
    name: 'includedBox',
    type: Vec6,
    default: new Float64Array(6),
    help: 'included box: xmin ymin zmin xmax ymax zmax',
  });
  readonly position = this.initData({
    name: 'position',
    type: Coords,
    default: new Float64Array(0),
    help: 'rest positions of the points (default: the rest_position of the node state, else a loader, else a state above)',
    aliases: ['rest_position'],
  });
  readonly meshPosition = this.initData({
    name: 'meshPosition',
    type: Coords,
    default: new Float64Array(0),
    help: 'vertices of the mesh loaded (not used by the selection, as in SOFA)',
  });
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the points contained in the ROI',
    output: true,
  });
  readonly pointsInROI = this.initData({
    name: 'pointsInROI',
    type: Coords,
    default: new Float64Array(0),
    help: 'points contained in the ROI',
    output: true,
    aliases: ['pointsInBox'],
  });
  readonly drawInclusiveBox = this.initData({
    name: 'drawInclusiveBox',
    type: Bool,
    default: false,
    help: 'draw the inclusive box (drawing only)',
    group: 'Visualization',
  });
  readonly drawIncludedBox = this.initData({
    name: 'drawIncludedBox',
    type: Bool,
    default: false,
    help: 'draw the included box (drawing only)',
    group: 'Visualization',
  });
  readonly drawPoints = this.initData({ name: 'drawPoints', type: Bool, default: false, help: 'draw points', group: 'Visualization' });
  readonly drawSize = this.initData({ name: 'drawSize', type: Real, default: 0, help: 'draw size', group: 'Visualization' });

  private stateType: StateType | undefined;

  constructor() {
    super();
    this.addInput(this.inclusiveBox, this.includedBox, this.position);
    this.addOutput(this.indices, this.pointsInROI);
  }

  override init(): void {
    this.stateType = engineStateType(this, ['Vec3d', 'Rigid3d']);
    followContextPositions(this, this.position, {
      stateData: 'rest_position',
      search: 'local-then-up',
      required: true,
      purpose: 'select from',
    });
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const outer = ordered(this.inclusiveBox.value);
    const inner = ordered(this.includedBox.value);
    if (outer.every((v) => v === 0) || inner.every((v) => v === 0)) return;
    const cs = this.stateType!.coordSize;
    const x = this.position.value;
    if (x.length % cs !== 0) throw this.error(`'position' has ${x.length} numbers, not a multiple of ${cs} (template ${this.template})`);
    const idx: number[] = [],
      pts: number[] = [];
    for (let i = 0; i * cs < x.length; i++) {
      const p = x.subarray(i * cs, i * cs + 3);
      if (!inBox(p, outer) || inBox(p, inner)) continue;
      idx.push(i);
      for (let k = 0; k < cs; k++) pts.push(x[i * cs + k]);
    }
    this.indices.value = Uint32Array.from(idx);
    this.pointsInROI.value = Float64Array.from(pts);
  }
}

/** The box with min ≤ max on each axis. */
function ordered(b: Float64Array): number[] {
  const o = Array.from(b);
  for (let k = 0; k < 3; k++) if (o[k] > o[k + 3]) [o[k], o[k + 3]] = [o[k + 3], o[k]];
  return o;
}

function inBox(p: ArrayLike<number>, b: number[]): boolean {
  return p[0] >= b[0] && p[0] <= b[3] && p[1] >= b[1] && p[1] <= b[4] && p[2] >= b[2] && p[2] <= b[5];
}
