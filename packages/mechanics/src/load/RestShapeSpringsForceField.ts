import {
  BaseForceField,
  Bool,
  Indices,
  isMechanicalState,
  isTopology,
  RealArray,
  sofaComponent,
  type BaseMechanicalState,
  type DataType,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { mstateLink } from '../state-link.js';

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
 * else stiffness[0] (default 100). No points: every point. angularStiffness and pivot_points only
 * matter for rigid templates (accepted here, Vec templates only).
 */
@sofaComponent({
  name: 'RestShapeSpringsForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Springs pulling points back to their rest positions (or to the positions of another state).',
  templates: ['Vec3d', 'Vec2d', 'Vec1d'],
})
export class RestShapeSpringsForceField extends BaseForceField {
  readonly points = this.initData({ name: 'points', type: Indices, default: new Uint32Array(0), help: 'points controlled by the springs (default: all)' });
  readonly stiffness = this.initData({ name: 'stiffness', type: RealArray(0), default: new Float64Array(0), unit: 'N/m', help: 'stiffness of the springs: one value for all, or one per point (default 100)' });
  readonly angularStiffness = this.initData({ name: 'angularStiffness', type: RealArray(0), default: new Float64Array(0), help: 'angular stiffness of the springs (rigid templates only)' });
  readonly pivotPoints = this.initData({ name: 'pivot_points', type: RealArray(3), default: new Float64Array(0), help: 'global pivot points used instead of the rigid centres (rigid templates only)' });
  readonly externalPoints = this.initData({ name: 'external_points', type: Indices, default: new Uint32Array(0), help: 'points of the external rest shape the springs attach to (default: 0, 1, 2, …)' });
  readonly recomputeIndices = this.initData({ name: 'recompute_indices', type: Bool, default: true, help: 'recompute the springs from points, external_points and stiffness at each step (when they changed, e.g. linked to an engine); false: keep those of init' });
  readonly drawSpring = this.initData({ name: 'drawSpring', type: Bool, default: false, help: 'draw the springs', group: 'Visualization' });
  readonly springColor = this.initData({ name: 'springColor', type: RealArray(0, 'RGBAColor'), default: Float64Array.of(0, 1, 0, 1), help: 'spring color', group: 'Visualization' });
  readonly activeDirections = this.initData({ name: 'activeDirections', type: BoolList, default: Uint8Array.of(1, 1, 1, 1, 1, 1), help: 'directions in which the springs act (1) or not (0), per derivative component' });

  readonly mstate = this.initLink(mstateLink());
  readonly externalRestShape = this.initLink({ name: 'external_rest_shape', help: 'a state whose current positions are the rest shape', accepts: isMechanicalState, expected: 'a MechanicalObject' });
  readonly topology = this.initLink({ name: 'topology', help: 'link to the topology container (accepted)', accepts: isTopology, expected: 'a topology container' });

  private states: BaseMechanicalState[] = [];
  /** Spring i: point p[i] of this state, anchor q[i] of the rest shape, stiffness k[i]. */
  private p = new Uint32Array(0);
  private q = new Uint32Array(0);
  private k = new Float64Array(0);
  /** 1 for each active derivative component, (derivSize). */
  private active = new Uint8Array(3);
  private ready = false;

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  override init(): void {
    const s = this.mstate.require();
    this.states = [s];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.isRigid) throw this.error('rigid templates of RestShapeSpringsForceField are not supported');
    if (this.pivotPoints.value.length > 0) throw this.error('pivot_points only apply to rigid templates');
    if (this.stiffness.value.length === 0) this.stiffness.value = Float64Array.of(100);
    const d = s.stateType.derivSize;
    const dirs = this.activeDirections.value;
    this.active = Uint8Array.from({ length: d }, (_, i) => (i < dirs.length ? dirs[i]! : 1));
  }

  /**
   * Springs are set up after init (SOFA does it in bwdInit), or at first use when the external rest
   * shape lives in a node initialised later.
   */
  override bwdInit(): void {
    const ext = this.externalRestShape.get();
    if (this.externalRestShape.linkPath !== undefined && !ext) throw this.error(`external_rest_shape '${this.externalRestShape.linkPath}' was not found`);
    if (!ext || ext.componentState === 'valid') this.setup();
  }

  private setup(): void {
    const s = this.states[0]!;
    const ext = this.externalRestShape.get();
    if (ext && ext.stateType.coordSize !== s.stateType.coordSize) throw this.error(`external_rest_shape ${ext.describe()} has template ${ext.stateType.name}, this state ${s.stateType.name}`);
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
    if (anchors.length !== pts.length) throw this.error(`${pts.length} points but ${anchors.length} external points: give one external point per point`);
    const ks = this.stiffness.value;
    this.p = Uint32Array.from(pts);
    this.q = Uint32Array.from(anchors);
    this.k = Float64Array.from({ length: pts.length }, (_, i) => (i < ks.length ? ks[i]! : ks[0]!));
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
    return ext ? ext.x : this.states[0]!.x0;
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const d = this.states[0]!.stateType.derivSize;
    const fs = f[0]!, xs = x[0]!;
    this.refreshSprings();
    const x0 = this.restCoords();
    // f_p −= k·(x_p − x̄_q) on the active directions
    for (let i = 0; i < this.p.length; i++) {
      const a = this.p[i]! * d, b = this.q[i]! * d, k = this.k[i]!;
      for (let j = 0; j < d; j++) if (this.active[j]) fs[a + j] -= k * (xs[a + j]! - x0[b + j]!);
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const d = this.states[0]!.stateType.derivSize;
    const dfs = df[0]!, dxs = dx[0]!;
    if (!this.ready) this.setup();
    const kf = this.kFactorWithRayleigh(kFactor, bFactor);
    for (let i = 0; i < this.p.length; i++) {
      const a = this.p[i]! * d, k = this.k[i]! * kf;
      for (let j = 0; j < d; j++) if (this.active[j]) dfs[a + j] -= k * dxs[a + j]!;
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const d = this.states[0]!.stateType.derivSize;
    if (!this.ready) this.setup();
    const kf = kFactor;
    for (let i = 0; i < this.p.length; i++) {
      const a = this.p[i]! * d, k = this.k[i]! * kf;
      for (let j = 0; j < d; j++) acc.add(a + j, a + j, this.active[j] ? -k : 0);
    }
  }

  override getPotentialEnergy(x: readonly Float64Array[]): number {
    const d = this.states[0]!.stateType.derivSize;
    const xs = x[0]!;
    if (!this.ready) this.setup();
    const x0 = this.restCoords();
    let e = 0;
    for (let i = 0; i < this.p.length; i++) {
      const a = this.p[i]! * d, b = this.q[i]! * d;
      for (let j = 0; j < d; j++) if (this.active[j]) e += 0.5 * this.k[i]! * (xs[a + j]! - x0[b + j]!) ** 2;
    }
    return e;
  }
}
