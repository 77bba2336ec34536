import {
  Bool,
  Indices,
  Real,
  RealArray,
  isTopology,
  renameAfterRemoval,
  sofaComponent,
  type BaseMeshTopology,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
  type ConstraintResolution,
  type TopologyChange,
} from '@sofa-ts/core';
import { PairLagrangianConstraint } from './pair-constraint.js';
import { Bilateral3Resolution } from './resolutions.js';
import { rigidFrameDifference, rigidFrameWithDifference, rigidInitialDifference } from './rigid-bilateral.js';

const EX = Float64Array.of(1, 0, 0);
const EY = Float64Array.of(0, 1, 0);
const EZ = Float64Array.of(0, 0, 1);
/** Unit derivatives of a Rigid3d frame (v then ω). */
const RIGID_AXES = [0, 1, 2, 3, 4, 5].map((k) => Float64Array.from({ length: 6 }, (_, j) => (j === k ? 1 : 0)));

/**
 * SOFA's BilateralLagrangianConstraint (Vec3): point first_point[i] of object1 and point
 * second_point[i] of object2 stay together, up to rest_vector[i]:
 *   δ_i = x2[m2] − x1[m1] − rest_i  (3 rows per pair, measured on the free positions)
 *   J rows: −e_k on x1[m1], +e_k on x2[m2],  k = x, y, z
 * Each pair is solved as one 3×3 block (λ −= W_b⁻¹·δ) started from the previous step's λ of
 * that pair. With the velocity order, δ = v2 − v1 + (x2 − x1 + rest)/dt (SOFA's sign of rest there).
 * Topological changes (with topology1 / topology2 given): a pair whose point is removed is dropped,
 * and the index of the moved last point is renamed, as SOFA does.
 *
 * Rigid3d (SOFA's RigidImpl specialisation): 6 rows per pair, frame m1 of object1 and frame m2 of
 * object2 made to coincide (rigid-bilateral.ts):
 *   δ = (c2 − c1, R(q1)·θ(q1⁻¹ ⊗ q2)) − rest_i   (rest_vector: 6 numbers per pair, centre then rotation)
 *   J rows: ∓e_k on the velocities (k = 0..2), ∓e_k on the angular velocities (k = 3..5)
 * solved as two 3×3 blocks (position, then orientation with the tolerance numericalTolerance), with
 * no warm start (as SOFA). keepOrientationDifference: frame 1 carries the initial difference
 * (c1 + Δc, q1 ⊗ Δq) and rest_vector is ignored (a warning). With the velocity order SOFA writes
 * no Rigid3 violation: the rows are 0 here too.
 */
@sofaComponent({
  name: 'BilateralLagrangianConstraint',
  aliases: ['BilateralInteractionConstraint', 'BilateralInteractionLagrangianConstraint'],
  category: 'LagrangianConstraint',
  module: 'Sofa.Component.Constraint.Lagrangian.Model',
  description: 'Bilateral constraint keeping pairs of points of two objects together (Lagrange multipliers).',
  templates: ['Vec3d', 'Rigid3d'],
})
export class BilateralLagrangianConstraint extends PairLagrangianConstraint {
  readonly firstPoint = this.initData({
    name: 'first_point',
    type: Indices,
    default: new Uint32Array(0),
    help: 'index of the constraint on the first model (object1)',
  });
  readonly secondPoint = this.initData({
    name: 'second_point',
    type: Indices,
    default: new Uint32Array(0),
    help: 'index of the constraint on the second model (object2)',
  });
  readonly restVector = this.initData({
    name: 'rest_vector',
    type: RealArray(3, 'vector<Deriv>'),
    default: new Float64Array(0),
    help: 'relative position to maintain between attached points (optional; Rigid3d: 6 numbers per pair, centre then rotation vector)',
  });
  readonly numericalTolerance = this.initData({
    name: 'numericalTolerance',
    type: Real,
    default: 0.0001,
    help: 'a real value specifying the tolerance during the constraint solving (optional)',
  });
  readonly activate = this.initData({ name: 'activate', type: Bool, default: true, help: 'control constraint activation' });
  readonly keepOrientationDifference = this.initData({
    name: 'keepOrientationDifference',
    type: Bool,
    default: false,
    help: 'keep the initial difference in orientation (only for rigids)',
  });
  readonly topology1 = this.initLink({
    name: 'topology1',
    help: 'link to the first topology container',
    accepts: isTopology,
    expected: 'a topology container',
    search: 'none',
  });
  readonly topology2 = this.initLink({
    name: 'topology2',
    help: 'link to the second topology container',
    accepts: isTopology,
    expected: 'a topology container',
    search: 'none',
  });

  /** λ of each pair at the end of the previous solve (3 per pair), the next warm start. */
  private prevForces = new Float64Array(0);
  private firstRow = 0;
  /** Rigid3d states: 6 rows per pair. */
  private rigid = false;
  /** keepOrientationDifference: (pairs·7) initial difference (Δc, Δq) of each pair. */
  private initialDifference = new Float64Array(0);
  private readonly frame = new Float64Array(7);
  /** Checkpoint: the warm start. */
  readonly checkpointFields = ['prevForces'] as const;

  override init(): void {
    super.init();
    const t1 = this.state1.stateType.name,
      t2 = this.state2.stateType.name;
    if (t1 !== t2 || (t1 !== 'Vec3d' && t1 !== 'Rigid3d')) {
      throw this.error(`two Vec3d or two Rigid3d states are needed (got ${t1} and ${t2})`);
    }
    this.rigid = t1 === 'Rigid3d';
    if (this.restVector.value.length % (this.rigid ? 6 : 3) !== 0) {
      throw this.dataError(
        this.restVector,
        `rest_vector holds ${this.restVector.value.length} numbers, not a multiple of ${this.rigid ? 6 : 3} (one ${t1} derivative per pair)`,
      );
    }
    this.prevForces = new Float64Array(0);
    this.initialDifference = new Float64Array(0);
    const follow = (topo: BaseMeshTopology | undefined, side: 0 | 1): void =>
      topo?.addTopologyHandler({ handleTopologyChange: (c, t) => this.pointsRemoved(side, c, t) });
    follow(this.topology1.get(), 0);
    follow(this.topology2.get(), 1);
  }

  /** SOFA's removeContact, then the renaming of the moved last point (TopologySubsetIndices). */
  private pointsRemoved(side: 0 | 1, change: TopologyChange, topology: BaseMeshTopology): void {
    if (change.type !== 'pointsRemoved') return;
    const m1 = Array.from(this.firstPoint.value);
    const m2 = Array.from(this.secondPoint.value);
    const rest = this.restVector.value;
    const stride = this.rigid ? 6 : 3;
    const keepRest = rest.length === stride * m1.length;
    const restList = keepRest ? Array.from({ length: m1.length }, (_, i) => rest.subarray(stride * i, stride * i + stride)) : [];
    const mine = side === 0 ? m1 : m2;
    const removed = new Set(change.indices);
    for (let i = mine.length - 1; i >= 0; i--) {
      if (!removed.has(mine[i])) continue;
      m1.splice(i, 1);
      m2.splice(i, 1);
      if (keepRest) restList.splice(i, 1);
      if (this.initialDifference.length >= 7 * (i + 1)) {
        const d = this.initialDifference;
        this.initialDifference = Float64Array.of(...d.subarray(0, 7 * i), ...d.subarray(7 * i + 7));
      }
    }
    const renamed = renameAfterRemoval(side === 0 ? m1 : m2, topology.getNbPoints(), change.indices);
    this.firstPoint.value = side === 0 ? renamed : Uint32Array.from(m1);
    this.secondPoint.value = side === 1 ? renamed : Uint32Array.from(m2);
    if (keepRest) {
      const r = new Float64Array(stride * restList.length);
      restList.forEach((v, i) => r.set(v, stride * i));
      this.restVector.value = r;
    }
  }

  /** SOFA's bwdInit: with keepOrientationDifference, the initial difference of each pair of frames. */
  override bwdInit(): void {
    if (!this.rigid || !this.keepOrientationDifference.value) return;
    if (this.restVector.value.length > 0) {
      this.warnAbout(this.restVector, 'keepOrientationDifference is activated: rest_vector is ignored');
      this.restVector.value = new Float64Array(0);
    }
    const n = Math.min(this.firstPoint.value.length, this.secondPoint.value.length);
    this.checkIndices(n);
    const m1 = this.firstPoint.value,
      m2 = this.secondPoint.value;
    this.initialDifference = new Float64Array(7 * n);
    for (let pid = 0; pid < n; pid++)
      rigidInitialDifference(this.initialDifference, 7 * pid, this.state1.x, 7 * m1[pid], this.state2.x, 7 * m2[pid]);
  }

  /** The indices must name points of the states (checked at each step: states initialise after the root's objects). */
  private checkIndices(n: number): void {
    const m1 = this.firstPoint.value,
      m2 = this.secondPoint.value;
    const n1 = this.state1.size,
      n2 = this.state2.size;
    for (let i = 0; i < n; i++) {
      if (m1[i] >= n1) throw this.error(`first_point ${m1[i]} is out of range (${this.state1.describe()} has ${n1} points)`);
      if (m2[i] >= n2) throw this.error(`second_point ${m2[i]} is out of range (${this.state2.describe()} has ${n2} points)`);
    }
  }

  override reset(): void {
    this.prevForces.fill(0);
  }

  /** Number of point pairs. */
  get pairCount(): number {
    return this.activate.value ? Math.min(this.firstPoint.value.length, this.secondPoint.value.length) : 0;
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const n = this.pairCount;
    this.checkIndices(n);
    this.firstRow = firstRow;
    const m1 = this.firstPoint.value,
      m2 = this.secondPoint.value;
    const s1 = this.state1,
      s2 = this.state2;
    if (this.rigid) {
      // rows 6·pid + k: ∓e_k on (v, ω) of frames m1, m2
      for (let pid = 0; pid < n; pid++) {
        for (let k = 0; k < 6; k++) {
          const e = RIGID_AXES[k];
          J.add(s1, firstRow + 6 * pid + k, m1[pid], e, -1);
          J.add(s2, firstRow + 6 * pid + k, m2[pid], e, 1);
        }
      }
      return 6 * n;
    }
    for (let pid = 0; pid < n; pid++) {
      const cid = firstRow + 3 * pid;
      J.add(s1, cid, m1[pid], EX, -1);
      J.add(s2, cid, m2[pid], EX, 1);
      J.add(s1, cid + 1, m1[pid], EY, -1);
      J.add(s2, cid + 1, m2[pid], EY, 1);
      J.add(s1, cid + 2, m1[pid], EZ, -1);
      J.add(s2, cid + 2, m2[pid], EZ, 1);
    }
    return 3 * n;
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder, dt: number): void {
    const n = this.pairCount;
    const m1 = this.firstPoint.value,
      m2 = this.secondPoint.value;
    const rest = this.restVector.value;
    if (this.rigid) {
      this.rigidViolation(out, order, n);
      return;
    }
    const nRest = rest.length / 3;
    if (order === 'vel') {
      const x1 = this.state1.x,
        x2 = this.state2.x;
      const v1 = this.state1.vFree,
        v2 = this.state2.vFree;
      for (let pid = 0; pid < n; pid++) {
        const a = 3 * m1[pid],
          b = 3 * m2[pid];
        for (let k = 0; k < 3; k++) {
          let dPos = x2[b + k] - x1[a + k];
          if (pid < nRest) dPos += rest[3 * pid + k];
          out[this.firstRow + 3 * pid + k] = v2[b + k] - v1[a + k] + dPos / dt;
        }
      }
      return;
    }
    const x1 = this.state1.xFree,
      x2 = this.state2.xFree;
    for (let pid = 0; pid < n; pid++) {
      const a = 3 * m1[pid],
        b = 3 * m2[pid];
      for (let k = 0; k < 3; k++) {
        let d = x2[b + k] - x1[a + k];
        if (pid < nRest) d -= rest[3 * pid + k];
        out[this.firstRow + 3 * pid + k] = d;
      }
    }
  }

  /** Rigid3d: δ = (c2 − c1, R(q1)·θ) − rest on the free positions (0 with the velocity order, as SOFA). */
  private rigidViolation(out: Float64Array, order: ConstraintOrder, n: number): void {
    const row = this.firstRow;
    if (order === 'vel') {
      out.fill(0, row, row + 6 * n);
      return;
    }
    const m1 = this.firstPoint.value,
      m2 = this.secondPoint.value;
    const rest = this.restVector.value,
      nRest = rest.length / 6;
    const x1 = this.state1.xFree,
      x2 = this.state2.xFree;
    const keep = this.keepOrientationDifference.value && this.initialDifference.length >= 7 * n;
    for (let pid = 0; pid < n; pid++) {
      if (keep) {
        rigidFrameWithDifference(this.frame, x1, 7 * m1[pid], this.initialDifference, 7 * pid);
        rigidFrameDifference(out, row + 6 * pid, this.frame, 0, x2, 7 * m2[pid]);
      } else {
        rigidFrameDifference(out, row + 6 * pid, x1, 7 * m1[pid], x2, 7 * m2[pid]);
      }
      if (pid < nRest) for (let k = 0; k < 6; k++) out[row + 6 * pid + k] -= rest[6 * pid + k];
    }
  }

  getConstraintResolution(out: Array<ConstraintResolution | undefined>): void {
    const n = this.pairCount;
    if (this.rigid) {
      // two 3×3 blocks per pair, no warm start; the orientation block with numericalTolerance
      for (let pid = 0; pid < n; pid++) {
        out[this.firstRow + 6 * pid] = new Bilateral3Resolution();
        const rot = new Bilateral3Resolution();
        rot.tolerance = this.numericalTolerance.value;
        out[this.firstRow + 6 * pid + 3] = rot;
      }
      return;
    }
    if (this.prevForces.length !== 3 * n) {
      const p = new Float64Array(3 * n);
      p.set(this.prevForces.subarray(0, Math.min(this.prevForces.length, 3 * n)));
      this.prevForces = p;
    }
    for (let pid = 0; pid < n; pid++) out[this.firstRow + 3 * pid] = new Bilateral3Resolution(this.prevForces, 3 * pid);
  }
}
