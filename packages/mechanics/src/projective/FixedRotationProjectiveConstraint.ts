import { Bool, sofaComponent, SingleStateProjectiveConstraint } from '@sofa-ts/core';
import { quatMultiply } from '../rotation.js';

/**
 * SOFA's FixedRotationProjectiveConstraint (Rigid3d): the rotation of every frame about the chosen
 * world axes stays what it was at init. Positions only are projected (velocities and responses are
 * left free, as in SOFA). For each fixed axis e, in the order x, y, z, the swing-twist split
 *   q = swing·twist_e,   twist_e = normalize(((q_v·e)·e, q_w))   (identity when that is zero)
 * removes the twist about e from the current orientation q, and keeps the twists about e of the
 * initial orientation q0 (peeled the same way); the frame gets q_remaining·(twists of q0).
 */
@sofaComponent({
  name: 'FixedRotationProjectiveConstraint',
  aliases: ['FixedRotationConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Prevents the rotation of rigid frames about given world axes.',
  templates: ['Rigid3d'],
})
export class FixedRotationProjectiveConstraint extends SingleStateProjectiveConstraint {
  readonly fixedXRotation = this.initData({
    name: 'FixedXRotation',
    type: Bool,
    default: false,
    help: 'prevent the rotation about the X axis',
  });
  readonly fixedYRotation = this.initData({
    name: 'FixedYRotation',
    type: Bool,
    default: false,
    help: 'prevent the rotation about the Y axis',
  });
  readonly fixedZRotation = this.initData({
    name: 'FixedZRotation',
    type: Bool,
    default: false,
    help: 'prevent the rotation about the Z axis',
  });

  /** Orientations at init, (n × 4). */
  private q0 = new Float64Array(0);
  private readonly q = new Float64Array(4);
  private readonly qp = new Float64Array(4);
  private readonly keep = new Float64Array(4);
  private readonly twist = new Float64Array(4);
  private readonly tmp = new Float64Array(4);

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name !== 'Rigid3d')
      throw this.error(`FixedRotationProjectiveConstraint needs a Rigid3d state, ${s.describe()} is ${s.stateType.name}`);
    this.q0 = new Float64Array(4 * s.size);
    for (let i = 0; i < s.size; i++) this.q0.set(s.x.subarray(7 * i + 3, 7 * i + 7), 4 * i);
  }

  projectResponse(_dx: Float64Array): void {}

  projectVelocity(_v: Float64Array): void {}

  projectPosition(x: Float64Array): void {
    const axes = [this.fixedXRotation.value, this.fixedYRotation.value, this.fixedZRotation.value];
    const n = Math.min(x.length / 7, this.q0.length / 4);
    const { q, qp, keep } = this;
    for (let i = 0; i < n; i++) {
      q.set(x.subarray(7 * i + 3, 7 * i + 7));
      qp.set(this.q0.subarray(4 * i, 4 * i + 4));
      keep.fill(0);
      keep[3] = 1;
      for (let a = 0; a < 3; a++) {
        if (!axes[a]) continue;
        this.removeTwist(q, a); // q ← swing of q
        this.removeTwist(qp, a); // qp ← swing of qp, this.twist = twist of qp
        quatMultiply(this.tmp, 0, this.twist, keep, 0);
        keep.set(this.tmp);
      }
      quatMultiply(x, 7 * i + 3, q, keep, 0);
    }
  }

  /** q ← normalize(q·twist⁻¹) with twist = normalize((q_a·e_a, q_w)) (kept in this.twist). */
  private removeTwist(q: Float64Array, a: number): void {
    const t = this.twist;
    t.fill(0);
    t[a] = q[a];
    t[3] = q[3];
    let l = Math.hypot(t[0], t[1], t[2], t[3]);
    if (l === 0) {
      t[3] = 1;
      l = 1;
    }
    for (let k = 0; k < 4; k++) t[k] = t[k] / l;
    // q·twist⁻¹ (twist unit: the inverse is the conjugate)
    const inv = this.tmp;
    inv[0] = -t[0];
    inv[1] = -t[1];
    inv[2] = -t[2];
    inv[3] = t[3];
    quatMultiply(q, 0, q, inv, 0);
    const lq = Math.hypot(q[0], q[1], q[2], q[3]);
    for (let k = 0; k < 4; k++) q[k] = q[k] / lq;
  }

  projectedDofs(_out: number[]): void {}
}
