import {
  Bool,
  Indices,
  isMechanicalState,
  isTopology,
  RealArray,
  sofaComponent,
  type DataType,
  type MatrixAccumulator,
  SingleStateForceField,
} from '@sofa-ts/core';
import { rotationVectorBetween } from '../rotation.js';

/** A list of booleans written 0/1 or true/false. */
const BoolList: DataType<Uint8Array> = {
  name: 'vector<bool>',
  parse: (t) => Uint8Array.from(Indices.parse(t.replace(/\btrue\b/gi, '1').replace(/\bfalse\b/gi, '0')), (x) => (x ? 1 : 0)),
  print: (v) => Array.from(v, String).join(' '),
  clone: (v) => Uint8Array.from(v),
};

/**
 * SOFA's RestShapeSpringsForceField: zero-length springs pulling points back to a rest shape.
 * For spring i on point p = points[i] with anchor q:
 *   f_p −= k_i·(x_p − x̄_q)      masked by activeDirections,   K_pp = −k_i·I (active directions)
 * x̄ is this state's rest position (q = p), or the current position of the external_rest_shape
 * state (q = external_points[i], default 0, 1, 2, …). k_i = stiffness[i] when given per spring,
 * else stiffness[0] (default 100). No points: every point.
 * Rigid3d (SOFA's rigid specialisation): the translational spring acts on the centre c, and an
 * angular spring of stiffness κ_i = angularStiffness[i] (else [0]) on the orientation:
 *   f_c −= k_i·(c − c̄),   τ −= κ_i·θ·u,   θ·u the rotation vector of q ⊗ q̄⁻¹ (θ ∈ [0, π], world axes)
 *   K = diag(−k_i·I₃, −κ_i·I₃), the exact derivative at θ = 0 (SOFA's K; away from the rest
 *   orientation the true ∂τ/∂θ differs at second order in θ).
 * activeDirections has one flag per derivative component: 3 for the centre, then 3 for the rotation
 * axes (SOFA's 7th flag, a coordinate's, is read and not used). angularStiffness is made as long as
 * stiffness, padded with 100 or cut, as SOFA does. pivot_points is not used by SOFA (it never fills
 * its pivots): accepted with a warning.
 */
@sofaComponent({
  name: 'RestShapeSpringsForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Springs pulling points back to their rest positions (or to the positions of another state).',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Rigid3d'],
})
export class RestShapeSpringsForceField extends SingleStateForceField {
  readonly points = this.initData({
    name: 'points',
    type: Indices,
    default: new Uint32Array(0),
    help: 'points controlled by the springs (default: all)',
  });
  readonly stiffness = this.initData({
    name: 'stiffness',
    type: RealArray(0),
    default: new Float64Array(0),
    unit: 'N/m',
    help: 'stiffness of the springs: one value for all, or one per point (default 100)',
  });
  readonly angularStiffness = this.initData({
    name: 'angularStiffness',
    type: RealArray(0),
    default: new Float64Array(0),
    unit: 'N·m/rad',
    help: 'angular stiffness of the springs: one value for all, or one per point (Rigid3d only; default 100)',
  });
  readonly pivotPoints = this.initData({
    name: 'pivot_points',
    type: RealArray(3),
    default: new Float64Array(0),
    help: 'global pivot points used instead of the rigid centres (not used by SOFA: ignored, with a warning)',
  });
  readonly externalPoints = this.initData({
    name: 'external_points',
    type: Indices,
    default: new Uint32Array(0),
    help: 'points of the external rest shape the springs attach to (default: 0, 1, 2, …)',
  });
  readonly recomputeIndices = this.initData({
    name: 'recompute_indices',
    type: Bool,
    default: true,
    help: 'recompute the springs from points, external_points and stiffness at each step (when they changed, e.g. linked to an engine); false: keep those of init',
  });
  readonly drawSpring = this.initData({ name: 'drawSpring', type: Bool, default: false, help: 'draw the springs', group: 'Visualization' });
  readonly springColor = this.initData({
    name: 'springColor',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(0, 1, 0, 1),
    help: 'spring color',
    group: 'Visualization',
  });
  readonly activeDirections = this.initData({
    name: 'activeDirections',
    type: BoolList,
    default: Uint8Array.of(1, 1, 1, 1, 1, 1),
    help: 'directions in which the springs act (1) or not (0), per derivative component',
  });

  readonly externalRestShape = this.initLink({
    name: 'external_rest_shape',
    help: 'a state whose current positions are the rest shape',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
  });
  readonly topology = this.initLink({
    name: 'topology',
    help: 'link to the topology container (accepted)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  /** Spring i: point p[i] of this state, anchor q[i] of the rest shape, stiffness k[i]. */
  private p = new Uint32Array(0);
  private q = new Uint32Array(0);
  private k = new Float64Array(0);
  /** Angular stiffness κ[i] of spring i (Rigid3d). */
  private ka = new Float64Array(0);
  /** 1 for each active derivative component, (derivSize). */
  private active = new Uint8Array(3);
  /** Rigid3d state: translational and angular springs on the frames. */
  private rigid = false;
  /** Scratch: a rotation vector. */
  private readonly rot = new Float64Array(3);
  private ready = false;

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name === 'Rigid2d') throw this.error('SOFA has no Rigid2d RestShapeSpringsForceField', 'use Rigid3d, or Vec templates');
    this.rigid = s.stateType.name === 'Rigid3d';
    if (this.pivotPoints.value.length > 0)
      this.warn(
        `pivot_points is ignored: ${this.rigid ? "SOFA's RestShapeSpringsForceField does not use it" : 'it only concerns Rigid3d states'}`,
      );
    if (this.stiffness.value.length === 0) this.stiffness.value = Float64Array.of(100);
    if (!this.rigid && this.angularStiffness.value.length > 0)
      this.warn(`angularStiffness is ignored: it only concerns Rigid3d states (this one is ${s.stateType.name})`);
    if (this.rigid) {
      // SOFA: angularStiffness as long as stiffness, padded with 100 or cut.
      const ks = this.stiffness.value.length,
        as = this.angularStiffness.value;
      if (as.length !== ks) this.angularStiffness.value = Float64Array.from({ length: ks }, (_, i) => (i < as.length ? as[i] : 100));
    }
    const d = s.stateType.derivSize;
    const dirs = this.activeDirections.value;
    this.active = Uint8Array.from({ length: d }, (_, i) => (i < dirs.length ? dirs[i] : 1));
  }

  /**
   * Springs are set up after init (SOFA does it in bwdInit), or at first use when the external rest
   * shape lives in a node initialised later.
   */
  override bwdInit(): void {
    const ext = this.externalRestShape.get();
    if (this.externalRestShape.linkPath !== undefined && !ext)
      throw this.error(`external_rest_shape '${this.externalRestShape.linkPath}' was not found`);
    if (!ext || ext.componentState === 'valid') this.setup();
  }

  private setup(): void {
    const s = this.states[0];
    const ext = this.externalRestShape.get();
    if (ext && ext.stateType.coordSize !== s.stateType.coordSize)
      throw this.error(`external_rest_shape ${ext.describe()} has template ${ext.stateType.name}, this state ${s.stateType.name}`);
    let pts = this.points.value;
    if (pts.length === 0) pts = Uint32Array.from({ length: s.size }, (_, i) => i);
    let anchors = pts;
    if (ext) {
      anchors = this.externalPoints.value;
      if (anchors.length === 0) anchors = Uint32Array.from({ length: ext.size }, (_, i) => i);
    }
    for (const i of pts) if (i >= s.size) throw this.error(`point ${i} is out of range: ${s.describe()} has ${s.size} points`);
    const restSize = ext ? ext.size : s.size;
    for (const i of anchors) if (i >= restSize) throw this.error(`rest point ${i} is out of range: the rest shape has ${restSize} points`);
    if (anchors.length !== pts.length)
      throw this.error(`${pts.length} points but ${anchors.length} external points: give one external point per point`);
    const ks = this.stiffness.value;
    this.p = Uint32Array.from(pts);
    this.q = Uint32Array.from(anchors);
    this.k = Float64Array.from({ length: pts.length }, (_, i) => (i < ks.length ? ks[i] : ks[0]));
    const ka = this.angularStiffness.value;
    this.ka = Float64Array.from({ length: pts.length }, (_, i) => (ka.length === 0 ? 0 : i < ka.length ? ka[i] : ka[0]));
    this.ready = true;
    this.setupCounters = this.inputCounters();
  }

  /** Counters of points, external_points and stiffness when the springs were set up. */
  private setupCounters = '';

  private inputCounters(): string {
    return `${this.points.counter} ${this.externalPoints.counter} ${this.stiffness.counter}`;
  }

  /** SOFA's recompute_indices: at each step the springs follow points, external_points and stiffness. */
  private refreshSprings(): void {
    if (!this.ready) this.setup();
    else if (this.recomputeIndices.value && this.inputCounters() !== this.setupCounters) this.setup();
  }

  /** Rest coordinates: the external state's positions, or this state's rest positions. */
  private restCoords(): Float64Array {
    const ext = this.externalRestShape.get();
    return ext ? ext.x : this.states[0].x0;
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const fs = f[0],
      xs = x[0];
    this.refreshSprings();
    const x0 = this.restCoords();
    if (this.rigid) return this.addRigidForce(fs, xs, x0);
    const d = this.states[0].stateType.derivSize;
    // f_p −= k·(x_p − x̄_q) on the active directions
    for (let i = 0; i < this.p.length; i++) {
      const a = this.p[i] * d,
        b = this.q[i] * d,
        k = this.k[i];
      for (let j = 0; j < d; j++) if (this.active[j]) fs[a + j] -= k * (xs[a + j] - x0[b + j]);
    }
  }

  /** Rigid3d: f_c −= k·(c − c̄), τ −= κ·θu with θu the rotation vector of q ⊗ q̄⁻¹, both masked. */
  private addRigidForce(fs: Float64Array, xs: Float64Array, x0: Float64Array): void {
    const r = this.rot;
    for (let i = 0; i < this.p.length; i++) {
      const a = this.p[i] * 7,
        b = this.q[i] * 7,
        o = this.p[i] * 6,
        k = this.k[i],
        ka = this.ka[i];
      for (let j = 0; j < 3; j++) if (this.active[j]) fs[o + j] -= k * (xs[a + j] - x0[b + j]);
      rotationVectorBetween(r, xs, a + 3, x0, b + 3);
      for (let j = 0; j < 3; j++) if (this.active[3 + j]) fs[o + 3 + j] -= ka * r[j];
    }
  }

  /** Spring stiffness of derivative component j of spring i: k_i on translations, κ_i on rotations. */
  private stiffnessOf(i: number, j: number): number {
    return this.rigid && j >= 3 ? this.ka[i] : this.k[i];
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const d = this.states[0].stateType.derivSize;
    const dfs = df[0],
      dxs = dx[0];
    if (!this.ready) this.setup();
    const kf = this.kFactorWithRayleigh(kFactor, bFactor);
    for (let i = 0; i < this.p.length; i++) {
      const a = this.p[i] * d;
      for (let j = 0; j < d; j++) if (this.active[j]) dfs[a + j] -= dxs[a + j] * this.stiffnessOf(i, j) * kf; // SOFA's order: (dx·k)·kFactor
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const d = this.states[0].stateType.derivSize;
    if (!this.ready) this.setup();
    for (let i = 0; i < this.p.length; i++) {
      const a = this.p[i] * d;
      for (let j = 0; j < d; j++) acc.add(a + j, a + j, this.active[j] ? -this.stiffnessOf(i, j) * kFactor : 0);
    }
  }

  /** ½·Σ k·|x − x̄|² over the active directions (Rigid3d: centres, plus ½·κ·|θu|² masked). */
  override getPotentialEnergy(x: readonly Float64Array[]): number {
    const xs = x[0];
    if (!this.ready) this.setup();
    const x0 = this.restCoords();
    let e = 0;
    if (this.rigid) {
      const r = this.rot;
      for (let i = 0; i < this.p.length; i++) {
        const a = this.p[i] * 7,
          b = this.q[i] * 7;
        rotationVectorBetween(r, xs, a + 3, x0, b + 3);
        for (let j = 0; j < 3; j++) {
          if (this.active[j]) e += 0.5 * this.k[i] * (xs[a + j] - x0[b + j]) ** 2;
          if (this.active[3 + j]) e += 0.5 * this.ka[i] * r[j] ** 2;
        }
      }
      return e;
    }
    const d = this.states[0].stateType.derivSize;
    for (let i = 0; i < this.p.length; i++) {
      const a = this.p[i] * d,
        b = this.q[i] * d;
      for (let j = 0; j < d; j++) if (this.active[j]) e += 0.5 * this.k[i] * (xs[a + j] - x0[b + j]) ** 2;
    }
    return e;
  }
}
