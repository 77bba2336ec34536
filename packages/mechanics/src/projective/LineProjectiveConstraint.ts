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
 * SOFA's LineProjectiveConstraint: the listed points slide on the line through `origin` along
 * `direction` (normalised at init; a zero direction becomes (1, 0, 0) as in SOFA).
 *   dx_i ← n·(n·dx_i),  v_i ← n·(n·v_i),  x_i ← o + n·((x_i − o)·n)
 * `indices` defaults to point 0, as in SOFA.
 */
@sofaComponent({
  name: 'LineProjectiveConstraint',
  aliases: ['ProjectToLineConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Project particles to a line.',
  templates: ['Vec3d', 'Vec2d'],
})
export class LineProjectiveConstraint extends SingleStateProjectiveConstraint {
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
    help: 'a point of the line (default: the origin)',
  });
  readonly direction = this.initData({
    name: 'direction',
    type: RealArray(0, 'CPos'),
    default: new Float64Array(0),
    help: 'direction of the line (normalised at init)',
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
  /** A point of the line, (N). */
  private o = new Float64Array(3);

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.isRigid) throw this.error(`SOFA has no ${s.stateType.name} LineProjectiveConstraint`, 'use Vec3d or Vec2d');
    const N = s.stateType.derivSize;
    checkIndices(this.indices.value, s.size, s.describe(), (m) => this.error(m));
    this.o = vectorOf(this, this.origin.value, N, 'origin');
    let n = vectorOf(this, this.direction.value, N, 'direction');
    const norm = Math.hypot(...n);
    if (norm === 0) n[0] = 1;
    else n = n.map((v) => v / norm);
    this.direction.value = Float64Array.from(n);
    this.proj.set(this.indices.value, n, s.stateType.derivSize); // point removals: the points follow
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

  /** x_i ← o + n·((x_i − o)·n). */
  projectPosition(x: Float64Array): void {
    const n = this.proj.n,
      o = this.o,
      N = n.length;
    for (const p of this.proj.points) {
      let dot = 0;
      for (let k = 0; k < N; k++) dot += (x[p * N + k] - o[k]) * n[k];
      for (let k = 0; k < N; k++) x[p * N + k] = o[k] + dot * n[k];
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
