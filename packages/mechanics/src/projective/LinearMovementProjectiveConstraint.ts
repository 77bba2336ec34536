import { BaseProjectiveConstraint, Bool, Indices, RealArray, isTopology, sofaComponent, type BaseMechanicalState } from '@sofa-ts/core';
import { mstateLink } from '../state-link.js';

/**
 * SOFA's LinearMovementProjectiveConstraint (alias LinearMovementConstraint): the listed points
 * follow a piecewise linear motion given by key times t_0 < t_1 < … and key movements m_k.
 * At the context time t with t_k ≤ t < t_{k+1}:
 *   m(t) = m_k + (m_{k+1} − m_k)·(t − t_k)/(t_{k+1} − t_k),
 *   x_i = x0_i + m(t) (relativeMovements, x0 = positions at the first projection) or x_i = m(t),
 *   v_i = (m_{k+1} − m_k)/(t_{k+1} − t_k),  dx_i ← 0.
 * Outside [t_0, t_last) nothing is projected (as in SOFA: after the last key time the points are
 * free again). SOFA reads the context time, i.e. the start of the step when positions are projected
 * at the end of a step; sofa-ts does the same.
 */
@sofaComponent({
  name: 'LinearMovementProjectiveConstraint',
  aliases: ['LinearMovementConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Impose a piecewise linear motion (key times and movements) on given points.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d'],
})
export class LinearMovementProjectiveConstraint extends BaseProjectiveConstraint {
  readonly indices = this.initData({ name: 'indices', type: Indices, default: new Uint32Array(0), help: 'indices of the points that follow the motion' });
  readonly keyTimes = this.initData({ name: 'keyTimes', type: RealArray(1), default: new Float64Array(0), unit: 's', help: 'key times, increasing' });
  readonly movements = this.initData({ name: 'movements', type: RealArray(0, 'vector<Deriv>'), default: new Float64Array(0), help: 'one movement (a Deriv) per key time' });
  readonly relativeMovements = this.initData({ name: 'relativeMovements', type: Bool, default: true, help: 'movements are displacements from the initial positions (else absolute positions)' });
  readonly showMovement = this.initData({ name: 'showMovement', type: Bool, default: false, help: 'draw the path of the points', group: 'Visualization' });

  readonly mstate = this.initLink(mstateLink());
  readonly topology = this.initLink({ name: 'topology', help: 'link to the topology container (accepted)', accepts: isTopology, expected: 'a topology container' });

  private points = new Uint32Array(0);
  private d = 3;
  /** Positions of the points at the first projection, (points·d). */
  private x0: Float64Array | undefined;
  /** Current movement and velocity, (d). */
  private m = new Float64Array(3);
  private vel = new Float64Array(3);

  getMechanicalState(): BaseMechanicalState {
    return this.mstate.require();
  }

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.isRigid) throw this.error('rigid templates of LinearMovementProjectiveConstraint are not supported');
    this.d = s.stateType.derivSize;
    const t = this.keyTimes.value;
    const mv = this.movements.value;
    if (mv.length !== t.length * this.d) throw this.error(`'movements' needs ${this.d} numbers per key time (${t.length} key times), got ${mv.length} numbers`);
    for (let k = 1; k < t.length; k++) if (!(t[k]! > t[k - 1]!)) throw this.error(`'keyTimes' must increase, got ${t[k - 1]} then ${t[k]}`);
    for (const i of this.indices.value) if (i >= s.size) throw this.error(`index ${i} is out of range: ${s.describe()} has ${s.size} points`);
    this.points = Uint32Array.from(new Set(this.indices.value));
    this.m = new Float64Array(this.d);
    this.vel = new Float64Array(this.d);
    this.x0 = undefined;
  }

  override reset(): void {
    this.x0 = undefined;
  }

  /** Interval k with t_k ≤ time < t_{k+1}; −1 outside. Fills m and vel. */
  private locate(): number {
    const t = this.keyTimes.value;
    const time = this.context.getTime();
    if (t.length < 2 || time < t[0]! || time >= t[t.length - 1]!) return -1;
    let k = 0;
    while (t[k + 1]! <= time) k++;
    const mv = this.movements.value;
    const d = this.d;
    const span = t[k + 1]! - t[k]!;
    const a = (time - t[k]!) / span;
    for (let c = 0; c < d; c++) {
      const m0 = mv[k * d + c]!;
      const m1 = mv[(k + 1) * d + c]!;
      this.m[c] = m0 + (m1 - m0) * a;
      this.vel[c] = (m1 - m0) / span;
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
    for (const p of this.points) for (let c = 0; c < d; c++) v[p * d + c] = this.vel[c]!;
  }

  projectPosition(x: Float64Array): void {
    const d = this.d;
    if (this.x0 === undefined) {
      this.x0 = new Float64Array(this.points.length * d);
      this.points.forEach((p, j) => {
        for (let c = 0; c < d; c++) this.x0![j * d + c] = x[p * d + c]!;
      });
    }
    if (this.locate() < 0) return;
    const rel = this.relativeMovements.value;
    this.points.forEach((p, j) => {
      for (let c = 0; c < d; c++) x[p * d + c] = (rel ? this.x0![j * d + c]! : 0) + this.m[c]!;
    });
  }

  /** SOFA clears the rows and columns of the moving points whatever the time. */
  projectedDofs(out: number[]): void {
    const d = this.d;
    for (const p of this.points) for (let c = 0; c < d; c++) out.push(p * d + c);
  }
}
