import { Bool, Indices, isTopology, Real, RealArray, sofaComponent, SingleStateProjectiveConstraint } from '@sofa-ts/core';
import { checkIndices, vectorOf } from './direction-projection.js';
import { constraintTopology, followConstrainedPoints } from './follow-points.js';

/**
 * SOFA's PointProjectiveConstraint: the listed points (all of them with fixAll) are held at
 * `point`:  dx_i ← 0,  v_i ← 0,  x_i ← point.  `indices` defaults to point 0, as in SOFA.
 */
@sofaComponent({
  name: 'PointProjectiveConstraint',
  aliases: ['ProjectToPointConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Project particles to a point.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d'],
})
export class PointProjectiveConstraint extends SingleStateProjectiveConstraint {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: Uint32Array.of(0),
    help: 'indices of the points to project (default: point 0)',
  });
  readonly point = this.initData({
    name: 'point',
    type: RealArray(0, 'Coord'),
    default: new Float64Array(0),
    unit: 'm',
    help: 'target of the projection (default: the origin)',
  });
  readonly fixAll = this.initData({ name: 'fixAll', type: Bool, default: false, help: 'filter all the DOF to implement a fixed object' });
  readonly drawSize = this.initData({
    name: 'drawSize',
    type: Real,
    default: 0,
    help: 'size of the rendered particles (0 -> point based rendering, >0 -> radius of spheres)',
    group: 'Visualization',
  });

  readonly topology = this.initLink({
    name: 'topology',
    help: 'link to the topology container (accepted)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  /** The projected points (all of them with fixAll), (m). */
  private points = new Uint32Array(0);
  /** The target, (d). */
  private target = new Float64Array(3);
  private d = 3;

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.isRigid) throw this.error(`SOFA has no ${s.stateType.name} PointProjectiveConstraint`, 'use a Vec template');
    this.d = s.stateType.derivSize;
    this.target = vectorOf(this, this.point.value, this.d, 'point');
    if (this.fixAll.value) this.points = Uint32Array.from({ length: s.size }, (_, i) => i);
    else {
      checkIndices(this.indices.value, s.size, s.describe(), (m) => this.error(m));
      this.points = Uint32Array.from(new Set(this.indices.value));
    }
    // point removals: the points follow
    followConstrainedPoints(
      constraintTopology(this, this.topology),
      () => this.points,
      (points) => {
        this.points = points;
        if (!this.fixAll.value) this.indices.value = points;
      },
    );
  }

  private zero(vec: Float64Array): void {
    const d = this.d;
    // a loop of stores: a fill call per point costs more than the point (the corrections zero W's rows one by one)
    const pts = this.points;
    for (let i = 0; i < pts.length; i++) for (let o = pts[i] * d, end = o + d; o < end; o++) vec[o] = 0;
  }

  projectResponse(dx: Float64Array): void {
    this.zero(dx);
  }

  projectVelocity(v: Float64Array): void {
    this.zero(v);
  }

  projectPosition(x: Float64Array): void {
    for (const p of this.points) x.set(this.target, p * this.d);
  }

  projectedDofs(out: number[]): void {
    const d = this.d;
    for (const p of this.points) for (let k = 0; k < d; k++) out.push(p * d + k);
  }
}
