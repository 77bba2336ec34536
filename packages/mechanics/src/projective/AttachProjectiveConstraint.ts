import {
  BaseProjectiveConstraint,
  Bool,
  Indices,
  Real,
  RealArray,
  Vec3,
  contextMechanicalState,
  isMechanicalState,
  sofaComponent,
  type BaseMechanicalState,
} from '@sofa-ts/core';

/**
 * SOFA's AttachProjectiveConstraint: point indices2[i] of object2 is attached to point indices1[i]
 * of object1 by projections (Vec templates). With c = constraintFactor[i] (1 when empty):
 *   position  x2 ← x2 − ½·positionFactor·c·(x2 − x1)       (x1 is not moved; factor 1: the midpoint)
 *   velocity  (v1, v2) ← (v1 + δ, v2 − δ),  δ = ½·velocityFactor·c·(v2 − v1)   (both states, as SOFA)
 *   response  one-way: dx2 ← 0;  twoWay: (dx1, dx2) ← (dx1 + δ, dx2 − δ), δ = ½·responseFactor·c·(dx2 − dx1)
 *             (factor 1: both take their average, the orthogonal projection onto dx1 = dx2).
 * Positions and velocities are projected by the animation loop at the start of each step; the
 * response in every solve. An assembled matrix gets the rows and columns of indices2 cleared
 * (one-way only; SOFA leaves the matrix as it is with twoWay).
 * minDistance ≠ −1: a pair farther apart than it is released (not projected) until it comes back.
 * lastDir set (|lastDir| > 1e−10): a pair whose object1 point passed the plane through lastPos
 * normal to lastDir ((x1 − lastPos)·lastDir > 0) becomes inactive: free, or with clamp held
 * towards lastPos (x2 ← x2 − ½·positionFactor·c·(x2 − lastPos), v2 halved, dx2 ← 0).
 * freeRotations, lastFreeRotation and restRotations concern Rigid frames, which this
 * implementation does not support yet (an error names the template).
 */
@sofaComponent({
  name: 'AttachProjectiveConstraint',
  aliases: ['AttachConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Attach given pair of particles, projecting the positions of the second particles to the first ones.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d'],
})
export class AttachProjectiveConstraint extends BaseProjectiveConstraint {
  readonly indices1 = this.initData({
    name: 'indices1',
    type: Indices,
    default: new Uint32Array(0),
    help: 'Indices of the source points on the first model',
  });
  readonly indices2 = this.initData({
    name: 'indices2',
    type: Indices,
    default: new Uint32Array(0),
    help: 'Indices of the fixed points on the second model',
  });
  readonly twoWay = this.initData({
    name: 'twoWay',
    type: Bool,
    default: false,
    help: 'if true, projects the constraint vertices of both object1 and object2 towards their average degrees of freedom and derivatives; if false, object2 follows object1 without affecting its motion',
  });
  readonly freeRotations = this.initData({
    name: 'freeRotations',
    type: Bool,
    default: false,
    help: 'true to keep rotations free (only used for Rigid DOFs)',
  });
  readonly lastFreeRotation = this.initData({
    name: 'lastFreeRotation',
    type: Bool,
    default: false,
    help: 'true to keep rotation of the last attached point free (only used for Rigid DOFs)',
  });
  readonly restRotations = this.initData({
    name: 'restRotations',
    type: Bool,
    default: false,
    help: 'true to use rest rotations local offsets (only used for Rigid DOFs)',
  });
  readonly lastPos = this.initData({
    name: 'lastPos',
    type: Vec3,
    default: new Float64Array(3),
    help: 'position at which the attach constraint should become inactive',
  });
  readonly lastDir = this.initData({
    name: 'lastDir',
    type: Vec3,
    default: new Float64Array(3),
    help: 'direction from lastPos at which the attach constraint should become inactive',
  });
  readonly clamp = this.initData({
    name: 'clamp',
    type: Bool,
    default: false,
    help: 'true to clamp particles at lastPos instead of freeing them',
  });
  readonly minDistance = this.initData({
    name: 'minDistance',
    type: Real,
    default: -1,
    unit: 'length',
    help: 'the constraint becomes inactive if the distance between the points attached is bigger than minDistance (-1: never)',
  });
  readonly positionFactor = this.initData({
    name: 'positionFactor',
    type: Real,
    default: 1,
    help: 'IN: Factor applied to projection of position',
  });
  readonly velocityFactor = this.initData({
    name: 'velocityFactor',
    type: Real,
    default: 1,
    help: 'IN: Factor applied to projection of velocity',
  });
  readonly responseFactor = this.initData({
    name: 'responseFactor',
    type: Real,
    default: 1,
    help: 'IN: Factor applied to projection of force/acceleration',
  });
  readonly constraintFactor = this.initData({
    name: 'constraintFactor',
    type: RealArray(0),
    default: new Float64Array(0),
    help: 'Vector of factors adapting the application of the constraint per pair of points (0 -> the constraint is released. 1 -> the constraint is fully constrained)',
  });

  readonly object1 = this.initLink({
    name: 'object1',
    help: 'first object in interaction: the source points (default: the state of this node)',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
  });
  readonly object2 = this.initLink({
    name: 'object2',
    help: 'second object in interaction: the attached points (default: object1)',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
  });

  /** Per pair (n): 1 while active (lastDir not passed), 1 while released (farther than minDistance). */
  private active = new Uint8Array(0);
  private released = new Uint8Array(0);
  /** Per pair constraint factor c (n). */
  private factor = new Float64Array(0);
  /** Pairs: min(|indices1|, |indices2|); dimension of the points. */
  private n = 0;
  private d = 3;
  private indicesChecked = false;

  getMechanicalState(): BaseMechanicalState {
    return this.object2.require();
  }

  override getCoupledStates(): readonly BaseMechanicalState[] {
    return this.twoWay.value ? [this.object1.require()] : [];
  }

  override init(): void {
    const s1 = this.object1.get() ?? contextMechanicalState(this.context);
    if (!s1) throw this.error('no mechanical state: set object1 or put a MechanicalObject in the node or an ancestor');
    const s2 = this.object2.get() ?? s1;
    this.object1.set(s1);
    this.object2.set(s2);
    const t = s1.stateType;
    if (s2.stateType !== t)
      throw this.error(
        `object1 ${s1.describe()} is ${t.name}, object2 ${s2.describe()} is ${s2.stateType.name}: the two states need the same template`,
      );
    if (!this.template) this.template = t.name;
    if (t.isRigid || t.coordSize !== t.derivSize)
      throw this.error(`${t.name} AttachProjectiveConstraint is not supported yet`, 'attach Vec3d, Vec2d or Vec1d points');
    for (const d of [this.freeRotations, this.lastFreeRotation, this.restRotations])
      if (d.value) this.warnAbout(d, `${d.name} is only used for Rigid DOFs; ${t.name} points have no rotation`);
    this.d = t.derivSize;
    const i1 = this.indices1.value,
      i2 = this.indices2.value;
    if (i1.length !== i2.length)
      this.warnAbout(
        this.indices2,
        `size mismatch between indices1 and indices2 (${i1.length} != ${i2.length}): the first ${Math.min(i1.length, i2.length)} pairs are attached`,
      );
    this.n = Math.min(i1.length, i2.length);
    const cf = this.constraintFactor.value;
    this.factor = new Float64Array(this.n).fill(1);
    if (cf.length > 0) {
      if (cf.length !== i2.length)
        this.warnAbout(this.constraintFactor, `${cf.length} constraint factors for ${i2.length} attached points: the missing ones are 1`);
      for (let j = 0; j < cf.length; j++)
        if (cf[j] < 0 || cf[j] > 1) this.warnAbout(this.constraintFactor, `constraintFactor[${j}] = ${cf[j]} is out of [0, 1]`);
      for (let j = 0; j < Math.min(cf.length, this.n); j++) this.factor[j] = cf[j];
    }
    this.active = new Uint8Array(this.n).fill(1);
    this.released = new Uint8Array(this.n);
    this.indicesChecked = false;
  }

  /** Index ranges, once the states have their sizes (they may be initialised after this component). */
  private checkIndices(): void {
    if (this.indicesChecked) return;
    const s1 = this.object1.require(),
      s2 = this.object2.require();
    for (let i = 0; i < this.n; i++) {
      if (this.indices1.value[i] >= s1.size)
        throw this.dataError(this.indices1, `index ${this.indices1.value[i]} is out of range: ${s1.describe()} has ${s1.size} points`);
      if (this.indices2.value[i] >= s2.size)
        throw this.dataError(this.indices2, `index ${this.indices2.value[i]} is out of range: ${s2.describe()} has ${s2.size} points`);
    }
    this.indicesChecked = true;
  }

  /** True when lastDir is set and not null: pairs past lastPos become inactive. */
  private usesLast(): boolean {
    const l = this.lastDir.value;
    return this.lastDir.isSet && Math.hypot(l[0], l[1], l[2]) > 1e-10;
  }

  projectPosition(x2: Float64Array): void {
    this.checkIndices();
    const x1 = this.object1.require().x,
      d = this.d,
      i1 = this.indices1.value,
      i2 = this.indices2.value;
    const last = this.usesLast(),
      lp = this.lastPos.value,
      ld = this.lastDir.value;
    const minD = this.minDistance.value,
      pf = this.positionFactor.value,
      clamp = this.clamp.value;
    for (let i = 0; i < this.n; i++) {
      const a = d * i1[i],
        b = d * i2[i];
      // active unless the source point passed the plane (x1 − lastPos)·lastDir > 0
      if (last) {
        let dist = 0;
        for (let k = 0; k < Math.min(d, 3); k++) dist += (x1[a + k] - lp[k]) * ld[k];
        this.active[i] = dist > 0 ? 0 : 1;
      }
      if (!this.active[i] && !clamp) continue;
      // target: the source point, or lastPos for a clamped inactive pair
      const toLast = !this.active[i];
      if (minD !== -1) {
        let r2 = 0;
        for (let k = 0; k < d; k++) r2 += (x2[b + k] - (toLast ? (lp[k] ?? 0) : x1[a + k])) ** 2;
        this.released[i] = Math.sqrt(r2) > minD ? 1 : 0;
        if (this.released[i]) continue;
      }
      // x2 ← x2 − ½·pf·c·(x2 − target)
      const w = 0.5 * pf * this.factor[i];
      for (let k = 0; k < d; k++) x2[b + k] = x2[b + k] - w * (x2[b + k] - (toLast ? (lp[k] ?? 0) : x1[a + k]));
    }
  }

  projectVelocity(v2: Float64Array): void {
    this.checkIndices();
    const s1 = this.object1.require(),
      v1 = s1.v,
      d = this.d,
      i1 = this.indices1.value,
      i2 = this.indices2.value;
    const vf = this.velocityFactor.value,
      clamp = this.clamp.value;
    let touched = false;
    for (let i = 0; i < this.n; i++) {
      if (this.released[i] || (!this.active[i] && !clamp)) continue;
      const a = d * i1[i],
        b = d * i2[i],
        w = 0.5 * vf * this.factor[i];
      if (this.active[i]) {
        // δ = ½·vf·c·(v2 − v1): v1 += δ, v2 −= δ (SOFA moves object1's velocity too)
        for (let k = 0; k < d; k++) {
          const delta = w * (v2[b + k] - v1[a + k]);
          v1[a + k] += delta;
          v2[b + k] -= delta;
        }
        touched = true;
      } else {
        for (let k = 0; k < d; k++) v2[b + k] -= w * v2[b + k];
      }
    }
    if (touched && s1 !== this.object2.require()) s1.touch();
  }

  projectResponse(dx2: Float64Array): void {
    if (this.twoWay.value)
      throw this.error('twoWay needs the two states in the system of one ODE solver (projectResponse was asked for object2 alone)');
    this.projectResponseWith(dx2, []);
  }

  override projectResponseWith(dx2: Float64Array, others: readonly Float64Array[]): void {
    this.checkIndices();
    const d = this.d,
      i1 = this.indices1.value,
      i2 = this.indices2.value,
      rf = this.responseFactor.value,
      clamp = this.clamp.value;
    const dx1 = this.twoWay.value ? others[0] : undefined;
    for (let i = 0; i < this.n; i++) {
      if (this.released[i] || (!this.active[i] && !clamp)) continue;
      const b = d * i2[i];
      if (!dx1 || !this.active[i]) {
        dx2.fill(0, b, b + d);
        continue;
      }
      // δ = ½·rf·c·(dx2 − dx1): dx1 += δ, dx2 −= δ
      const a = d * i1[i],
        w = 0.5 * rf * this.factor[i];
      for (let k = 0; k < d; k++) {
        const delta = w * (dx2[b + k] - dx1[a + k]);
        dx1[a + k] += delta;
        dx2[b + k] -= delta;
      }
    }
  }

  /** One-way: the rows and columns of the attached points (active, or clamped) are cleared, as SOFA's applyConstraint. */
  projectedDofs(out: number[]): void {
    if (this.twoWay.value) return;
    const d = this.d,
      i2 = this.indices2.value,
      clamp = this.clamp.value;
    for (let i = 0; i < this.n; i++) {
      if (!clamp && !this.active[i]) continue;
      for (let k = 0; k < d; k++) out.push(d * i2[i] + k);
    }
  }
}
