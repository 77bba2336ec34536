import {
  Bool,
  Indices,
  Real,
  contextMeshTopology,
  followPointIndices,
  sofaComponent,
  type DataType,
  SingleStateProjectiveConstraint,
} from '@sofa-ts/core';

/** A list of booleans written 0/1 or true/false. */
const BoolList: DataType<Uint8Array> = {
  name: 'vector<bool>',
  parse: (t) => Uint8Array.from(Indices.parse(t.replace(/\btrue\b/gi, '1').replace(/\bfalse\b/gi, '0')), (x) => (x ? 1 : 0)),
  print: (v) => Array.from(v, String).join(' '),
  clone: (v) => Uint8Array.from(v),
};

/**
 * SOFA's PartialFixedProjectiveConstraint (alias PartialFixedConstraint): the listed points (all
 * of them with fixAll) keep their position along the fixed directions only. P zeroes, for each
 * such point, the derivative components c with fixedDirections[c] = 1 (default: all):
 *   (P·dx)_{i,c} = 0 if fixed, dx_{i,c} otherwise   (a diagonal projection, P·P = P).
 * Velocities are projected only with projectVelocity, positions never (as in SOFA).
 */
@sofaComponent({
  name: 'PartialFixedProjectiveConstraint',
  aliases: ['PartialFixedConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Fix given points along some directions only.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d', 'Rigid3d', 'Rigid2d'],
})
export class PartialFixedProjectiveConstraint extends SingleStateProjectiveConstraint {
  readonly indices = this.initData({ name: 'indices', type: Indices, default: new Uint32Array(0), help: 'indices of the fixed points' });
  readonly fixAll = this.initData({ name: 'fixAll', type: Bool, default: false, help: 'fix every point of the state' });
  readonly showObject = this.initData({
    name: 'showObject',
    type: Bool,
    default: true,
    help: 'draw the fixed points',
    group: 'Visualization',
  });
  readonly drawSize = this.initData({
    name: 'drawSize',
    type: Real,
    default: 0,
    help: '0: point based rendering, > 0: radius of spheres',
    group: 'Visualization',
  });
  readonly activateProjectVelocity = this.initData({
    name: 'activate_projectVelocity',
    type: Bool,
    default: false,
    help: 'inherited from FixedProjectiveConstraint; projectVelocity decides here',
  });
  readonly fixedDirections = this.initData({
    name: 'fixedDirections',
    type: BoolList,
    default: Uint8Array.of(1, 1, 1, 1, 1, 1),
    help: 'per derivative component: 1 fixed, 0 free (default: all fixed)',
  });
  readonly projectVelocityData = this.initData({
    name: 'projectVelocity',
    type: Bool,
    default: false,
    help: 'also zero the velocity along the fixed directions',
  });

  /** Fixed points, (n). */
  private points = new Uint32Array(0);
  /** Fixed components of a point, (derivSize) of 0/1. */
  private fixed = new Uint8Array(0);

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    const d = s.stateType.derivSize;
    const dirs = this.fixedDirections.value;
    if (this.fixedDirections.isSet && dirs.length !== d)
      throw this.error(`'fixedDirections' needs ${d} values (one per derivative component of ${s.stateType.name}), got ${dirs.length}`);
    this.fixed = Uint8Array.from({ length: d }, (_, k) => (k < dirs.length ? dirs[k] : 1));
    const n = s.size;
    if (this.fixAll.value) this.points = Uint32Array.from({ length: n }, (_, i) => i);
    else {
      for (const i of this.indices.value) if (i >= n) throw this.error(`index ${i} is out of range: ${s.describe()} has ${n} points`);
      this.points = Uint32Array.from(this.indices.value);
      followPointIndices(contextMeshTopology(this.context), this.indices, (l) => (this.points = Uint32Array.from(l)));
    }
  }

  private clear(vec: Float64Array): void {
    const d = this.fixed.length;
    for (const p of this.points) for (let k = 0; k < d; k++) if (this.fixed[k]) vec[p * d + k] = 0;
  }

  projectResponse(dx: Float64Array): void {
    this.clear(dx);
  }

  projectVelocity(v: Float64Array): void {
    if (this.projectVelocityData.value) this.clear(v);
  }

  projectPosition(_x: Float64Array): void {}

  projectedDofs(out: number[]): void {
    const d = this.fixed.length;
    for (const p of this.points) for (let k = 0; k < d; k++) if (this.fixed[k]) out.push(p * d + k);
  }
}
