import {
  Indices,
  isTopology,
  Real,
  RealArray,
  sofaComponent,
  type MatrixAccumulator,
  SingleStateProjectiveConstraint,
} from '@sofa-ts/core';
import { checkIndices, DirectionProjection, vectorOf } from './direction-projection.js';
import { constraintTopology, followConstrainedPoints } from './follow-points.js';

/**
 * SOFA's PlaneProjectiveConstraint: the listed points slide in the plane through `origin` with
 * normal `normal` (normalised at init).
 *   dx_i ← dx_i − n·(n·dx_i),  v_i likewise,  x_i ← x_i − n·((x_i − o)·n)
 * `indices` defaults to point 0, as in SOFA. SOFA keeps a zero normal (every point is then free);
 * sofa-ts refuses it.
 */
@sofaComponent({
  name: 'PlaneProjectiveConstraint',
  aliases: ['ProjectToPlaneConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Project particles to a plane.',
  templates: ['Vec3d', 'Vec2d'],
})
export class PlaneProjectiveConstraint extends SingleStateProjectiveConstraint {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: Uint32Array.of(0),
    help: 'indices of the constrained points (default: point 0)',
  });
  readonly origin = this.initData({
    name: 'origin',
    type: RealArray(0, 'CPos'),
    default: new Float64Array(0),
    unit: 'm',
    help: 'a point of the plane (default: the origin)',
  });
  readonly normal = this.initData({
    name: 'normal',
    type: RealArray(0, 'CPos'),
    default: new Float64Array(0),
    help: 'normal of the plane (normalised at init)',
  });
  readonly drawSize = this.initData({
    name: 'drawSize',
    type: Real,
    default: 0,
    help: '0 -> point based rendering, >0 -> radius of spheres',
    group: 'Visualization',
  });

  readonly topology = this.initLink({
    name: 'topology',
    help: 'link to the topology container (accepted)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  private readonly proj = new DirectionProjection('plane');
  /** A point of the plane, (N). */
  private o = new Float64Array(3);

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.isRigid) throw this.error(`SOFA has no ${s.stateType.name} PlaneProjectiveConstraint`, 'use Vec3d or Vec2d');
    const N = s.stateType.derivSize;
    checkIndices(this.indices.value, s.size, s.describe(), (m) => this.error(m));
    this.o = vectorOf(this, this.origin.value, N, 'origin');
    const n = vectorOf(this, this.normal.value, N, 'normal');
    const norm = Math.hypot(...n);
    if (norm === 0) throw this.error(`'normal' is zero or not given`, 'give the normal of the plane, e.g. normal="1 0 0"');
    for (let k = 0; k < N; k++) n[k] /= norm;
    this.normal.value = Float64Array.from(n);
    this.proj.set(this.indices.value, n, N); // point removals: the points follow
    followConstrainedPoints(
      constraintTopology(this, this.topology),
      () => this.proj.points,
      (points) => {
        this.proj.points = points;
        this.indices.value = points;
      },
    );
  }

  projectResponse(dx: Float64Array): void {
    this.proj.project(dx);
  }

  projectVelocity(v: Float64Array): void {
    this.proj.project(v);
  }

  /** x_i ← x_i − n·((x_i − o)·n). */
  projectPosition(x: Float64Array): void {
    const n = this.proj.n,
      o = this.o,
      N = n.length;
    for (const p of this.proj.points) {
      let dot = 0;
      for (let k = 0; k < N; k++) dot += (x[p * N + k] - o[k]) * n[k];
      for (let k = 0; k < N; k++) x[p * N + k] -= dot * n[k];
    }
  }

  override get isDiagonalProjection(): boolean {
    return this.proj.isDiagonal;
  }

  projectedDofs(out: number[]): void {
    this.proj.projectedDofs(out);
  }

  override addProjectionToMatrix(acc: MatrixAccumulator): void {
    this.proj.addToMatrix(acc);
  }
}
