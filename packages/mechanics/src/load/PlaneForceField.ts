import { Bool, Real, RealArray, sofaComponent, VecN, type MatrixAccumulator, SingleStateForceField } from '@sofa-ts/core';

/**
 * SOFA's PlaneForceField: a penalty plane n·x = d. For each point (in localRange) with penetration
 * δ = x·n − d < 0 (any δ when bilateral):
 *   f = −k·δ·n + c·δ·v        (k: stiffness, c: damping; note SOFA's damping term: the whole
 *                              velocity, scaled by the penetration depth)
 * clamped to |f| ≤ maxForce when maxForce > 0. The stiffness is SOFA's K = −k·n·nᵀ on the points in
 * contact at the last addForce (the damping term and the clamping are left out of K, as in SOFA).
 * The normal is used as given (SOFA does not normalise it).
 * Rigid3d: the plane acts on the frames' centres (a 3D normal; positions are the centres, the force
 * and K go to the translation, the rotation is left free), as SOFA's rigid instantiation does.
 */
@sofaComponent({
  name: 'PlaneForceField',
  category: 'ForceField',
  module: 'Sofa.Component.MechanicalLoad',
  description: 'Repulsion of the points below a plane by a penalty force.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d', 'Rigid3d'],
})
export class PlaneForceField extends SingleStateForceField {
  readonly normal = this.initData({
    name: 'normal',
    type: RealArray(0, 'DPos'),
    default: Float64Array.of(0, 1, 0),
    help: 'plane normal (default (0, 1, 0), truncated to the state dimension)',
  });
  readonly d = this.initData({ name: 'd', type: Real, default: 0, unit: 'm', help: 'plane offset: the plane is x·normal = d' });
  readonly stiffness = this.initData({
    name: 'stiffness',
    type: Real,
    default: 500,
    unit: 'N/m',
    help: 'penalty stiffness (negative values fall back to 500)',
  });
  readonly damping = this.initData({
    name: 'damping',
    type: Real,
    default: 5,
    help: 'damping, multiplied by the penetration depth and the velocity (negative values fall back to 5)',
  });
  readonly maxForce = this.initData({
    name: 'maxForce',
    type: Real,
    default: 0,
    unit: 'N',
    help: 'if > 0, the largest force applied to a point',
  });
  readonly bilateral = this.initData({ name: 'bilateral', type: Bool, default: false, help: 'apply the force on both sides of the plane' });
  readonly localRange = this.initData({
    name: 'localRange',
    type: VecN(2, 'Vec2i'),
    default: Float64Array.of(-1, -1),
    help: 'optional range [first, last] of the point indices considered (-1: no bound)',
  });
  readonly showPlane = this.initData({
    name: 'showPlane',
    type: Bool,
    default: false,
    help: 'draw the plane',
    group: 'Visualization',
    aliases: ['draw'],
  });
  readonly planeColor = this.initData({
    name: 'planeColor',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(0, 0.5, 0.2, 1),
    help: 'plane color',
    group: 'Visualization',
    aliases: ['color'],
  });
  readonly showPlaneSize = this.initData({
    name: 'showPlaneSize',
    type: Real,
    default: 10,
    help: 'size of the drawn plane',
    group: 'Visualization',
    aliases: ['drawSize'],
  });

  /** Plane normal, (N): N = derivSize for Vec templates, 3 (the centre) for Rigid3d. */
  private n = new Float64Array(3);
  /** Scalars per point of the coordinates (cs) and of the derivatives (ds). */
  private cs = 3;
  private ds = 3;
  /** Scratch: one point's force, (N ≤ 6). */
  private readonly force = new Float64Array(6);
  /** Point range [begin, end) from localRange, clipped to the state at each addForce. */
  private begin = 0;
  private end = -1;
  /** 1 for the points in contact at the last addForce, (size). */
  private contact = new Uint8Array(0);

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name === 'Rigid2d') throw this.error('SOFA has no Rigid2d PlaneForceField', 'use Rigid3d, or Vec templates');
    const N = s.stateType.isRigid ? s.stateType.spatialDimensions : s.stateType.derivSize;
    this.cs = s.stateType.coordSize;
    this.ds = s.stateType.derivSize;
    let normal = this.normal.value;
    if (!this.normal.isSet) normal = Float64Array.from({ length: N }, (_, k) => (k === 1 ? 1 : 0));
    if (normal.length !== N) throw this.error(`'normal' must have ${N} numbers for template ${s.stateType.name}, got ${normal.length}`);
    this.normal.value = Float64Array.from(normal);
    this.n = Float64Array.from(normal);
    if (this.stiffness.value < 0) this.stiffness.value = 500;
    if (this.damping.value < 0) this.damping.value = 5;
    if (this.maxForce.value < 0) this.maxForce.value = 0;
    const [a, b] = [Math.trunc(this.localRange.value[0]), Math.trunc(this.localRange.value[1])];
    if (this.localRange.isSet && (a < 0 || b < 0 || a > b)) this.localRange.value = Float64Array.of(-1, -1);
    this.begin = Math.max(0, Math.trunc(this.localRange.value[0]));
    this.end = Math.trunc(this.localRange.value[1]);
    this.contact = new Uint8Array(s.size);
  }

  /** [begin, end) of the points considered for a state of `size` points. */
  private range(size: number): [number, number] {
    const last = this.end >= 0 && this.end + 1 < size ? this.end + 1 : size;
    return [this.begin, last];
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const N = this.n.length,
      cs = this.cs,
      ds = this.ds;
    const fs = f[0],
      xs = x[0],
      vs = v[0];
    const size = fs.length / ds;
    if (this.contact.length !== size) this.contact = new Uint8Array(size);
    this.contact.fill(0);
    const k = this.stiffness.value,
      c = this.damping.value,
      d0 = this.d.value;
    const limit2 = this.maxForce.value * this.maxForce.value;
    const bilateral = this.bilateral.value;
    const [b, e] = this.range(size);
    const force = this.force;
    for (let i = b; i < e; i++) {
      let depth = -d0;
      for (let j = 0; j < N; j++) depth += xs[i * cs + j] * this.n[j];
      if (!bilateral && !(depth < 0)) continue;
      // f = −k·δ·n + c·δ·v
      let f2 = 0;
      for (let j = 0; j < N; j++) {
        force[j] = -k * depth * this.n[j] + c * depth * vs[i * ds + j];
        f2 += force[j] * force[j];
      }
      const scale = limit2 > 0 && f2 > limit2 ? Math.sqrt(limit2 / f2) : 1;
      for (let j = 0; j < N; j++) fs[i * ds + j] += force[j] * scale;
      this.contact[i] = 1;
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const N = this.n.length,
      ds = this.ds;
    const dfs = df[0],
      dxs = dx[0];
    const fact = -this.stiffness.value * this.kFactorWithRayleigh(kFactor, bFactor);
    // df_i += −k·n·(n·dx_i) on the points in contact
    for (let i = 0; i < this.contact.length; i++) {
      if (!this.contact[i]) continue;
      let dot = 0;
      for (let j = 0; j < N; j++) dot += this.n[j] * dxs[i * ds + j];
      for (let j = 0; j < N; j++) dfs[i * ds + j] += fact * dot * this.n[j];
    }
  }

  /** Emits the N×N block of every point in range (zero when not in contact) to keep the pattern fixed. */
  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const N = this.n.length,
      ds = this.ds;
    const fact = -this.stiffness.value * kFactor;
    const [b, e] = this.range(this.contact.length);
    for (let i = b; i < e; i++) {
      const on = this.contact[i] ? fact : 0;
      for (let r = 0; r < N; r++) for (let q = 0; q < N; q++) acc.add(i * ds + r, i * ds + q, on * this.n[r] * this.n[q]);
    }
  }

  /** Indices of the points in contact at the last addForce. */
  get contacts(): number[] {
    const out: number[] = [];
    this.contact.forEach((c, i) => c && out.push(i));
    return out;
  }
}
