import {
  Bool,
  countAtMost,
  DataEngine,
  IndexArray,
  MAX_POINTS,
  Real,
  sofaComponent,
  UInt,
  type CheckpointReader,
  type CheckpointRecord,
} from '@sofa-ts/core';
import { SEED_INCREMENT, Vec3s, seededRandom } from '../engine-support.js';

/**
 * SOFA's RandomPointDistributionInSurface: random points inside a closed triangle surface.
 * Points are drawn uniformly in the bounding box of the vertices. A point p is inside when, for each
 * of numberOfTests random directions d (drawn once, components uniform in [−1, 1]; an even count
 * gets one more), the first triangle hit by the ray p + t·d (t > 0) faces away from p:
 * d·((b − a) × (c − a)) > 0 (outward normals). An inside point farther than
 * minDistanceBetweenPoints from the points already kept is kept (inPoints), any other goes to
 * outPoints, until numberOfInPoints are kept or N⁴ draws were made (N = numberOfInPoints; at most
 * 10⁷ here), then a warning. randomSeed = 0 seeds from the clock and stores the seed used, as SOFA
 * does; the draws are sofa-ts's own generator's (SOFA's differ).
 */
@sofaComponent({
  name: 'RandomPointDistributionInSurface',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Generate',
  description: 'This class extract a set of points randomly distributed inside a surface.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class RandomPointDistributionInSurface extends DataEngine {
  readonly randomSeed = this.initData({ name: 'randomSeed', type: UInt, default: 0, help: 'seed of the random draws (0: from the clock)' });
  readonly isVisible = this.initData({
    name: 'isVisible',
    type: Bool,
    default: true,
    help: 'is visible (drawing only)',
    group: 'Visualization',
  });
  readonly drawOutputPoints = this.initData({
    name: 'drawOutputPoints',
    type: Bool,
    default: false,
    help: 'draw the outside points (drawing only)',
    group: 'Visualization',
  });
  readonly minDistanceBetweenPoints = this.initData({
    name: 'minDistanceBetweenPoints',
    type: Real,
    default: 0.1,
    help: 'minimum distance between two kept points',
  });
  readonly numberOfInPoints = this.initData({
    name: 'numberOfInPoints',
    type: UInt,
    default: 10,
    range: countAtMost(MAX_POINTS),
    help: 'number of points inside',
  });
  readonly numberOfTests = this.initData({
    name: 'numberOfTests',
    type: UInt,
    default: 5,
    range: countAtMost(1000),
    help: 'number of ray tests deciding whether a point is inside (odd)',
  });
  readonly vertices = this.initData({ name: 'vertices', type: Vec3s, default: new Float64Array(0), help: 'vertices of the surface' });
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangles of the surface',
  });
  readonly inPoints = this.initData({
    name: 'inPoints',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'points inside the surface',
    output: true,
  });
  readonly outPoints = this.initData({
    name: 'outPoints',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'points drawn and rejected',
    output: true,
  });

  private rand: () => number = () => 0;
  /** Numbers drawn since init (the generator's state is seed + drawn·increment). */
  private drawn = 0;
  private directions: number[][] = [];

  constructor() {
    super();
    this.addInput(this.triangles, this.vertices);
    this.addOutput(this.inPoints, this.outPoints);
  }

  override init(): void {
    if (this.numberOfTests.value % 2 === 0) {
      this.warn(`numberOfTests = ${this.numberOfTests.value} is even: ${this.numberOfTests.value + 1} tests are made`);
      this.numberOfTests.value = this.numberOfTests.value + 1;
    }
    if (this.randomSeed.value === 0) this.randomSeed.value = Math.floor(Date.now() / 1000) >>> 0;
    this.rand = this.generator(this.randomSeed.value, 0);
    const u = (a: number, b: number): number => a + (b - a) * this.rand();
    this.directions = Array.from({ length: this.numberOfTests.value }, () => [u(-1, 1), u(-1, 1), u(-1, 1)]);
    this.startUpdates();
  }

  /** The seeded generator after `drawn` draws, counting the next ones. */
  private generator(seed: number, drawn: number): () => number {
    const next = seededRandom((seed + Math.imul(drawn, SEED_INCREMENT)) >>> 0);
    this.drawn = drawn;
    return () => {
      this.drawn++;
      return next();
    };
  }

  /** Checkpoint: the draws made so far (a recomputation after a resume goes on with the same numbers). */
  checkpointState(): CheckpointRecord {
    return { drawn: this.drawn };
  }

  restoreState(saved: CheckpointReader): void {
    this.rand = this.generator(this.randomSeed.value, saved.number('drawn'));
  }

  protected updateOutputs(): void {
    const x = this.vertices.value,
      tri = this.triangles.value;
    const nv = x.length / 3;
    if (tri.length / 3 <= 1 || nv <= 1)
      throw this.error(`the surface has ${nv} vertices and ${tri.length / 3} triangles: at least 2 of each are needed`);
    for (const v of tri) if (v >= nv) throw this.error(`a triangle names vertex ${v}, but there are ${nv}`);
    const lo = [Infinity, Infinity, Infinity],
      hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < nv; i++)
      for (let k = 0; k < 3; k++) ((lo[k] = Math.min(lo[k], x[3 * i + k])), (hi[k] = Math.max(hi[k], x[3 * i + k])));
    const N = this.numberOfInPoints.value;
    // SOFA stops after N⁴ draws; sofa-ts also after MAX_DRAWS (bounded work), with the same warning.
    const limit = Math.min(N ** 4, MAX_DRAWS);
    const minD2 = this.minDistanceBetweenPoints.value ** 2;
    const inside: number[] = [],
      outside: number[] = [];
    let draws = 0;
    while (inside.length / 3 < N && draws < limit) {
      const p = [0, 1, 2].map((k) => lo[k] + (hi[k] - lo[k]) * this.rand());
      draws++;
      let ok = this.isInside(p, x, tri);
      for (let i = 0; ok && i < inside.length; i += 3)
        ok = (p[0] - inside[i]) ** 2 + (p[1] - inside[i + 1]) ** 2 + (p[2] - inside[i + 2]) ** 2 >= minD2;
      (ok ? inside : outside).push(...p);
    }
    if (draws >= limit && inside.length / 3 < N) this.warn(`only ${inside.length / 3} of ${N} points placed after ${draws} draws`);
    this.inPoints.value = Float64Array.from(inside);
    this.outPoints.value = Float64Array.from(outside);
  }

  /** Every test ray leaves through the outward side of the first triangle it meets. */
  private isInside(p: number[], x: Float64Array, tri: Uint32Array): boolean {
    for (const d of this.directions) {
      const hit = firstHit(p, d, x, tri);
      if (hit < 0) return false;
      const a = 3 * tri[3 * hit],
        b = 3 * tri[3 * hit + 1],
        c = 3 * tri[3 * hit + 2];
      const u = [x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]],
        v = [x[c] - x[a], x[c + 1] - x[a + 1], x[c + 2] - x[a + 2]];
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      if (d[0] * n[0] + d[1] * n[1] + d[2] * n[2] <= 0) return false;
    }
    return true;
  }
}

/** The most points drawn in one update. */
const MAX_DRAWS = 10_000_000;

/** The first triangle the ray p + t·d (t > 0) meets (Möller–Trumbore), or −1. */
function firstHit(p: number[], d: number[], x: Float64Array, tri: Uint32Array): number {
  let best = -1,
    bestT = Infinity;
  for (let f = 0; f < tri.length / 3; f++) {
    const a = 3 * tri[3 * f],
      b = 3 * tri[3 * f + 1],
      c = 3 * tri[3 * f + 2];
    const e1 = [x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]],
      e2 = [x[c] - x[a], x[c + 1] - x[a + 1], x[c + 2] - x[a + 2]];
    const h = [d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]];
    const det = e1[0] * h[0] + e1[1] * h[1] + e1[2] * h[2];
    if (Math.abs(det) < 1e-300) continue;
    const s = [p[0] - x[a], p[1] - x[a + 1], p[2] - x[a + 2]];
    const u = (s[0] * h[0] + s[1] * h[1] + s[2] * h[2]) / det;
    if (u < 0 || u > 1) continue;
    const q = [s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]];
    const v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det;
    if (v < 0 || u + v > 1) continue;
    const t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
    if (t > 0 && t < bestT) ((bestT = t), (best = f));
  }
  return best;
}
