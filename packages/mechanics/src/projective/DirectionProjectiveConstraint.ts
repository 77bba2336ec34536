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
import { constraintTopology, followConstrainedPoints, pickRows } from './follow-points.js';

/**
 * SOFA's DirectionProjectiveConstraint: each listed point moves only along `direction` (normalised
 * at init), on the line through its position at init o_i:
 *   dx_i ← n·(n·dx_i),  v_i likewise,  x_i ← o_i + n·((x_i − o_i)·n)
 * `indices` defaults to point 0, as in SOFA. SOFA keeps a zero direction (the points are then
 * fixed); sofa-ts refuses it.
 */
@sofaComponent({
  name: 'DirectionProjectiveConstraint',
  aliases: ['ProjectDirectionConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Project particles to a line of given direction through their initial position.',
  templates: ['Vec3d', 'Vec2d'],
})
export class DirectionProjectiveConstraint extends SingleStateProjectiveConstraint {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: Uint32Array.of(0),
    help: 'indices of the constrained points (default: point 0)',
  });
  readonly direction = this.initData({
    name: 'direction',
    type: RealArray(0, 'CPos'),
    default: new Float64Array(0),
    help: 'direction of the motion (normalised at init)',
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

  private readonly proj = new DirectionProjection('line');
  /** Positions of the points at init, (m × N), in the order of proj.points. */
  private origins = new Float64Array(0);

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.isRigid) throw this.error(`SOFA has no ${s.stateType.name} DirectionProjectiveConstraint`, 'use Vec3d or Vec2d');
    const N = s.stateType.derivSize;
    checkIndices(this.indices.value, s.size, s.describe(), (m) => this.error(m));
    const n = vectorOf(this, this.direction.value, N, 'direction');
    const norm = Math.hypot(...n);
    if (norm === 0) throw this.error(`'direction' is zero or not given`, 'give the direction of the motion, e.g. direction="0 1 0"');
    for (let k = 0; k < N; k++) n[k] /= norm;
    this.direction.value = Float64Array.from(n);
    this.proj.set(this.indices.value, n, N);
    const x = s.x;
    this.origins = new Float64Array(this.proj.points.length * N);
    this.proj.points.forEach((p, j) => this.origins.set(x.subarray(p * N, p * N + N), j * N));
    // point removals: the points (and their origins) follow
    followConstrainedPoints(
      constraintTopology(this, this.topology),
      () => this.proj.points,
      (points, from) => {
        this.origins = pickRows(this.origins, from, N);
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

  /** x_i ← o_i + n·((x_i − o_i)·n). */
  projectPosition(x: Float64Array): void {
    const n = this.proj.n,
      N = n.length,
      o = this.origins;
    this.proj.points.forEach((p, j) => {
      let dot = 0;
      for (let k = 0; k < N; k++) dot += (x[p * N + k] - o[j * N + k]) * n[k];
      for (let k = 0; k < N; k++) x[p * N + k] = o[j * N + k] + dot * n[k];
    });
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
