import { Bool, Real, RealArray, sofaComponent, VecN, type MatrixAccumulator, SingleStateForceField } from '@sofa-ts/core';

/**
 * SOFA's SphereForceField: a penalty sphere (centre c, radius r) that pushes out the points inside
 * it (on both sides when bilateral). With d = x − c, δ = |d| − r (negative inside):
 *   f = −k·δ·d/|d| + c_d·δ·v       (k: stiffness, c_d: damping; SOFA's damping term)
 *   K = −k·( n·nᵀ·(r/|d|) + (1 − r/|d|)·I ),  n = d/|d|
 * (the exact derivative of the stiffness term; the damping term is left out of K, as in SOFA),
 * on the points in contact at the last addForce, in localRange when given.
 */
@sofaComponent({
  name: 'SphereForceField',
  category: 'ForceField',
  module: 'Sofa.Component.MechanicalLoad',
  description: 'Repulsion of the points inside a sphere by a penalty force.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d'],
})
export class SphereForceField extends SingleStateForceField {
  readonly center = this.initData({
    name: 'center',
    type: RealArray(0, 'Coord'),
    default: new Float64Array(0),
    unit: 'm',
    help: 'sphere center',
  });
  readonly radius = this.initData({ name: 'radius', type: Real, default: 1, unit: 'm', help: 'sphere radius' });
  readonly stiffness = this.initData({ name: 'stiffness', type: Real, default: 500, unit: 'N/m', help: 'force stiffness' });
  readonly damping = this.initData({ name: 'damping', type: Real, default: 5, help: 'force damping' });
  readonly color = this.initData({
    name: 'color',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(0, 0, 1, 1),
    help: 'sphere color',
    group: 'Visualization',
  });
  readonly localRange = this.initData({
    name: 'localRange',
    type: VecN(2, 'Vec2i'),
    default: Float64Array.of(-1, -1),
    help: 'optional range [first, last] of the point indices considered (-1: no bound)',
  });
  readonly bilateral = this.initData({
    name: 'bilateral',
    type: Bool,
    default: false,
    help: 'if true the sphere force field is applied on both sides',
  });

  private N = 3;
  private c = new Float64Array(3);
  /** Points in contact at the last addForce, their normals (N each) and r/|d|. */
  private contacts = new Uint32Array(0);
  private normals = new Float64Array(0);
  private facts = new Float64Array(0);
  private count = 0;

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    const N = (this.N = s.stateType.derivSize);
    const c = this.center.value;
    if (c.length !== 0 && c.length !== N) throw this.error(`'center' needs ${N} numbers, got ${c.length}`);
    this.c = c.length === N ? Float64Array.from(c) : new Float64Array(N);
    this.allocate(s.size);
  }

  private allocate(n: number): void {
    this.contacts = new Uint32Array(n);
    this.normals = new Float64Array(n * this.N);
    this.facts = new Float64Array(n);
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const N = this.N,
      out = f[0],
      xs = x[0],
      vs = v[0],
      n = xs.length / N;
    if (this.contacts.length < n) this.allocate(n);
    const r = this.radius.value,
      k = this.stiffness.value,
      cd = this.damping.value,
      bil = this.bilateral.value;
    const lr = this.localRange.value;
    const begin = lr[0] >= 0 ? lr[0] : 0;
    const end = lr[1] >= 0 && lr[1] + 1 < n ? lr[1] + 1 : n;
    this.count = 0;
    for (let i = begin; i < end; i++) {
      let n2 = 0;
      for (let j = 0; j < N; j++) n2 += (xs[i * N + j] - this.c[j]) ** 2;
      if (!(n2 < r * r || bil)) continue;
      const norm = Math.sqrt(n2),
        delta = norm - r;
      for (let j = 0; j < N; j++) {
        const dj = xs[i * N + j] - this.c[j];
        // f = −k·δ·d/|d| + c_d·δ·v
        out[i * N + j] += (-k * delta * dj) / norm + cd * delta * vs[i * N + j];
        this.normals[this.count * N + j] = dj / norm;
      }
      this.facts[this.count] = r / norm;
      this.contacts[this.count++] = i;
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const N = this.N,
      out = df[0],
      d = dx[0],
      fact = -this.stiffness.value * this.kFactorWithRayleigh(kFactor, bFactor);
    for (let q = 0; q < this.count; q++) {
      const o = this.contacts[q] * N,
        a = this.facts[q];
      let dot = 0;
      for (let j = 0; j < N; j++) dot += d[o + j] * this.normals[q * N + j];
      for (let j = 0; j < N; j++) out[o + j] += fact * (this.normals[q * N + j] * dot * a + d[o + j] * (1 - a));
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const N = this.N,
      fact = -this.stiffness.value * kFactor;
    for (let q = 0; q < this.count; q++) {
      const o = this.contacts[q] * N,
        a = this.facts[q];
      for (let l = 0; l < N; l++) {
        for (let m = 0; m < N; m++)
          acc.add(o + l, o + m, fact * (this.normals[q * N + l] * this.normals[q * N + m] * a + (l === m ? 1 - a : 0)));
      }
    }
  }

  /** Indices of the points in contact at the last addForce. */
  get contactPoints(): number[] {
    return Array.from(this.contacts.subarray(0, this.count));
  }
}
