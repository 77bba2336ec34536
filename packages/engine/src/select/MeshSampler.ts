import { countAtMost, DataEngine, IndexArray, Indices, MAX_POINTS, MinHeap, sofaComponent, UInt } from '@sofa-ts/core';
import { Vec3s } from '../engine-support.js';

/**
 * SOFA's MeshSampler: `number` well spread sample points of a point set, chosen among its points.
 * 1. Farthest point sampling: start from point 0, then repeatedly add the point farthest from the
 *    samples (stop early when every point is a sample).
 * 2. Lloyd relaxation (at most maxIter times): each sample's Voronoi region (the points nearest to
 *    it) has a centroid; the sample moves to the region's point nearest to that centroid; stop when
 *    no sample moves.
 * Distances are Euclidean, or geodesic along `edges` when given (shortest paths, Dijkstra).
 * outputIndices are the sample indices, outputPosition their coordinates.
 */
@sofaComponent({
  name: 'MeshSampler',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Select uniformly distributed points on a mesh based on Euclidean or Geodesic distance measure.',
  templates: ['Vec3d'],
})
export class MeshSampler extends DataEngine {
  readonly number = this.initData({ name: 'number', type: UInt, default: 1, range: countAtMost(MAX_POINTS), help: 'number of samples' });
  readonly position = this.initData({ name: 'position', type: Vec3s, default: new Float64Array(0), help: 'input positions' });
  readonly edges = this.initData({
    name: 'edges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'input edges for geodesic sampling (Euclidean distances are used if not given)',
  });
  readonly maxIter = this.initData({ name: 'maxIter', type: UInt, default: 100, help: 'max number of Lloyd iterations' });
  readonly outputIndices = this.initData({
    name: 'outputIndices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'computed sample indices',
    output: true,
  });
  readonly outputPosition = this.initData({
    name: 'outputPosition',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'computed sample coordinates',
    output: true,
  });

  /** Lloyd iterations done by the last update (for tests and logs). */
  lloydIterations = 0;

  constructor() {
    super();
    this.addInput(this.number, this.position, this.edges, this.maxIter);
    this.addOutput(this.outputIndices, this.outputPosition);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const x = this.position.value;
    const n = x.length / 3;
    if (n === 0) {
      this.outputIndices.value = new Uint32Array(0);
      this.outputPosition.value = new Float64Array(0);
      return;
    }
    const e = this.edges.value;
    for (const v of e) if (v >= n) throw this.error(`edges name point ${v}, but there are ${n} positions`);
    const ngb = e.length > 0 ? neighbours(e, n) : undefined;
    const samples = [0];
    const dist = new Float64Array(n),
      region = new Int32Array(n);
    this.distances(samples, ngb, dist, region);
    const count = Math.min(this.number.value, n);
    while (samples.length < count) {
      let best = 0,
        dmax = 0;
      for (let i = 0; i < n; i++) if (dist[i] > dmax) ((dmax = dist[i]), (best = i));
      if (dmax === 0) break;
      samples.push(best);
      this.distances(samples, ngb, dist, region);
    }
    this.lloydIterations = 0;
    while (this.lloydIterations < this.maxIter.value && this.lloyd(samples, region)) {
      this.distances(samples, ngb, dist, region);
      this.lloydIterations++;
    }
    this.outputIndices.value = Uint32Array.from(samples);
    this.outputPosition.value = Float64Array.from(samples.flatMap((i) => [x[3 * i], x[3 * i + 1], x[3 * i + 2]]));
  }

  /** One Lloyd move: each sample ← the point of its region nearest to the region's centroid; true if one moved. */
  private lloyd(samples: number[], region: Int32Array): boolean {
    const x = this.position.value;
    const n = x.length / 3,
      ns = samples.length;
    const c = new Float64Array(3 * ns),
      cnt = new Float64Array(ns);
    for (let i = 0; i < n; i++) {
      const r = region[i];
      for (let k = 0; k < 3; k++) c[3 * r + k] += x[3 * i + k];
      cnt[r]++;
    }
    for (let r = 0; r < ns; r++) for (let k = 0; k < 3; k++) c[3 * r + k] /= cnt[r];
    const d2 = (i: number): number => {
      const r = region[i];
      return (x[3 * i] - c[3 * r]) ** 2 + (x[3 * i + 1] - c[3 * r + 1]) ** 2 + (x[3 * i + 2] - c[3 * r + 2]) ** 2;
    };
    const dmin = samples.map(d2);
    let changed = false;
    for (let i = 0; i < n; i++) {
      const r = region[i];
      const d = d2(i);
      if (d < dmin[r]) {
        dmin[r] = d;
        samples[r] = i;
        changed = true;
      }
    }
    return changed;
  }

  /** dist[i] = distance to the nearest sample (squared when Euclidean), region[i] = that sample's rank. */
  private distances(samples: number[], ngb: number[][] | undefined, dist: Float64Array, region: Int32Array): void {
    const x = this.position.value;
    const n = x.length / 3;
    dist.fill(Infinity);
    if (!ngb) {
      for (let i = 0; i < n; i++) {
        samples.forEach((s, j) => {
          const d = (x[3 * i] - x[3 * s]) ** 2 + (x[3 * i + 1] - x[3 * s + 1]) ** 2 + (x[3 * i + 2] - x[3 * s + 2]) ** 2;
          if (d < dist[i]) {
            dist[i] = d;
            region[i] = j;
          }
        });
      }
      return;
    }
    // Dijkstra from every sample at once, along the edges.
    const heap = new MinHeap();
    samples.forEach((s, j) => {
      dist[s] = 0;
      region[s] = j;
      heap.push(0, s);
    });
    while (heap.size > 0) {
      const [d, v] = heap.pop();
      if (d > dist[v]) continue;
      for (const w of ngb[v]) {
        const nd = d + Math.hypot(x[3 * v] - x[3 * w], x[3 * v + 1] - x[3 * w + 1], x[3 * v + 2] - x[3 * w + 2]);
        if (nd < dist[w]) {
          dist[w] = nd;
          region[w] = region[v];
          heap.push(nd, w);
        }
      }
    }
    // Points no edge path reaches are infinitely far (the next sample), in the first region meanwhile.
    for (let i = 0; i < n; i++) if (dist[i] === Infinity) region[i] = 0;
  }
}

function neighbours(edges: Uint32Array, n: number): number[][] {
  const ngb: number[][] = Array.from({ length: n }, () => []);
  for (let e = 0; e + 2 <= edges.length; e += 2) {
    ngb[edges[e]].push(edges[e + 1]);
    ngb[edges[e + 1]].push(edges[e]);
  }
  return ngb;
}
