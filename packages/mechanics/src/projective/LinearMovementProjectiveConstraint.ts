import {
  Bool,
  Indices,
  RealArray,
  isTopology,
  sofaComponent,
  type CheckpointReader,
  type CheckpointRecord,
  SingleStateProjectiveConstraint,
} from '@sofa-ts/core';
import { constraintTopology, followConstrainedPoints, pickRows } from './follow-points.js';
import { quatFromEulerAt } from '@sofa-ts/linalg';
import { quatMultiply, quatSlerp2 } from '../rotation.js';

/**
 * SOFA's LinearMovementProjectiveConstraint (alias LinearMovementConstraint): the listed points
 * follow a piecewise linear motion given by key times t_0 < t_1 < … and key movements m_k.
 * At the context time t with t_k ≤ t < t_{k+1}:
 *   m(t) = m_k + (m_{k+1} − m_k)·(t − t_k)/(t_{k+1} − t_k),
 *   x_i = x0_i + m(t) (relativeMovements, x0 = positions at the first projection) or x_i = m(t),
 *   v_i = (m_{k+1} − m_k)/(t_{k+1} − t_k),  dx_i ← 0.
 * Outside [t_0, t_last) nothing is projected (as in SOFA: after the last key time the points are
 * free again). SOFA reads the context time, i.e. the start of the step when positions are projected
 * at the end of a step; sofa-ts does the same. `indices` defaults to point 0, as in SOFA.
 * Rigid3d (SOFA's rigid specialisation): a movement is (translation, Euler angles in radians);
 * the centre moves as above and the orientation turns by the slerp (SOFA's slerp2) between the
 * key rotations R_k = euler(m_k):   q_i = q0_i ⊗ slerp(R_k, R_{k+1}, α)   (q_i = slerp(…) when
 * absolute), α = (t − t_k)/(t_{k+1} − t_k); the velocity is the slope of the 6 numbers, the
 * angular part being the rate of the Euler angles (as SOFA sets it).
 */
@sofaComponent({
  name: 'LinearMovementProjectiveConstraint',
  aliases: ['LinearMovementConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Impose a piecewise linear motion (key times and movements) on given points.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d', 'Rigid3d'],
})
export class LinearMovementProjectiveConstraint extends SingleStateProjectiveConstraint {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: Uint32Array.of(0),
    help: 'indices of the points that follow the motion (default: point 0)',
  });
  readonly keyTimes = this.initData({
    name: 'keyTimes',
    type: RealArray(1),
    default: new Float64Array(0),
    unit: 's',
    help: 'key times, increasing',
  });
  readonly movements = this.initData({
    name: 'movements',
    type: RealArray(0, 'vector<Deriv>'),
    default: new Float64Array(0),
    help: 'one movement (a Deriv) per key time',
  });
  readonly relativeMovements = this.initData({
    name: 'relativeMovements',
    type: Bool,
    default: true,
    help: 'movements are displacements from the initial positions (else absolute positions)',
  });
  readonly showMovement = this.initData({
    name: 'showMovement',
    type: Bool,
    default: false,
    help: 'draw the path of the points',
    group: 'Visualization',
  });

  readonly topology = this.initLink({
    name: 'topology',
    help: 'link to the topology container (accepted)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  private points = new Uint32Array(0);
  private d = 3;
  /** Positions of the points at the first projection, (points·d). */
  private x0: Float64Array | undefined;
  /** Current movement and velocity, (d). */
  private m = new Float64Array(3);
  private vel = new Float64Array(3);
  /** Rigid3d: frames, positions stored as coordinates (7 per point). */
  private rigid = false;
  /** Rigid3d: the key rotations around the current time and their slerp, (4) each. */
  private readonly qPrev = new Float64Array(4);
  private readonly qNext = new Float64Array(4);
  private readonly qm = new Float64Array(4);

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name === 'Rigid2d')
      throw this.error('SOFA has no Rigid2d LinearMovementProjectiveConstraint', 'use Rigid3d, or Vec templates');
    this.rigid = s.stateType.name === 'Rigid3d';
    this.d = s.stateType.derivSize;
    const t = this.keyTimes.value;
    const mv = this.movements.value;
    if (mv.length < t.length * this.d)
      throw this.error(`'movements' needs ${this.d} numbers per key time (${t.length} key times), got ${mv.length} numbers`);
    // SOFA reads the movement of key time k at index k: extra movements are never used
    if (mv.length > t.length * this.d)
      this.warn(
        `'movements' gives ${mv.length / this.d} movements of ${this.d} numbers for ${t.length} key times: the first ${t.length} are used, as SOFA does`,
      );
    for (let k = 1; k < t.length; k++) if (!(t[k] > t[k - 1])) throw this.error(`'keyTimes' must increase, got ${t[k - 1]} then ${t[k]}`);
    for (const i of this.indices.value)
      if (i >= s.size) throw this.error(`index ${i} is out of range: ${s.describe()} has ${s.size} points`);
    this.points = Uint32Array.from(new Set(this.indices.value));
    // the points follow the point removals of the node's topology (SOFA's TopologySubsetIndices)
    // point removals: the points (and their positions at the first projection) follow
    followConstrainedPoints(
      constraintTopology(this, this.topology),
      () => this.points,
      (points, from) => {
        if (this.x0 && this.points.length > 0) this.x0 = pickRows(this.x0, from, this.x0.length / this.points.length);
        this.points = points;
        this.indices.value = points;
      },
    );
    this.m = new Float64Array(this.d);
    this.vel = new Float64Array(this.d);
    this.x0 = undefined;
  }

  override reset(): void {
    this.x0 = undefined;
  }

  /** Checkpoint: the positions taken at the first projection (null before it). */
  checkpointState(): CheckpointRecord {
    return { x0: this.x0 ?? null };
  }

  restoreState(saved: CheckpointReader): void {
    this.x0 = saved.record['x0'] === null ? undefined : saved.array('x0', Float64Array).slice();
  }

  /** Interval k with t_k ≤ time < t_{k+1}; −1 outside. Fills m and vel. */
  private locate(): number {
    const t = this.keyTimes.value;
    const time = this.context.getTime();
    if (t.length < 2 || time < t[0] || time >= t[t.length - 1]) return -1;
    let k = 0;
    while (t[k + 1] <= time) k++;
    const mv = this.movements.value;
    const d = this.d;
    const span = t[k + 1] - t[k];
    const a = (time - t[k]) / span;
    for (let c = 0; c < d; c++) {
      const m0 = mv[k * d + c];
      const m1 = mv[(k + 1) * d + c];
      this.m[c] = m0 + (m1 - m0) * a;
      this.vel[c] = (m1 - m0) / span;
    }
    if (this.rigid) {
      const p = k * 6,
        q = (k + 1) * 6;
      quatFromEulerAt(this.qPrev, 0, mv[p + 3], mv[p + 4], mv[p + 5]);
      quatFromEulerAt(this.qNext, 0, mv[q + 3], mv[q + 4], mv[q + 5]);
      quatSlerp2(this.qm, this.qPrev, this.qNext, a);
    }
    return k;
  }

  projectResponse(dx: Float64Array): void {
    if (this.locate() < 0) return;
    const d = this.d;
    for (const p of this.points) for (let c = 0; c < d; c++) dx[p * d + c] = 0;
  }

  projectVelocity(v: Float64Array): void {
    if (this.locate() < 0) return;
    const d = this.d;
    for (const p of this.points) for (let c = 0; c < d; c++) v[p * d + c] = this.vel[c];
  }

  projectPosition(x: Float64Array): void {
    const c = this.rigid ? 7 : this.d;
    if (this.x0 === undefined) {
      this.x0 = new Float64Array(this.points.length * c);
      this.points.forEach((p, j) => {
        for (let k = 0; k < c; k++) this.x0![j * c + k] = x[p * c + k];
      });
    }
    if (this.locate() < 0) return;
    const rel = this.relativeMovements.value;
    if (this.rigid) {
      // centre: c0 + m (or m); orientation: q0 ⊗ slerp (or the slerp)
      this.points.forEach((p, j) => {
        for (let k = 0; k < 3; k++) x[p * 7 + k] = (rel ? this.x0![j * 7 + k] : 0) + this.m[k];
        if (rel) quatMultiply(x, p * 7 + 3, this.x0!.subarray(j * 7 + 3, j * 7 + 7), this.qm, 0);
        else x.set(this.qm, p * 7 + 3);
      });
      return;
    }
    const d = this.d;
    this.points.forEach((p, j) => {
      for (let k = 0; k < d; k++) x[p * d + k] = (rel ? this.x0![j * d + k] : 0) + this.m[k];
    });
  }

  /** SOFA clears the rows and columns of the moving points whatever the time. */
  projectedDofs(out: number[]): void {
    const d = this.d;
    for (const p of this.points) for (let c = 0; c < d; c++) out.push(p * d + c);
  }
}
