import { Bool, Indices, isTopology, RealArray, sofaComponent, type StateType, SingleStateProjectiveConstraint } from '@sofa-ts/core';
import { checkIndices } from './direction-projection.js';

/**
 * SOFA's LinearVelocityProjectiveConstraint: the listed points move with a velocity interpolated
 * linearly between key velocities V_k at key times t_k. With t_k ≤ t < t_{k+1} (t the context
 * time, the start of the step):
 *   v(t) = V_k + (V_{k+1} − V_k)·(t − t_k)/(t_{k+1} − t_k),
 *   v_i ← v(t),  dx_i ← 0,  x_i ← xP_i ⊕ v(t)·dt   (xP_i: the position set at the previous
 *   projection, starting from the position at the first one; ⊕ the template's increment, an
 *   exact rotation for a Rigid3d frame).
 * After the last key time the constraint stops, unless continueAfterEnd: then the last key
 * velocity goes on. With `coordinates`, only those components of the velocity are imposed (and
 * only those dofs move), the others are left free in v and x (SOFA still zeroes every dof of dx).
 * `indices` defaults to point 0, `keyTimes` to (0) and `velocities` to one zero velocity, as in SOFA.
 */
@sofaComponent({
  name: 'LinearVelocityProjectiveConstraint',
  aliases: ['LinearVelocityConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Impose a velocity interpolated between key times on given points.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d', 'Rigid3d'],
})
export class LinearVelocityProjectiveConstraint extends SingleStateProjectiveConstraint {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: Uint32Array.of(0),
    help: 'indices of the constrained points (default: point 0)',
  });
  readonly keyTimes = this.initData({
    name: 'keyTimes',
    type: RealArray(1),
    default: Float64Array.of(0),
    unit: 's',
    help: 'key times for the velocities, increasing',
  });
  readonly velocities = this.initData({
    name: 'velocities',
    type: RealArray(0, 'vector<Deriv>'),
    default: new Float64Array(0),
    help: 'velocities at the key times (one Deriv per key time; default: one zero velocity)',
  });
  readonly coordinates = this.initData({
    name: 'coordinates',
    type: Indices,
    default: new Uint32Array(0),
    help: 'components of the velocity to impose (default: all)',
  });
  readonly continueAfterEnd = this.initData({
    name: 'continueAfterEnd',
    type: Bool,
    default: false,
    help: 'if true, the last velocity is still applied after the last key time',
  });

  readonly topology = this.initLink({
    name: 'topology',
    help: 'link to the topology container (accepted)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  private type!: StateType;
  private points = new Uint32Array(0);
  /** Key velocities, (nKeys × d). */
  private keys = new Float64Array(0);
  /** The key times around the current time and their velocities (d each), as SOFA keeps them. */
  private prevT = 0;
  private nextT = 0;
  private prevV = new Float64Array(0);
  private nextV = new Float64Array(0);
  /** True once the time went past the last key time (kept until reset). */
  private finished = false;
  /** Imposed velocity at the current time, (d). */
  private vel = new Float64Array(0);
  /** Positions set at the last projection, (m × coordSize); undefined before the first one. */
  private xP: Float64Array | undefined = undefined;
  /** Scratch: one point's new coordinates, (coordSize). */
  private xi = new Float64Array(0);
  /** Checkpoint: the key times found so far, the end flag and the positions of the last projection. */
  readonly checkpointFields = ['prevT', 'nextT', 'prevV', 'nextV', 'finished', 'xP'] as const;

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name === 'Rigid2d')
      throw this.error('SOFA has no Rigid2d LinearVelocityProjectiveConstraint', 'use Rigid3d, or Vec templates');
    this.type = s.stateType;
    const d = s.stateType.derivSize;
    const t = this.keyTimes.value;
    let keys = this.velocities.value;
    if (!this.velocities.isSet && keys.length === 0) keys = new Float64Array(d);
    if (keys.length !== t.length * d)
      throw this.error(`'velocities' needs ${d} numbers per key time (${t.length} key times), got ${keys.length} numbers`);
    if (t.length === 0) throw this.error(`'keyTimes' is empty`, 'give at least one key time');
    for (let k = 1; k < t.length; k++) if (!(t[k] > t[k - 1])) throw this.error(`'keyTimes' must increase, got ${t[k - 1]} then ${t[k]}`);
    for (const c of this.coordinates.value) {
      if (c >= d) throw this.error(`coordinate ${c} is out of range: a ${s.stateType.name} velocity has ${d} components`);
      if (s.stateType.isRigid)
        throw this.error(`'coordinates' is not supported on ${s.stateType.name} (SOFA mixes coordinate and velocity components there)`);
    }
    checkIndices(this.indices.value, s.size, s.describe(), (m) => this.error(m));
    this.points = Uint32Array.from(new Set(this.indices.value));
    this.keys = Float64Array.from(keys);
    this.prevV = new Float64Array(d);
    this.nextV = new Float64Array(d);
    this.vel = new Float64Array(d);
    this.xi = new Float64Array(s.stateType.coordSize);
    this.reset();
  }

  override reset(): void {
    this.prevT = this.nextT = 0;
    this.prevV.fill(0);
    this.nextV.fill(0);
    this.finished = false;
    this.xP = undefined;
  }

  /**
   * SOFA's findKeyTimes: the key times around the current time; true when the time is past the
   * last key time (the velocity then stays the last one found).
   */
  private findKeyTimes(): boolean {
    const t = this.keyTimes.value,
      d = this.type.derivSize;
    const time = this.context.getTime();
    if (time > t[t.length - 1]) {
      this.prevV.set(this.nextV);
      this.nextT = Infinity;
      return true;
    }
    if (time >= t[0]) {
      this.nextT = this.prevT = t[0];
      for (let k = 0; k < t.length; k++) {
        const key = this.keys.subarray(k * d, k * d + d);
        if (t[k] <= time) {
          this.prevT = t[k];
          this.prevV.set(key);
        } else {
          this.nextT = t[k];
          this.nextV.set(key);
          return false;
        }
      }
    }
    return false;
  }

  /** Updates the key times and the imposed velocity; false when the constraint does not act now. */
  private update(): boolean {
    if (!this.finished) this.finished = this.findKeyTimes();
    if (!((!this.finished || this.continueAfterEnd.value) && this.nextT !== this.prevT)) return false;
    const d = this.type.derivSize;
    if (this.finished) this.vel.set(this.prevV);
    else {
      // v = V_prev + (V_next − V_prev)·(t − t_prev)/(t_next − t_prev)
      const a = (this.context.getTime() - this.prevT) / (this.nextT - this.prevT);
      for (let c = 0; c < d; c++) this.vel[c] = this.prevV[c] + (this.nextV[c] - this.prevV[c]) * a;
    }
    return true;
  }

  projectResponse(dx: Float64Array): void {
    if (!this.update()) return;
    const d = this.type.derivSize;
    for (const p of this.points) dx.fill(0, p * d, p * d + d);
  }

  projectVelocity(v: Float64Array): void {
    if (!this.update()) return;
    const d = this.type.derivSize;
    const coords = this.coordinates.value;
    for (const p of this.points) {
      if (coords.length === 0) v.set(this.vel, p * d);
      else for (const c of coords) v[p * d + c] = this.vel[c];
    }
  }

  projectPosition(x: Float64Array): void {
    const cs = this.type.coordSize;
    if (this.xP === undefined) {
      this.xP = new Float64Array(this.points.length * cs);
      this.points.forEach((p, j) => this.xP!.set(x.subarray(p * cs, p * cs + cs), j * cs));
    }
    if (!this.update()) return;
    const dt = this.context.getDt();
    const coords = this.coordinates.value;
    const xP = this.xP;
    this.points.forEach((p, j) => {
      const prev = xP.subarray(j * cs, j * cs + cs);
      if (coords.length === 0) {
        // x_i = xP_i ⊕ v·dt
        this.type.addDerivToCoord(this.xi, prev, this.vel, dt, 1);
        x.set(this.xi, p * cs);
      } else {
        for (const c of coords) x[p * cs + c] = prev[c] + this.vel[c] * dt;
      }
      prev.set(x.subarray(p * cs, p * cs + cs));
    });
  }

  /** SOFA clears the rows and columns of the points while the constraint acts. */
  projectedDofs(out: number[]): void {
    if (!this.update()) return;
    const d = this.type.derivSize;
    for (const p of this.points) for (let k = 0; k < d; k++) out.push(p * d + k);
  }
}
