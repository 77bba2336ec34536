import { BaseProjectiveConstraint, Real, RealArray, positive, sofaComponent, type BaseMechanicalState } from '@sofa-ts/core';
import { mstateLink } from '../state-link.js';

/**
 * SOFA's PositionBasedDynamicsProjectiveConstraint: after each step's solve, the positions move
 * toward target positions (typically a ShapeMatching's targetPosition) and the velocities become
 * the motion since the last projection:
 *   x ← x + s·(x_target − x),   v = (x − x_old)/dt,   x_old ← x,
 * s the stiffness (1: onto the targets). The first projection starts from x_old = the positions
 * it is given (so its velocity is the correction alone, as SOFA's). The response is not projected
 * (dx is left as it is) and no dof is removed from the assembled system, as in SOFA.
 */
@sofaComponent({
  name: 'PositionBasedDynamicsProjectiveConstraint',
  aliases: ['PositionBasedDynamicsConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Position-based dynamics: positions blended toward target positions after each step, velocities from the resulting motion.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d'],
})
export class PositionBasedDynamicsProjectiveConstraint extends BaseProjectiveConstraint {
  readonly stiffness = this.initData({
    name: 'stiffness',
    type: Real,
    default: 1,
    range: positive,
    help: 'blending between the current positions (0) and the target positions (1)',
  });
  readonly position = this.initData({
    name: 'position',
    type: RealArray(0, 'vector<Coord>'),
    default: new Float64Array(0),
    help: 'target positions',
  });

  readonly mstate = this.initLink(mstateLink());

  /** Checkpoint: the velocities and positions of the last projection. */
  readonly checkpointFields = ['vel', 'old'] as const;
  /** SOFA's velocity and old_position Data, kept internal: the velocities and positions of the last projection. */
  private vel = new Float64Array(0);
  private old = new Float64Array(0);

  getMechanicalState(): BaseMechanicalState {
    return this.mstate.require();
  }

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.isRigid)
      throw this.error(
        `${s.stateType.name} states are not supported (SOFA's Rigid3d variant slerps the orientations; sofa-ts has the Vec templates)`,
      );
    const n = this.position.value.length / s.stateType.coordSize;
    if (n !== s.size) throw this.error(`'position' has ${n} target positions for the ${s.size} points of ${s.describe()}`);
  }

  override reset(): void {
    super.reset();
    this.vel.fill(0);
    this.old = Float64Array.from(this.getMechanicalState().x);
  }

  /** The response is left free, as SOFA's (the targets act through projectPosition only). */
  projectResponse(_dx: Float64Array): void {}

  /** v = the velocity of the last projection. */
  projectVelocity(v: Float64Array): void {
    if (this.vel.length !== v.length)
      throw this.error(
        `the velocities (${this.vel.length / this.getMechanicalState().stateType.derivSize} points) do not match the state's ${v.length} numbers: no projection of the positions ran yet`,
      );
    v.set(this.vel);
  }

  /** x ← x + s·(target − x), v = (x − x_old)/dt, x_old ← x. */
  projectPosition(x: Float64Array): void {
    const target = this.position.value;
    if (target.length !== x.length)
      throw this.error(`'position' has ${target.length} numbers for the state's ${x.length}: the targets must give one position per point`);
    const dt = this.context.getDt();
    if (!dt) return;
    if (this.vel.length !== x.length) this.vel = new Float64Array(x.length);
    if (this.old.length !== x.length) this.old = Float64Array.from(x);
    const s = this.stiffness.value,
      inv = 1 / dt,
      vel = this.vel,
      old = this.old;
    for (let i = 0; i < x.length; i++) {
      x[i] += (target[i] - x[i]) * s;
      vel[i] = (x[i] - old[i]) * inv;
      old[i] = x[i];
    }
  }

  projectedDofs(_out: number[]): void {}
}
