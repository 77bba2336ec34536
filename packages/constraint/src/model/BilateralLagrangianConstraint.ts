import { Bool, Indices, Real, RealArray, isTopology, sofaComponent, type ConstraintJacobianBuilder, type ConstraintOrder, type ConstraintResolution } from '@sofa-ts/core';
import { PairLagrangianConstraint } from './pair-constraint.js';
import { Bilateral3Resolution } from './resolutions.js';

const EX = Float64Array.of(1, 0, 0);
const EY = Float64Array.of(0, 1, 0);
const EZ = Float64Array.of(0, 0, 1);

/**
 * SOFA's BilateralLagrangianConstraint (Vec3): point first_point[i] of object1 and point
 * second_point[i] of object2 stay together, up to rest_vector[i]:
 *   δ_i = x2[m2] − x1[m1] − rest_i  (3 rows per pair, measured on the free positions)
 *   J rows: −e_k on x1[m1], +e_k on x2[m2],  k = x, y, z
 * Each pair is solved as one 3×3 block (λ −= W_b⁻¹·δ) started from the previous step's λ of
 * that pair. With the velocity order, δ = v2 − v1 + (x2 − x1 + rest)/dt (SOFA's sign of rest there).
 */
@sofaComponent({
  name: 'BilateralLagrangianConstraint',
  aliases: ['BilateralInteractionConstraint', 'BilateralInteractionLagrangianConstraint'],
  category: 'LagrangianConstraint',
  module: 'Sofa.Component.Constraint.Lagrangian.Model',
  description: 'Bilateral constraint keeping pairs of points of two objects together (Lagrange multipliers).',
  templates: ['Vec3d'],
})
export class BilateralLagrangianConstraint extends PairLagrangianConstraint {
  readonly firstPoint = this.initData({ name: 'first_point', type: Indices, default: new Uint32Array(0), help: 'index of the constraint on the first model (object1)' });
  readonly secondPoint = this.initData({ name: 'second_point', type: Indices, default: new Uint32Array(0), help: 'index of the constraint on the second model (object2)' });
  readonly restVector = this.initData({ name: 'rest_vector', type: RealArray(3, 'vector<Vec3d>'), default: new Float64Array(0), help: 'relative position to maintain between attached points (optional)' });
  readonly numericalTolerance = this.initData({ name: 'numericalTolerance', type: Real, default: 0.0001, help: 'a real value specifying the tolerance during the constraint solving (optional)' });
  readonly activate = this.initData({ name: 'activate', type: Bool, default: true, help: 'control constraint activation' });
  readonly keepOrientationDifference = this.initData({ name: 'keepOrientationDifference', type: Bool, default: false, help: 'keep the initial difference in orientation (only for rigids)' });
  readonly topology1 = this.initLink({ name: 'topology1', help: 'link to the first topology container', accepts: isTopology, expected: 'a topology container', search: 'none' });
  readonly topology2 = this.initLink({ name: 'topology2', help: 'link to the second topology container', accepts: isTopology, expected: 'a topology container', search: 'none' });

  /** λ of each pair at the end of the previous solve (3 per pair), the next warm start. */
  private prevForces = new Float64Array(0);
  private firstRow = 0;
  /** Checkpoint: the warm start. */
  readonly checkpointFields = ['prevForces'] as const;

  override init(): void {
    super.init();
    if (this.state1.stateType.name !== 'Vec3d' || this.state2.stateType.name !== 'Vec3d') {
      throw this.error(`Vec3d states are needed (got ${this.state1.stateType.name} and ${this.state2.stateType.name})`);
    }
    this.prevForces = new Float64Array(0);
  }

  /** The indices must name points of the states (checked at each step: states initialise after the root's objects). */
  private checkIndices(n: number): void {
    const m1 = this.firstPoint.value, m2 = this.secondPoint.value;
    const n1 = this.state1.size, n2 = this.state2.size;
    for (let i = 0; i < n; i++) {
      if (m1[i]! >= n1) throw this.error(`first_point ${m1[i]} is out of range (${this.state1.describe()} has ${n1} points)`);
      if (m2[i]! >= n2) throw this.error(`second_point ${m2[i]} is out of range (${this.state2.describe()} has ${n2} points)`);
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
    const m1 = this.firstPoint.value, m2 = this.secondPoint.value;
    const s1 = this.state1, s2 = this.state2;
    for (let pid = 0; pid < n; pid++) {
      const cid = firstRow + 3 * pid;
      J.add(s1, cid, m1[pid]!, EX, -1);
      J.add(s2, cid, m2[pid]!, EX, 1);
      J.add(s1, cid + 1, m1[pid]!, EY, -1);
      J.add(s2, cid + 1, m2[pid]!, EY, 1);
      J.add(s1, cid + 2, m1[pid]!, EZ, -1);
      J.add(s2, cid + 2, m2[pid]!, EZ, 1);
    }
    return 3 * n;
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder, dt: number): void {
    const n = this.pairCount;
    const m1 = this.firstPoint.value, m2 = this.secondPoint.value;
    const rest = this.restVector.value;
    const nRest = rest.length / 3;
    if (order === 'vel') {
      const x1 = this.state1.x, x2 = this.state2.x;
      const v1 = this.state1.vFree, v2 = this.state2.vFree;
      for (let pid = 0; pid < n; pid++) {
        const a = 3 * m1[pid]!, b = 3 * m2[pid]!;
        for (let k = 0; k < 3; k++) {
          let dPos = x2[b + k]! - x1[a + k]!;
          if (pid < nRest) dPos += rest[3 * pid + k]!;
          out[this.firstRow + 3 * pid + k] = v2[b + k]! - v1[a + k]! + dPos / dt;
        }
      }
      return;
    }
    const x1 = this.state1.xFree, x2 = this.state2.xFree;
    for (let pid = 0; pid < n; pid++) {
      const a = 3 * m1[pid]!, b = 3 * m2[pid]!;
      for (let k = 0; k < 3; k++) {
        let d = x2[b + k]! - x1[a + k]!;
        if (pid < nRest) d -= rest[3 * pid + k]!;
        out[this.firstRow + 3 * pid + k] = d;
      }
    }
  }

  getConstraintResolution(out: Array<ConstraintResolution | undefined>): void {
    const n = this.pairCount;
    if (this.prevForces.length !== 3 * n) {
      const p = new Float64Array(3 * n);
      p.set(this.prevForces.subarray(0, Math.min(this.prevForces.length, 3 * n)));
      this.prevForces = p;
    }
    for (let pid = 0; pid < n; pid++) out[this.firstRow + 3 * pid] = new Bilateral3Resolution(this.prevForces, 3 * pid);
  }
}
