import {
  Bool,
  DataEngine,
  IndexArray,
  Indices,
  isMechanicalState,
  Real,
  sofaComponent,
  type BaseMechanicalState,
  type Data,
} from '@sofa-ts/core';
import { Reals } from '../engine-support.js';

/**
 * SOFA's NearestPointROI: pairs each point of a second state with its nearest point of a first one.
 * For each i2 of inputIndices2 (default: every point of object2), i1 = argmin over inputIndices1
 * (default: every point of object1) of |x1[i1] − x2[i2]| (the first minimum); the pair is kept when
 * |x1[i1] − x2[i2]|² < radius². Outputs, one entry per pair in the order of i2:
 *   indices1 / indices2 (the pair), distances (the distance), edges (2·i2, 2·i2 + 1) and
 *   indexPairs (0 i1 1 i2: for a SubsetMultiMapping over object1 and object2).
 * Coordinates are the rest positions (useRestPosition, default) or the positions of the states, and
 * the pairs follow them when they change. A radius ≤ 0 is refused.
 */
@sofaComponent({
  name: 'NearestPointROI',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Attach given pair of particles, projecting the positions of the second particles to the first ones.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Rigid3d'],
})
export class NearestPointROI extends DataEngine {
  readonly object1 = this.initLink<BaseMechanicalState>({
    name: 'object1',
    help: 'first mechanical state',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
    aliases: ['mstate1'],
  });
  readonly object2 = this.initLink<BaseMechanicalState>({
    name: 'object2',
    help: 'second mechanical state',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
    aliases: ['mstate2'],
  });
  readonly inputIndices1 = this.initData({
    name: 'inputIndices1',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the points to consider on the first state (default: all)',
  });
  readonly inputIndices2 = this.initData({
    name: 'inputIndices2',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the points to consider on the second state (default: all)',
  });
  readonly radius = this.initData({ name: 'radius', type: Real, default: 1, help: 'radius within which a nearest point is paired' });
  readonly useRestPosition = this.initData({
    name: 'useRestPosition',
    type: Bool,
    default: true,
    help: 'use the rest positions (else the positions) of the states',
  });
  readonly indices1 = this.initData({
    name: 'indices1',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices from the first state associated to a point of the second',
    output: true,
  });
  readonly indices2 = this.initData({
    name: 'indices2',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices from the second state associated to a point of the first',
    output: true,
  });
  readonly edges = this.initData({
    name: 'edges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'edges (2·i2, 2·i2 + 1) of the pairs',
    output: true,
  });
  readonly indexPairs = this.initData({
    name: 'indexPairs',
    type: Indices,
    default: new Uint32Array(0),
    help: 'couples (parent index, index in the parent): 0 i1 1 i2 per pair',
    output: true,
  });
  readonly distances = this.initData({
    name: 'distances',
    type: Reals,
    default: new Float64Array(0),
    help: 'distances between the paired points',
    output: true,
  });
  readonly drawPairs = this.initData({
    name: 'drawPairs',
    type: Bool,
    default: false,
    help: 'draw the pairs (drawing only)',
    group: 'Visualization',
  });

  private x1: Data<Float64Array> | undefined;
  private x2: Data<Float64Array> | undefined;

  constructor() {
    super();
    this.addInput(this.inputIndices1, this.inputIndices2, this.radius, this.useRestPosition);
    this.addOutput(this.indices1, this.indices2, this.edges, this.indexPairs, this.distances);
  }

  override init(): void {
    const s1 = this.object1.get(),
      s2 = this.object2.get();
    if (!s1 || !s2)
      throw this.error('object1 and object2 must both name a mechanical state', "set object1='@path/to/state1' object2='@path/to/state2'");
    if (this.radius.value <= 0) throw this.error(`radius is ${this.radius.value}: it must be positive`);
    const name = this.useRestPosition.value ? 'rest_position' : 'position';
    this.x1 = s1.findData(name) as Data<Float64Array> | undefined;
    this.x2 = s2.findData(name) as Data<Float64Array> | undefined;
    if (!this.x1 || !this.x2) throw this.error(`the states have no '${name}' Data`);
    this.addInput(this.x1 as Data<unknown>, this.x2 as Data<unknown>);
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const s1 = this.object1.get()!,
      s2 = this.object2.get()!;
    const cs = s1.stateType.coordSize;
    if (s2.stateType.coordSize !== cs)
      throw this.error(`object1 (${s1.stateType.name}) and object2 (${s2.stateType.name}) have different templates`);
    const x1 = this.x1!.value,
      x2 = this.x2!.value;
    const n1 = x1.length / cs,
      n2 = x2.length / cs;
    if (n1 === 0 || n2 === 0) return;
    const f1 = this.inputIndices1.value.length > 0 ? this.inputIndices1.value : Uint32Array.from({ length: n1 }, (_, i) => i);
    const f2 = this.inputIndices2.value.length > 0 ? this.inputIndices2.value : Uint32Array.from({ length: n2 }, (_, i) => i);
    for (const i of f1) if (i >= n1) throw this.error(`inputIndices1 names point ${i}, but object1 has ${n1} points`);
    for (const i of f2) if (i >= n2) throw this.error(`inputIndices2 names point ${i}, but object2 has ${n2} points`);
    const r2 = this.radius.value ** 2;
    const i1s: number[] = [],
      i2s: number[] = [],
      edges: number[] = [],
      pairs: number[] = [],
      dist: number[] = [];
    // Distances over the whole coordinate (SOFA's Coord norm).
    const d2 = (a: number, b: number): number => {
      let s = 0;
      for (let k = 0; k < cs; k++) s += (x1[a * cs + k] - x2[b * cs + k]) ** 2;
      return s;
    };
    for (const i2 of f2) {
      let best = f1[0],
        bestD = d2(best, i2);
      for (const i1 of f1) {
        const d = d2(i1, i2);
        if (d < bestD) {
          best = i1;
          bestD = d;
        }
      }
      if (bestD >= r2) continue;
      i1s.push(best);
      i2s.push(i2);
      edges.push(2 * i2, 2 * i2 + 1);
      pairs.push(0, best, 1, i2);
      dist.push(Math.sqrt(bestD));
    }
    this.indices1.value = Uint32Array.from(i1s);
    this.indices2.value = Uint32Array.from(i2s);
    this.edges.value = Uint32Array.from(edges);
    this.indexPairs.value = Uint32Array.from(pairs);
    this.distances.value = Float64Array.from(dist);
  }
}
