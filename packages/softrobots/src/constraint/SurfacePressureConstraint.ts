import {
  AnimateEndEvent,
  BaseLagrangianConstraint,
  Bool,
  Enum,
  IndexArray,
  Real,
  RealArray,
  UInt,
  contextMeshTopology,
  isMechanicalState,
  sofaComponent,
  type BaseMechanicalState,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
  type ConstraintResolution,
  type SofaEvent,
} from '@sofa-ts/core';
import { ActuationResolution } from './actuation-resolution.js';
import { addCavityVolumeGradient, cavityMaxIndex, cavityPoints, cavitySignedVolume } from './surface-pressure-geometry.js';

/**
 * SoftRobots' SurfacePressureConstraint (direct actuation): a cavity closed by `triangles` and
 * `quads` of a Vec3 state (by default the faces of the context topology) is inflated by a
 * pressure. One Lagrangian row: the volume growth
 *   δ = |V(x)| − V₀,  J = s·∂V/∂x  (s = −1 with flipNormal, else 1),
 * V the volume of surface-pressure-geometry.ts (its row gives each face corner a share of the
 * face's vector area: λ·J is the nodal load of the pressure λ). The faces must point out of the
 * cavity (or inwards with flipNormal) for J to be the gradient of δ, as in SoftRobots. The row is
 * built at the free positions and solved by the scene's constraint solver with the others:
 *   - valueType pressure: λ = value[valueIndex] (within maxPressureVariation of the last λ, then
 *     clamped to [minPressure, maxPressure]), δ kept within [minVolumeGrowth, maxVolumeGrowth];
 *   - valueType volumeGrowth: δ = value[valueIndex] (within maxVolumeGrowthVariation of the last
 *     growth, then clamped to [minVolumeGrowth, maxVolumeGrowth]), λ clamped to
 *     [minPressure, maxPressure].
 * λ is SOFA's impulse (pressure·dt): `value` in pressure mode, the bounds on pressure and the
 * `pressure` output are in that unit, as in SoftRobots; the pressure itself is given beside it
 * (`physicalPressure` = λ/dt). cavityVolume and volumeGrowth are measured on the positions at the
 * end of the step. eqPressure and eqVolumeGrowth belong to SoftRobots' inverse equality
 * components and have no effect here (SoftRobots hides them on this component).
 * Departure: in pressure mode SoftRobots' local solve applies minVolumeGrowth and then drops it
 * (λ is reset to the value); here the bound holds.
 */
@sofaComponent({
  name: 'SurfacePressureConstraint',
  category: 'SoftRobots',
  module: 'SoftRobots',
  description: 'Pressure actuation of a cavity of a deformable object (imposed pressure or volume growth), solved as a Lagrangian constraint.',
  templates: ['Vec3d'],
})
export class SurfacePressureConstraint extends BaseLagrangianConstraint {
  readonly triangles = this.initData({ name: 'triangles', type: IndexArray(3, 'vector<Triangle>'), default: new Uint32Array(0), help: 'triangles of the cavity surface (with quads empty too: the faces of the context topology)' });
  readonly quads = this.initData({ name: 'quads', type: IndexArray(4, 'vector<Quad>'), default: new Uint32Array(0), help: 'quads of the cavity surface (with triangles empty too: the faces of the context topology)' });
  readonly flipNormal = this.initData({ name: 'flipNormal', type: Bool, default: false, help: 'the faces point into the cavity (a positive pressure would deflate it otherwise)' });
  readonly value = this.initData({ name: 'value', type: RealArray(1), default: new Float64Array(0), help: 'pressure (SOFA impulse, pressure·dt) or volume growth to impose, one per value index' });
  readonly valueIndex = this.initData({ name: 'valueIndex', type: UInt, default: 0, help: 'which entry of value is imposed' });
  readonly valueType = this.initData({ name: 'valueType', type: Enum(['pressure', 'volumeGrowth'] as const), default: 'pressure', help: 'pressure: impose λ; volumeGrowth: impose the volume growth' });
  readonly maxPressure = this.initData({ name: 'maxPressure', type: Real, default: 0, help: 'upper bound on λ (unbounded when not set)' });
  readonly minPressure = this.initData({ name: 'minPressure', type: Real, default: 0, help: 'lower bound on λ (unbounded when not set; negative drains the cavity)' });
  readonly eqPressure = this.initData({ name: 'eqPressure', type: Real, default: 0, help: 'pressure of the inverse equality components (no effect on this component)' });
  readonly maxPressureVariation = this.initData({ name: 'maxPressureVariation', type: Real, default: 0, help: 'largest change of the imposed λ in one step (pressure mode; unbounded when not set)' });
  readonly maxVolumeGrowth = this.initData({ name: 'maxVolumeGrowth', type: Real, default: 0, help: 'largest volume growth (unbounded when not set)' });
  readonly minVolumeGrowth = this.initData({ name: 'minVolumeGrowth', type: Real, default: 0, help: 'smallest volume growth (unbounded when not set)' });
  readonly eqVolumeGrowth = this.initData({ name: 'eqVolumeGrowth', type: Real, default: 0, help: 'volume growth of the inverse equality components (no effect on this component)' });
  readonly maxVolumeGrowthVariation = this.initData({ name: 'maxVolumeGrowthVariation', type: Real, default: 0, help: 'largest change of the imposed volume growth in one step (volumeGrowth mode; unbounded when not set)' });
  readonly drawPressure = this.initData({ name: 'drawPressure', type: Bool, default: false, help: 'draw the value of the pressure', group: 'Visualization', aliases: ['visualization'] });
  readonly drawScale = this.initData({ name: 'drawScale', type: Real, default: 0.1, help: 'scale of the drawing', group: 'Visualization', aliases: ['showVisuScale'] });

  readonly initialCavityVolume = this.initData({ name: 'initialCavityVolume', type: Real, default: 0, help: 'cavity volume V₀ at init', output: true });
  readonly cavityVolume = this.initData({ name: 'cavityVolume', type: Real, default: 1, help: 'cavity volume |V| at the end of the last step', output: true });
  readonly pressure = this.initData({ name: 'pressure', type: Real, default: 0, help: 'λ of the last step (SOFA impulse, pressure·dt)', output: true });
  readonly physicalPressure = this.initData({ name: 'physicalPressure', type: Real, default: 0, help: 'pressure of the last step, λ/dt (sofa-ts)', output: true });
  readonly volumeGrowth = this.initData({ name: 'volumeGrowth', type: Real, default: 0, help: 'volume growth |V| − V₀ at the end of the last step', output: true });

  readonly mstate = this.initLink<BaseMechanicalState>({ name: 'mstate', help: 'the Vec3 state of the cavity surface (default: the one of this node)', accepts: isMechanicalState, expected: 'a MechanicalObject (Vec3d)', search: 'local', required: true });

  private states: BaseMechanicalState[] = [];
  private row = 0;
  /** The points of the faces, and ∂V/∂x on the state's points (3 per point, only those entries used). */
  private points: Uint32Array = new Uint32Array(0);
  private grad = new Float64Array(0);
  private readonly entry = new Float64Array(3);
  private readonly resolutionObj = new ActuationResolution();
  private initialValue = new Float64Array(0);

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Vec3d') throw this.error(`a Vec3d state is needed (got ${s.stateType.name})`);
    this.template = 'Vec3d';
    this.states = [s];
    if (this.triangles.value.length === 0 && this.quads.value.length === 0) {
      const topo = contextMeshTopology(this.context);
      if (!topo) throw this.error('no faces: give triangles and/or quads, or put a topology with the cavity surface in this node or above');
      this.triangles.setValue(topo.getTriangles().slice());
      this.quads.setValue(topo.getQuads().slice());
      if (this.triangles.value.length === 0 && this.quads.value.length === 0) throw this.error(`the topology ${topo.describe()} has no triangles nor quads: give the cavity surface (triangles, quads)`);
    }
    const m = cavityMaxIndex(this.triangles.value, this.quads.value);
    if (m >= s.size) throw this.error(`the faces use point ${m}, out of range (${s.describe()} has ${s.size} points)`);
    if (this.value.value.length === 0) this.value.setValue(Float64Array.of(0));
    const vi = this.valueIndex.value;
    if (vi >= this.value.value.length) throw this.error(`valueIndex ${vi} is out of range (value has ${this.value.value.length} entries)`);
    this.initialValue = this.value.value.slice();
    this.prepare();
    this.measureInitialVolume();
  }

  /** SoftRobots measures V₀ again after the mappings are initialised (a mapped cavity state). */
  override bwdInit(): void {
    if (this.states.length > 0) this.measureInitialVolume();
  }

  override reset(): void {
    if (this.states.length === 0) return;
    this.cavityVolume.setValue(this.initialCavityVolume.value);
    this.pressure.setValue(0);
    this.physicalPressure.setValue(0);
    this.volumeGrowth.setValue(0);
    this.value.setValue(this.initialValue.slice());
  }

  private prepare(): void {
    this.points = cavityPoints(this.triangles.value, this.quads.value);
    this.grad = new Float64Array(3 * this.states[0]!.size);
  }

  private measureInitialVolume(): void {
    const V = Math.abs(cavitySignedVolume(this.states[0]!.x, this.triangles.value, this.quads.value));
    this.initialCavityVolume.setValue(V);
    this.cavityVolume.setValue(V);
    this.volumeGrowth.setValue(0);
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const s = this.states[0]!;
    if (this.grad.length !== 3 * s.size) this.prepare();
    this.row = firstRow;
    const g = this.grad, pts = this.points, e = this.entry;
    for (let k = 0; k < pts.length; k++) g.fill(0, 3 * pts[k]!, 3 * pts[k]! + 3);
    addCavityVolumeGradient(g, s.xFree, this.triangles.value, this.quads.value, this.flipNormal.value ? -1 : 1);
    for (let k = 0; k < pts.length; k++) {
      const p = pts[k]!;
      e[0] = g[3 * p]!;
      e[1] = g[3 * p + 1]!;
      e[2] = g[3 * p + 2]!;
      J.add(s, firstRow, p, e);
    }
    return 1;
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder): void {
    if (order === 'vel') throw this.error('velocity constraints (solveVelocityConstraintFirst) are not supported by the cavity: pose the problem on positions');
    const V = Math.abs(cavitySignedVolume(this.states[0]!.xFree, this.triangles.value, this.quads.value));
    out[this.row] = V - this.initialCavityVolume.value;
  }

  /** The value imposed this step (value[valueIndex], 0 when value is empty). */
  private imposed(): number {
    const v = this.value.value;
    return v.length === 0 ? 0 : (v[Math.min(this.valueIndex.value, v.length - 1)] ?? 0);
  }

  getConstraintResolution(out: Array<ConstraintResolution | undefined>): void {
    const r = this.resolutionObj;
    let t = this.imposed();
    r.minForce = this.minPressure.isSet ? this.minPressure.value : -Infinity;
    r.maxForce = this.maxPressure.isSet ? this.maxPressure.value : Infinity;
    r.minDisp = this.minVolumeGrowth.isSet ? this.minVolumeGrowth.value : -Infinity;
    r.maxDisp = this.maxVolumeGrowth.isSet ? this.maxVolumeGrowth.value : Infinity;
    if (this.valueType.value === 'volumeGrowth') {
      r.mode = 'displacement';
      if (this.maxVolumeGrowthVariation.isSet) t = withinVariation(t, this.volumeGrowth.value, this.maxVolumeGrowthVariation.value);
      t = Math.min(r.maxDisp, Math.max(r.minDisp, t));
    } else {
      r.mode = 'force';
      if (this.maxPressureVariation.isSet) t = withinVariation(t, this.pressure.value, this.maxPressureVariation.value);
      t = Math.min(r.maxForce, Math.max(r.minForce, t));
    }
    r.target = t;
    out[this.row] = r;
  }

  override storeLambda(lambda: Float64Array): void {
    const l = lambda[this.row]!;
    this.pressure.setValue(l);
    this.physicalPressure.setValue(l / this.context.getDt());
  }

  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateEndEvent) || this.states.length === 0) return;
    const V = Math.abs(cavitySignedVolume(this.states[0]!.x, this.triangles.value, this.quads.value));
    this.cavityVolume.setValue(V);
    this.volumeGrowth.setValue(V - this.initialCavityVolume.value);
  }
}

/** t moved to within ±maxVariation of last. */
function withinVariation(t: number, last: number, maxVariation: number): number {
  const dv = Math.abs(maxVariation);
  return Math.min(last + dv, Math.max(last - dv, t));
}
