import { Bool, contextMeshTopology, DataEngine, Indices, isTopology, sofaComponent, UInt, type BaseMeshTopology } from '@sofa-ts/core';
import { Vec3s } from '../engine-support.js';

/**
 * SOFA's SmoothMeshEngine: Laplacian smoothing of positions over the topology's edges. Each of
 * nb_iterations Jacobi sweeps replaces a point by the mean of its neighbours (the other ends of its
 * edges; a point without neighbours keeps its place), for every point or only those of
 * input_indices: x_i ← (1/|N(i)|) Σ_{j∈N(i)} x_j.
 */
@sofaComponent({
  name: 'SmoothMeshEngine',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Transform',
  description: 'Compute the laplacian smoothing of a mesh.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class SmoothMeshEngine extends DataEngine {
  readonly inputPosition = this.initData({ name: 'input_position', type: Vec3s, default: new Float64Array(0), help: 'input positions' });
  readonly inputIndices = this.initData({
    name: 'input_indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the positions to smooth (empty: all)',
  });
  readonly outputPosition = this.initData({
    name: 'output_position',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'output positions',
    output: true,
  });
  readonly nbIterations = this.initData({
    name: 'nb_iterations',
    type: UInt,
    default: 1,
    help: 'number of iterations of laplacian smoothing',
  });
  readonly showInput = this.initData({
    name: 'showInput',
    type: Bool,
    default: false,
    help: 'draw the input (drawing only)',
    group: 'Visualization',
  });
  readonly showOutput = this.initData({
    name: 'showOutput',
    type: Bool,
    default: false,
    help: 'draw the output (drawing only)',
    group: 'Visualization',
  });
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'topology whose edges give the neighbours (default: the context topology)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  private revision = -1;
  private neighbours: number[][] = [];

  constructor() {
    super();
    this.addInput(this.inputPosition, this.inputIndices, this.nbIterations);
    this.addOutput(this.outputPosition);
  }

  override init(): void {
    if (!this.topology.get()) this.topology.set(contextMeshTopology(this.context));
    if (!this.topology.get()) throw this.error("no topology: link one with topology='@path' or add a topology to the node");
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const topo = this.topology.get()!;
    const x = this.inputPosition.value;
    const n = x.length / 3;
    if (topo.revision !== this.revision || this.neighbours.length !== n) {
      this.neighbours = Array.from({ length: n }, () => []);
      const e = topo.getEdges();
      for (let k = 0; k + 2 <= e.length; k += 2) {
        const a = e[k],
          b = e[k + 1];
        if (a >= n || b >= n) throw this.error(`the topology's edge (${a}, ${b}) names a point past the ${n} input positions`);
        this.neighbours[a].push(b);
        this.neighbours[b].push(a);
      }
      this.revision = topo.revision;
    }
    const sel = this.inputIndices.value.length > 0 ? Array.from(this.inputIndices.value) : Array.from({ length: n }, (_, i) => i);
    let cur = Float64Array.from(x);
    for (let it = 0; it < this.nbIterations.value; it++) {
      const next = Float64Array.from(cur);
      for (const i of sel) {
        if (i >= n) throw this.error(`input_indices names point ${i}, but there are ${n} positions`);
        const ng = this.neighbours[i];
        if (ng.length === 0) continue;
        for (let k = 0; k < 3; k++) {
          let s = 0;
          for (const j of ng) s += cur[3 * j + k];
          next[3 * i + k] = s / ng.length;
        }
      }
      cur = next;
    }
    this.outputPosition.value = cur;
  }
}
