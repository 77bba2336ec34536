import { Bool, countAtMost, DataEngine, Indices, MAX_POINTS, Real, sofaComponent, UInt } from '@sofa-ts/core';
import { Reals, Vec3s, followContextPositions } from '../engine-support.js';

/**
 * SOFA's ProximityROI: the N points closest to a set of spheres' centers. A point's distance is
 * d = min_j |p − c_j| over the spheres with |p − c_j| < r_j (strictly); points in no sphere are out.
 * Of the points in some sphere the N with the smallest d are selected (ties: the later point wins,
 * as SOFA's heap replaces on ≤), the others are out. `indices`, `pointsInROI` and `distance` list
 * the selection by increasing distance (SOFA leaves them in its heap's order); `indicesOut` lists
 * the rest. Missing radii repeat the last one. No center, no radius or N = 0: nothing is updated
 * (a warning says why, as SOFA's error message does).
 */
@sofaComponent({
  name: 'ProximityROI',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Find the N closest primitives from a given position.',
  templates: ['Vec3d'],
})
export class ProximityROI extends DataEngine {
  readonly centers = this.initData({ name: 'centers', type: Vec3s, default: new Float64Array(0), help: 'center(s) of the sphere(s)' });
  readonly radii = this.initData({
    name: 'radii',
    type: Reals,
    default: new Float64Array(0),
    help: 'radius(i) of the sphere(s); missing ones repeat the last',
  });
  readonly N = this.initData({
    name: 'N',
    type: UInt,
    default: 0,
    range: countAtMost(MAX_POINTS),
    help: 'maximum number of points to select',
  });
  readonly position = this.initData({
    name: 'position',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'rest positions of the points (default: the rest_position of the context state, else of a loader)',
    aliases: ['rest_position'],
  });
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: Uint32Array.of(0),
    help: 'indices of the points contained in the ROI',
    output: true,
    aliases: ['pointIndices'],
  });
  readonly pointsInROI = this.initData({
    name: 'pointsInROI',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'points contained in the ROI',
    output: true,
  });
  readonly distance = this.initData({
    name: 'distance',
    type: Reals,
    default: new Float64Array(0),
    help: 'distance between the points contained in the ROI and the closest center',
    output: true,
  });
  readonly indicesOut = this.initData({
    name: 'indicesOut',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the points not contained in the ROI',
    output: true,
  });
  readonly drawSphere = this.initData({
    name: 'drawSphere',
    type: Bool,
    default: false,
    help: 'draw the spheres (drawing only)',
    group: 'Visualization',
    aliases: ['isVisible'],
  });
  readonly drawPoints = this.initData({ name: 'drawPoints', type: Bool, default: false, help: 'draw the points', group: 'Visualization' });
  readonly drawSize = this.initData({ name: 'drawSize', type: Real, default: 1, help: 'rendering size', group: 'Visualization' });

  constructor() {
    super();
    this.addInput(this.position, this.centers, this.radii, this.N);
    this.addOutput(this.indices, this.pointsInROI, this.distance, this.indicesOut);
  }

  override init(): void {
    followContextPositions(this, this.position, { stateData: 'rest_position', search: 'up', required: false });
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const c = this.centers.value;
    const nc = c.length / 3;
    let r = this.radii.value;
    if (nc === 0) return;
    if (r.length === 0) return void this.warn("'radii' is empty: give at least one radius (nothing is selected)");
    if (this.N.value === 0) return void this.warn("'N' is 0: give the number of points to select (nothing is selected)");
    if (r.length > nc) this.warn(`${r.length} radii for ${nc} centers: the extra radii are not used`);
    if (r.length < nc) r = Float64Array.from({ length: nc }, (_, j) => r[Math.min(j, r.length - 1)]);
    const x = this.position.value;
    const n = x.length / 3;
    const candidates: Array<[number, number]> = [];
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      let d = Infinity;
      for (let j = 0; j < nc; j++) {
        const dist = Math.hypot(c[3 * j] - x[3 * i], c[3 * j + 1] - x[3 * i + 1], c[3 * j + 2] - x[3 * i + 2]);
        if (dist < r[j] && dist < d) d = dist;
      }
      if (d === Infinity) out.push(i);
      else candidates.push([i, d]);
    }
    // N smallest distances; on equal distances the later point first.
    candidates.sort((a, b) => a[1] - b[1] || b[0] - a[0]);
    const kept = candidates.slice(0, this.N.value);
    for (const [i] of candidates.slice(this.N.value)) out.push(i);
    kept.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    this.indices.value = Uint32Array.from(kept, ([i]) => i);
    this.distance.value = Float64Array.from(kept, ([, d]) => d);
    this.pointsInROI.value = Float64Array.from(kept.flatMap(([i]) => [x[3 * i], x[3 * i + 1], x[3 * i + 2]]));
    this.indicesOut.value = Uint32Array.from(out.sort((a, b) => a - b));
  }
}
