import { Bool, Int, Real, sofaComponent, type CheckpointReader, type CheckpointRecord } from '@sofa-ts/core';
import { BaseInverseProblemSolver, type InverseSolution } from './base-inverse-problem-solver.js';
import { InverseQp } from './inverse-qp.js';
import type { InverseRows } from './inverse-rows.js';

const statuses = ['optimal', 'infeasible', 'unbounded', 'iteration-limit', 'non-convex'] as const;

/**
 * SoftRobots' QPInverseProblemSolver: the inverse step of BaseInverseProblemSolver with the
 * quadratic program of inverse-qp.ts (least squares of the effector shifts + ε·deformation energy,
 * the actuators' force and displacement bounds, the equalities), solved by the dense active-set
 * QP of @sofa-ts/linalg, warm-started from the previous step; contacts and bilateral constraints
 * of the scene are solved with it (see inverse-qp.ts for the contact statuses). When the QP has no solution
 * (infeasible bounds and equalities) `status` says so and λ = 0 is applied.
 */
@sofaComponent({
  name: 'QPInverseProblemSolver',
  category: 'ConstraintSolver',
  module: 'SoftRobots.Inverse',
  description:
    'Finds the actuation that brings the effectors to their goals by a quadratic program in constraint space (real-time inverse method of soft robots).',
})
export class QPInverseProblemSolver extends BaseInverseProblemSolver {
  readonly epsilon = this.initData({
    name: 'epsilon',
    type: Real,
    default: 1e-3,
    help: 'weight ε of the deformation energy λᵀW_aaλ in the objective, relative to ‖W_eaᵀW_ea‖/‖W_aa‖ (0: effector shifts only; > 0 makes the problem strictly convex when actuators outnumber effector directions)',
  });
  readonly actuatorsOnly = this.initData({
    name: 'actuatorsOnly',
    type: Bool,
    default: false,
    help: 'the scene has actuators (and equalities) but no effector: the actuation of least deformation energy that meets the bounds and equalities is applied',
  });
  readonly maxIterations = this.initData({
    name: 'maxIterations',
    type: Int,
    default: 0,
    help: 'maximal number of iterations of the QP solver per solve (0: 100 + 10 × (unknowns + constraints))',
  });
  readonly tolerance = this.initData({
    name: 'tolerance',
    type: Real,
    default: 1e-10,
    help: 'feasibility and optimality tolerance of the QP solver (relative)',
  });
  readonly responseFriction = this.initData({
    name: 'responseFriction',
    type: Real,
    default: 0,
    help: "friction coefficient μ of every contact in the inverse problem (when not set: each contact's own μ)",
  });
  readonly allowSliding = this.initData({
    name: 'allowSliding',
    type: Bool,
    default: false,
    help: 'contacts with friction may slide when the force leaves their Coulomb cone (false: they stick)',
  });
  readonly maxContactIterations = this.initData({
    name: 'maxContactIterations',
    type: Int,
    default: 20,
    help: "largest number of QPs per step while the contacts' statuses (open, sticking, sliding) change (sofa-ts)",
  });
  readonly status = this.initData({
    name: 'status',
    type: Int,
    default: 0,
    help: 'outcome of the last QP: 0 optimal, 1 infeasible, 2 unbounded, 3 iteration limit, 4 non-convex (λ = 0 is then applied)',
    output: true,
  });

  readonly qp = new InverseQp();
  /** Outcomes already reported (each is reported once). */
  private readonly warnedStatus = new Set<string>();

  override init(): void {
    if (!(this.epsilon.value >= 0)) throw this.error(`epsilon must be >= 0 (got ${this.epsilon.value})`);
    if (!(this.maxIterations.value >= 0)) throw this.error(`maxIterations must be >= 0 (got ${this.maxIterations.value})`);
    if (!(this.tolerance.value > 0)) throw this.error(`tolerance must be > 0 (got ${this.tolerance.value})`);
  }

  /** Checkpoint: the QP's warm starts. */
  checkpointState(): CheckpointRecord {
    return this.qp.checkpointState();
  }

  restoreState(saved: CheckpointReader): void {
    this.qp.restoreState(saved);
  }

  protected override get acceptsContacts(): boolean {
    return true;
  }

  protected override get allowsNoEffector(): boolean {
    return this.actuatorsOnly.value;
  }

  protected solveInverse(W: Float64Array, dfree: Float64Array, n: number, rows: InverseRows): InverseSolution {
    const qp = this.qp;
    qp.epsilon = this.epsilon.value;
    qp.allowSliding = this.allowSliding.value;
    qp.friction = this.responseFriction.isSet ? this.responseFriction.value : -1;
    qp.maxContactIterations = this.maxContactIterations.value;
    const status = qp.solve(W, dfree, n, rows, this.maxIterations.value, this.tolerance.value);
    this.status.value = statuses.indexOf(status);
    if (status !== 'optimal' && !this.warnedStatus.has(status)) {
      // Once per outcome: the step goes on with λ = 0 (no actuation), as stated by `status`.
      this.warnedStatus.add(status);
      this.warn(
        `the inverse problem was ${status} (status ${this.status.value}) at time ${this.context.getTime()}: no actuation (λ = 0) is applied for that step${status === 'infeasible' ? '; the bounds and equalities cannot all hold' : ''}`,
      );
    }
    return qp;
  }
}
