import {
  Bool,
  Indices,
  Real,
  contextMeshTopology,
  followPointIndices,
  sofaComponent,
  SingleStateProjectiveConstraint,
} from '@sofa-ts/core';

/**
 * SOFA's FixedProjectiveConstraint (alias FixedConstraint): the listed points (or all of them with
 * fixAll) do not move. P zeroes their derivatives: dx_i ← 0. Velocities are projected only when
 * activate_projectVelocity is set, as in SOFA (a fixed point starts and stays at rest anyway,
 * since its increments are zero).
 * Topological changes: `indices` follow the point removals of the node's topology (SOFA's
 * TopologySubsetIndices: a removed point leaves the list, the moved last point is renamed); with
 * fixAll every point stays fixed.
 */
@sofaComponent({
  name: 'FixedProjectiveConstraint',
  aliases: ['FixedConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Attach given particles to their initial positions.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d', 'Rigid3d', 'Rigid2d'],
})
export class FixedProjectiveConstraint extends SingleStateProjectiveConstraint {
  readonly indices = this.initData({ name: 'indices', type: Indices, default: new Uint32Array(0), help: 'indices of the fixed points' });
  readonly fixAll = this.initData({ name: 'fixAll', type: Bool, default: false, help: 'filter all the DOF to implement a fixed object' });
  readonly showObject = this.initData({
    name: 'showObject',
    type: Bool,
    default: true,
    help: 'draw or not the fixed constraints',
    group: 'Visualization',
  });
  readonly drawSize = this.initData({
    name: 'drawSize',
    type: Real,
    default: 0,
    help: '0 -> point based rendering, >0 -> radius of spheres',
    group: 'Visualization',
  });
  readonly activateProjectVelocity = this.initData({
    name: 'activate_projectVelocity',
    type: Bool,
    default: false,
    help: 'activate the projection of the velocity',
  });

  /** Fixed points (all of them with fixAll), checked against the state size at init. */
  private points: Uint32Array = new Uint32Array(0);

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    const n = s.size;
    if (this.fixAll.value) this.points = Uint32Array.from({ length: n }, (_, i) => i);
    else {
      for (const i of this.indices.value) if (i >= n) throw this.error(`index ${i} is out of range: ${s.describe()} has ${n} points`);
      this.points = Uint32Array.from(this.indices.value);
      followPointIndices(
        contextMeshTopology(this.context),
        this.indices,
        (l) => (this.points = Uint32Array.from(l)),
        () => this.points,
      );
    }
  }

  /**
   * Replaces the fixed points (SOFA's clearConstraints then addConstraint, as an instrument controller
   * does at each step); `indices` follows.
   */
  setFixedIndices(list: Uint32Array): void {
    const n = this.getMechanicalState().size;
    for (const i of list)
      if (i >= n) throw this.error(`index ${i} is out of range: ${this.getMechanicalState().describe()} has ${n} points`);
    this.points = Uint32Array.from(list);
    this.indices.value = Uint32Array.from(list);
  }

  /** fixAll after a topological change resized the state: every point is fixed again. */
  private followSize(): void {
    const n = this.getMechanicalState().size;
    if (this.fixAll.value && this.points.length !== n) this.points = Uint32Array.from({ length: n }, (_, i) => i);
  }

  private zero(vec: Float64Array): void {
    const d = this.getMechanicalState().stateType.derivSize;
    this.followSize();
    // a loop of stores: a fill call per point costs more than the point (the corrections zero W's rows one by one)
    const pts = this.points;
    for (let i = 0; i < pts.length; i++) for (let o = pts[i] * d, end = o + d; o < end; o++) vec[o] = 0;
  }

  projectResponse(dx: Float64Array): void {
    this.zero(dx);
  }

  /** projectResponse sets the dofs of projectedDofs to 0, nothing else. */
  override get projectsByZeroing(): boolean {
    return true;
  }

  projectVelocity(v: Float64Array): void {
    if (this.activateProjectVelocity.value) this.zero(v);
  }

  projectPosition(_x: Float64Array): void {}

  projectedDofs(out: number[]): void {
    const d = this.getMechanicalState().stateType.derivSize;
    this.followSize();
    for (const p of this.points) for (let k = 0; k < d; k++) out.push(p * d + k);
  }
}
