import {
  Bool,
  contextMeshTopology,
  DataEngine,
  host,
  IndexLists,
  Int,
  MinHeap,
  outputFilePath,
  Real,
  requireDataFile,
  sofaComponent,
  Str,
  type BaseMeshTopology,
} from '@sofa-ts/core';
import { Vec3s } from '../engine-support.js';

/**
 * SOFA's ClusteringEngine: overlapping clusters of points around well spread centres.
 * Centres: every point (number = −1), or `number` points by farthest point sampling from point 0
 * (distances along the topology's edges with useTopo and a topology, else Euclidean).
 * Cluster i starts with its centre c_i, then
 *  - with useTopo and a topology: grows ring by ring along the edges, taking a neighbour when the
 *    ring point it comes from is in c_i's Voronoi region or the neighbour is within `radius` of c_i;
 *  - otherwise: every other point within `radius` of c_i; a point in no cluster joins the one of its
 *    nearest centre; each fixedPosition point j within fixedRadius of c_i joins as index n + j.
 * inFile reads clusters saved by outFile (SOFA's text format) instead of computing them.
 */
@sofaComponent({
  name: 'ClusteringEngine',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Analyze',
  description: 'Group points into overlapping clusters according to a user defined number of clusters and radius.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class ClusteringEngine extends DataEngine {
  readonly useTopo = this.initData({
    name: 'useTopo',
    type: Bool,
    default: true,
    help: 'use the available topology to compute the neighbourhoods',
  });
  readonly radius = this.initData({ name: 'radius', type: Real, default: 1, help: 'neighbourhood range' });
  readonly fixedRadius = this.initData({
    name: 'fixedRadius',
    type: Real,
    default: 1,
    help: 'neighbourhood range for the fixed (non mechanical) points',
  });
  readonly number = this.initData({ name: 'number', type: Int, default: -1, help: 'number of clusters (−1: every point is a centre)' });
  readonly fixedPosition = this.initData({
    name: 'fixedPosition',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'positions of fixed (non mechanical) points',
  });
  readonly position = this.initData({ name: 'position', type: Vec3s, default: new Float64Array(0), help: 'input rest positions' });
  readonly cluster = this.initData({
    name: 'cluster',
    type: IndexLists('vector<vector<unsigned int>>'),
    default: [],
    help: 'computed clusters (each starts with its centre)',
    output: true,
  });
  readonly inFile = this.initData({ name: 'inFile', type: Str, default: '', help: 'import precomputed clusters' });
  readonly outFile = this.initData({ name: 'outFile', type: Str, default: '', help: 'export the clusters' });

  private topo: BaseMeshTopology | undefined;

  constructor() {
    super();
    this.addInput(this.radius, this.fixedRadius, this.number, this.fixedPosition, this.position, this.inFile, this.useTopo);
    this.addOutput(this.cluster);
  }

  override init(): void {
    this.topo = contextMeshTopology(this.context);
    this.startUpdates();
  }

  protected updateOutputs(): void {
    if (this.inFile.value.trim() !== '') return this.load();
    const x = this.position.value,
      fixed = this.fixedPosition.value;
    const n = x.length / 3;
    const ngb = this.topo && this.useTopo.value ? this.neighbours(n) : undefined;
    const dist = (i: number, j: number, y: Float64Array = x): number =>
      Math.hypot(y[3 * i] - x[3 * j], y[3 * i + 1] - x[3 * j + 1], y[3 * i + 2] - x[3 * j + 2]);
    let centres: number[];
    const region = new Int32Array(n);
    if (this.number.value === -1) {
      centres = Array.from({ length: n }, (_, i) => i);
      centres.forEach((c) => (region[c] = c));
    } else {
      const count = Math.min(this.number.value, n);
      centres = n > 0 ? [0] : [];
      const d = new Float64Array(n).fill(Infinity);
      const assign = (): void => (ngb ? dijkstra(x, ngb, centres, d, region) : voronoi(centres, d, region, dist));
      while (centres.length < count) {
        assign();
        let best = 0,
          dmax = 0;
        for (let i = 0; i < n; i++) if (d[i] > dmax) ((dmax = d[i]), (best = i));
        if (dmax === 0) break;
        centres.push(best);
      }
      if (n > 0) assign();
    }
    const r = this.radius.value;
    const clusters = centres.map((c) => [c]);
    if (ngb) {
      centres.forEach((c, i) => {
        const members = new Set([c]);
        let ring = [c];
        while (ring.length > 0) {
          const next: number[] = [];
          for (const v of ring) {
            for (const w of ngb[v]) {
              if ((region[v] === i || dist(w, c) < r) && !members.has(w)) {
                members.add(w);
                clusters[i].push(w);
                next.push(w);
              }
            }
          }
          ring = next;
        }
      });
    } else {
      for (let j = 0; j < n; j++) {
        let inserted = false;
        centres.forEach((c, i) => {
          if (j !== c && dist(j, c) < r) {
            clusters[i].push(j);
            inserted = true;
          }
        });
        if (inserted) continue;
        let imin = -1,
          dmin = Infinity;
        centres.forEach((c, i) => {
          if (j !== c && dist(j, c) < dmin) ((dmin = dist(j, c)), (imin = i));
        });
        if (imin !== -1) clusters[imin].push(j);
      }
      for (let j = 0; j < fixed.length / 3; j++)
        centres.forEach((c, i) => dist(j, c, fixed) < this.fixedRadius.value && clusters[i].push(j + n));
    }
    this.cluster.value = clusters;
    this.save();
  }

  private neighbours(n: number): number[][] {
    const ngb: number[][] = Array.from({ length: n }, () => []);
    const e = this.topo!.getEdges();
    for (let k = 0; k + 2 <= e.length; k += 2) {
      if (e[k] >= n || e[k + 1] >= n) throw this.error(`the topology's edge (${e[k]}, ${e[k + 1]}) names a point past the ${n} positions`);
      ngb[e[k]].push(e[k + 1]);
      ngb[e[k + 1]].push(e[k]);
    }
    return ngb;
  }

  /** SOFA's text format: useTopo radius fixedRadius nbClusters number, then per cluster its size and members. */
  private load(): void {
    const path = requireDataFile(this, this.inFile.value.trim(), 'cluster file');
    const t = host().readText(path, 'utf8').trim().split(/\s+/).map(Number);
    const nb = t[3] ?? 0;
    const clusters: number[][] = [];
    let k = 5;
    for (let i = 0; i < nb; i++) {
      const m = t[k++];
      clusters.push(t.slice(k, k + m));
      k += m;
    }
    if (clusters.some((c) => c.some((v) => !Number.isInteger(v) || v < 0)) || k > t.length)
      throw this.error(`${path}: not a ClusteringEngine cluster file`);
    this.cluster.value = clusters;
  }

  private save(): void {
    const name = this.outFile.value.trim();
    if (name === '') return;
    const c = this.cluster.value;
    const lines = [
      `${this.useTopo.value ? 1 : 0} ${this.radius.value} ${this.fixedRadius.value} ${c.length} ${this.number.value} `,
      ...c.map((l) => `${l.length} ${l.join(' ')} `),
    ];
    host().writeFile(outputFilePath(this, name), `${lines.join('\n')}\n`);
  }
}

function voronoi(centres: number[], d: Float64Array, region: Int32Array, dist: (i: number, j: number) => number): void {
  for (let i = 0; i < d.length; i++) {
    centres.forEach((c, j) => {
      const v = dist(i, c);
      if (v < d[i]) ((d[i] = v), (region[i] = j));
    });
  }
}

/**
 * Shortest distances along the edges from the centres (d keeps earlier values as upper bounds, as
 * SOFA), the front in core's MinHeap: the nearest (distance, point) first, the smaller point on
 * equal distances.
 */
function dijkstra(x: Float64Array, ngb: number[][], centres: number[], d: Float64Array, region: Int32Array): void {
  const queue = new MinHeap();
  centres.forEach((c, i) => {
    d[c] = 0;
    region[c] = i;
    queue.push(0, c);
  });
  while (queue.size > 0) {
    const [dv, v] = queue.pop();
    if (dv > d[v]) continue;
    for (const w of ngb[v]) {
      const nd = dv + Math.hypot(x[3 * v] - x[3 * w], x[3 * v + 1] - x[3 * w + 1], x[3 * v + 2] - x[3 * w + 2]);
      if (nd < d[w]) {
        d[w] = nd;
        region[w] = region[v];
        queue.push(nd, w);
      }
    }
  }
}
