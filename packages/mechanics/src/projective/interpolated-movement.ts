import { Bool, Indices, isTopology, Real, SingleStateProjectiveConstraint } from '@sofa-ts/core';
import { checkIndices } from './direction-projection.js';
import { constraintTopology, followConstrainedPoints, pickRows } from './follow-points.js';

/**
 * The motion shared by SOFA's AffineMovement- and PatchTestMovementProjectiveConstraint: the
 * points of `indices` go linearly in time from their positions x0 at the first projection to
 * final positions xf (given by the subclass) between beginConstraintTime (t_b) and
 * endConstraintTime (t_e), at the root time t:
 *   t_b < t ≤ t_e:  x = x0 + (xf − x0)·(t − t_b)/(t_e − t_b);   t > t_e:  x = xf;
 * their velocities and responses are zeroed (SOFA's choice: the motion is imposed on positions only).
 */
export abstract class InterpolatedMovementConstraint extends SingleStateProjectiveConstraint {
  readonly meshIndices = this.initData({ name: 'meshIndices', type: Indices, default: new Uint32Array(0), help: 'indices of the mesh' });
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the constrained points',
  });
  readonly beginConstraintTime = this.initData({
    name: 'beginConstraintTime',
    type: Real,
    default: 0,
    unit: 's',
    help: 'begin time of the constraint',
  });
  readonly endConstraintTime = this.initData({
    name: 'endConstraintTime',
    type: Real,
    default: 20,
    unit: 's',
    help: 'end time of the constraint',
  });
  readonly drawConstrainedPoints = this.initData({
    name: 'drawConstrainedPoints',
    type: Bool,
    default: false,
    help: 'draw constrained points',
    group: 'Visualization',
  });

  readonly topology = this.initLink({
    name: 'topology',
    help: 'link to the topology container (accepted)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  protected points = new Uint32Array(0);
  /** Start and final positions of the points, (m × 3), set at the first projection. */
  protected x0: Float64Array | undefined = undefined;
  protected xf = new Float64Array(0);
  /** Checkpoint: the start and final positions taken at the first projection. */
  readonly checkpointFields = ['x0', 'xf'] as const;

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name !== 'Vec3d') throw this.error(`${this.className} needs a Vec3d state, ${s.describe()} is ${s.stateType.name}`);
    checkIndices(this.indices.value, s.size, s.describe(), (m) => this.error(m));
    checkIndices(this.meshIndices.value, s.size, s.describe(), (m) => this.error(m));
    this.points = Uint32Array.from(new Set(this.indices.value));
    this.x0 = undefined;
    // point removals: the points (and their start and final positions) follow
    followConstrainedPoints(
      constraintTopology(this, this.topology),
      () => this.points,
      (points, from) => {
        if (this.x0) {
          this.x0 = pickRows(this.x0, from, 3);
          this.xf = pickRows(this.xf, from, 3);
        }
        this.points = points;
        this.indices.value = points;
      },
    );
  }

  override reset(): void {
    this.x0 = undefined;
  }

  /** xf (m × 3) of the points from their start positions x0 (m × 3). */
  protected abstract finalPositions(xf: Float64Array, x0: Float64Array): void;

  projectResponse(dx: Float64Array): void {
    for (const p of this.points) dx.fill(0, 3 * p, 3 * p + 3);
  }

  projectVelocity(v: Float64Array): void {
    this.projectResponse(v);
  }

  projectPosition(x: Float64Array): void {
    const m = this.points.length;
    if (!this.x0) {
      this.x0 = new Float64Array(3 * m);
      this.points.forEach((p, j) => this.x0!.set(x.subarray(3 * p, 3 * p + 3), 3 * j));
      this.xf = new Float64Array(3 * m);
      this.finalPositions(this.xf, this.x0);
    }
    const tb = this.beginConstraintTime.value,
      te = this.endConstraintTime.value;
    const t = this.context.root.getTime();
    if (t > tb && t <= te && te > tb) {
      const a = (t - tb) / (te - tb);
      for (let k = 0; k < 3 * m; k++) x[3 * this.points[Math.floor(k / 3)] + (k % 3)] = this.x0[k] + (this.xf[k] - this.x0[k]) * a;
    } else if (t > te) {
      for (let k = 0; k < 3 * m; k++) x[3 * this.points[Math.floor(k / 3)] + (k % 3)] = this.xf[k];
    }
  }

  projectedDofs(out: number[]): void {
    for (const p of this.points) out.push(3 * p, 3 * p + 1, 3 * p + 2);
  }
}
