import {
  contextMeshTopology,
  DataTracker,
  Bool,
  Indices,
  isTopology,
  Real,
  RealArray,
  sofaComponent,
  type MatrixAccumulator,
  SingleStateForceField,
} from '@sofa-ts/core';

/**
 * SOFA's ConstantForceField: a constant force on some points, f_{indices[i]} += forces[i]
 * (K = 0). The forces come, in SOFA's priority order, from `forces` (one per index), else
 * `force` (the same on every index), else `totalForce` (shared equally: force = totalForce / n),
 * else zero. Without indices the force applies to every point of the topology (or of the state).
 * With indexFromEnd, index i designates point (n − 1 − i). Forces, indices and totalForce set
 * between steps (the scripting API, a controller) act from the next step on.
 */
@sofaComponent({
  name: 'ConstantForceField',
  category: 'ForceField',
  module: 'Sofa.Component.MechanicalLoad',
  description: 'Constant forces applied to given points.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d', 'Rigid3d', 'Rigid2d'],
})
export class ConstantForceField extends SingleStateForceField {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the points the forces are applied to (default: all points)',
    aliases: ['points'],
  });
  readonly indexFromEnd = this.initData({
    name: 'indexFromEnd',
    type: Bool,
    default: false,
    help: 'indices count from the end of the state (0 is the last point)',
  });
  readonly forces = this.initData({
    name: 'forces',
    type: RealArray(0, 'vector<Deriv>'),
    default: new Float64Array(0),
    unit: 'N',
    help: 'force applied at each index (one Deriv per index)',
  });
  readonly force = this.initData({
    name: 'force',
    type: RealArray(0, 'Deriv'),
    default: new Float64Array(0),
    unit: 'N',
    help: 'force applied to every index when forces is not given',
  });
  readonly totalForce = this.initData({
    name: 'totalForce',
    type: RealArray(0, 'Deriv'),
    default: new Float64Array(0),
    unit: 'N',
    help: 'total force, shared equally among the indices (when neither forces nor force is given)',
  });
  readonly showArrowSize = this.initData({
    name: 'showArrowSize',
    type: Real,
    default: 0,
    help: 'size of the drawn arrows (0: none)',
    group: 'Visualization',
    aliases: ['arrowSizeCoef'],
  });
  readonly showColor = this.initData({
    name: 'showColor',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(0.2, 0.9, 0.3, 1),
    help: 'color of the arrows',
    group: 'Visualization',
  });

  readonly topology = this.initLink({
    name: 'topology',
    help: 'link to the topology container (gives the number of points when indices are not given)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  /** Points receiving a force, (n). */
  private points = new Uint32Array(0);
  /** Their forces, (n × derivSize). */
  private values = new Float64Array(0);
  /** The state size the points were last checked against (−1: not yet). */
  private checkedSize = -1;
  /** Which Data gives the forces: the scene's choice at init, then the last one set (SOFA's callbacks). */
  private source: 'forces' | 'force' | 'totalForce' | 'none' = 'none';
  /** One tracker per input, to rebuild the forces at the next step when the API set one. */
  private tracked: { indices: DataTracker; forces: DataTracker; force: DataTracker; totalForce: DataTracker } | undefined;

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    this.source = this.forces.isSet ? 'forces' : this.force.isSet ? 'force' : this.totalForce.isSet ? 'totalForce' : 'none';
    this.tracked = {
      indices: new DataTracker(this.indices),
      forces: new DataTracker(this.forces),
      force: new DataTracker(this.force),
      totalForce: new DataTracker(this.totalForce),
    };
    this.build();
  }

  /**
   * Forces set between steps take effect at the next step, as SOFA's update callbacks do: setting
   * `forces` gives each index its force, `force` the same force to every index, `totalForce` a
   * share of it to every index; changed `indices` are re-read with the current source.
   */
  private refresh(): void {
    const t = this.tracked!;
    if (t.forces.isDirty()) this.source = 'forces';
    else if (t.force.isDirty()) this.source = 'force';
    else if (t.totalForce.isDirty()) this.source = 'totalForce';
    else if (!t.indices.isDirty()) return;
    this.build();
  }

  /** points and values from the indices and the current source; writes back the derived Data. */
  private build(): void {
    const s = this.states[0];
    const d = s.stateType.derivSize;
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    const systemSize = topo ? topo.getNbPoints() : s.size;
    let idx = this.indices.value;
    if (idx.length === 0) {
      idx = Uint32Array.from({ length: systemSize }, (_, i) => i);
      this.indices.value = idx;
    }
    // SOFA checks the indices against the topology's point count (a mapping may size the state after this init); addForce checks the state
    for (const i of idx)
      if (i >= systemSize)
        throw this.error(`index ${i} is out of range: ${topo ? topo.describe() : s.describe()} has ${systemSize} points`);
    this.checkedSize = -1;
    const n = idx.length;
    const checkDeriv = (name: string, v: Float64Array): void => {
      if (v.length !== d) throw this.error(`'${name}' must have ${d} numbers (one ${s.stateType.name} derivative), got ${v.length}`);
      if (v.some(Number.isNaN)) throw this.error(`'${name}' contains NaN`);
    };
    const values = new Float64Array(n * d);
    if (this.source === 'forces') {
      const fs = this.forces.value;
      if (fs.some(Number.isNaN)) throw this.error(`'forces' contains NaN`);
      // SOFA's updateFromForcesVector: a single Deriv is replicated on every index
      if (fs.length === d && n !== 1) {
        for (let i = 0; i < n; i++) values.set(fs, i * d);
        this.forces.value = Float64Array.from(values);
      } else if (fs.length !== n * d)
        throw this.error(`'forces' has ${fs.length / d} forces for ${n} indices: give one force (${d} numbers) per index`);
      else values.set(fs);
    } else {
      let single = new Float64Array(d);
      if (this.source === 'force') {
        checkDeriv('force', this.force.value);
        single = Float64Array.from(this.force.value);
      } else if (this.source === 'totalForce') {
        checkDeriv('totalForce', this.totalForce.value);
        if (n === 0) throw this.error('totalForce cannot be shared: there are no indices');
        for (let k = 0; k < d; k++) single[k] = this.totalForce.value[k] / n;
        this.force.value = single;
      }
      for (let i = 0; i < n; i++) values.set(single, i * d);
      this.forces.value = Float64Array.from(values);
    }
    // totalForce = Σ forces
    const total = new Float64Array(d);
    for (let i = 0; i < n; i++) for (let k = 0; k < d; k++) total[k] += values[i * d + k];
    if (this.source !== 'totalForce') this.totalForce.value = total;
    this.points = Uint32Array.from(idx);
    this.values = values;
    const t = this.tracked!;
    t.indices.clean();
    t.forces.clean();
    t.force.clean();
    t.totalForce.clean();
  }

  /** The state point index of entry i. */
  private pointOf(i: number, size: number): number {
    return this.indexFromEnd.value ? size - 1 - this.points[i] : this.points[i];
  }

  addForce(f: readonly Float64Array[], _x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    this.refresh();
    const s = this.states[0];
    const d = s.stateType.derivSize;
    const out = f[0];
    const n = out.length / d;
    if (n !== this.checkedSize) {
      for (let i = 0; i < this.points.length; i++) {
        const p = this.pointOf(i, n);
        if (p < 0 || p >= n) throw this.error(`index ${this.points[i]} is out of range: ${s.describe()} has ${n} points`);
      }
      this.checkedSize = n;
    }
    for (let i = 0; i < this.points.length; i++) {
      const p = this.pointOf(i, n) * d;
      for (let k = 0; k < d; k++) out[p + k] += this.values[i * d + k];
    }
  }

  /** A constant force has no stiffness. */
  addDForce(_df: readonly Float64Array[], _dx: readonly Float64Array[], _kFactor: number, _bFactor: number): void {}

  addKToMatrix(_acc: MatrixAccumulator, _kFactor: number): void {}

  override getPotentialEnergy(x: readonly Float64Array[]): number {
    const t = this.states[0].stateType;
    if (t.isRigid) return 0;
    const xs = x[0];
    const d = t.derivSize;
    const n = xs.length / t.coordSize;
    let e = 0;
    for (let i = 0; i < this.points.length; i++) {
      const p = this.pointOf(i, n);
      for (let k = 0; k < d; k++) e -= this.values[i * d + k] * xs[p * t.coordSize + k];
    }
    return e;
  }
}
