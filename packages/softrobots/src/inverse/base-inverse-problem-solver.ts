import { Int, Real } from '@sofa-ts/core';
import {
  Bilateral3Resolution,
  BilateralResolution,
  BaseConstraintSolver,
  FrictionContactResolution,
  UnilateralResolution,
  type ConstraintStep,
} from '@sofa-ts/constraint';
import type { BaseLagrangianConstraint } from '@sofa-ts/core';
import { EFFECTOR, EQUALITY, InverseRows, isInverseConstraint, type InverseConstraint } from './inverse-rows.js';

/** Milliseconds of the phases of one inverse step (the free motion is timed by the animation loop). */
export interface InverseTimings {
  /** J and δ_free of every row. */
  build: number;
  /** W = J·A⁻¹·Jᵀ from the constraint corrections. */
  compliance: number;
  /** The inverse solve (QP or Gauss-Seidel). */
  solve: number;
  /** Step III: x = x_free + A⁻¹Jᵀλ, v likewise, and the components' outputs. */
  correction: number;
}

/** What an inverse method returns: λ and δ = δ_free + W·λ of every row. */
export interface InverseSolution {
  readonly lambda: Float64Array;
  readonly delta: Float64Array;
  readonly objective: number;
  readonly iterations: number;
}

/**
 * The step of the real-time inverse method, shared by its solvers (Coevoet, Duriez et al.):
 *   Step I   (the FreeMotionAnimationLoop's free motion) gives δ_free of every row: the actuators'
 *            displacements and the effectors' shifts to their goals at the free positions;
 *   Step II  W = J·A⁻¹·Jᵀ from the constraint corrections, and the inverse problem solved for the
 *            actuation λ (the subclass's method);
 *   Step III x = x_free + A⁻¹Jᵀλ (and v), by the constraint corrections; the components publish
 *            their outputs (force, displacement, delta).
 * The Lagrangian constraints of the step are inverse components (actuators, effectors, equalities)
 * and, for solvers that accept them, the scene's contacts (unilateral, with or without friction)
 * and bilateral constraints (equalities δ = 0); `timings` splits the step for benchmarks.
 */
export abstract class BaseInverseProblemSolver extends BaseConstraintSolver {
  readonly objective = this.initData({
    name: 'objective',
    type: Real,
    default: 0,
    help: 'objective at the solution of the last step: ½ Σ weight·δe² (plus the energy term of the QP)',
    output: true,
  });
  readonly currentIterations = this.initData({
    name: 'currentIterations',
    type: Int,
    default: 0,
    help: 'iterations of the inverse solve in the last step',
    output: true,
  });
  readonly solveTime = this.initData({
    name: 'solveTime',
    type: Real,
    default: 0,
    unit: 'ms',
    help: 'time spent in the inverse solve of the last step (milliseconds)',
    output: true,
  });

  readonly rows = new InverseRows();
  readonly timings: InverseTimings = { build: 0, compliance: 0, solve: 0, correction: 0 };
  private readonly inverse: InverseConstraint[] = [];

  /** Solves the inverse problem of the step (W n × n, δ_free, the rows' roles and bounds). */
  protected abstract solveInverse(W: Float64Array, dfree: Float64Array, n: number, rows: InverseRows): InverseSolution;

  /** True when contacts and bilateral constraints may take part in the problem. */
  protected get acceptsContacts(): boolean {
    return false;
  }

  /** True when the problem may have no effector (QP's actuatorsOnly). */
  protected get allowsNoEffector(): boolean {
    return false;
  }

  solveConstraint(step: ConstraintStep): void {
    if (step.order === 'vel')
      throw this.error('the inverse problem is posed on positions: set solveVelocityConstraintFirst="0" on the FreeMotionAnimationLoop');
    const start = performance.now();
    const n = this.buildProblem(step, false);
    this.collectRows(step);
    const t1 = performance.now();
    this.buildCompliance(step, 0);
    const t2 = performance.now();
    const p = this.problem;
    const sol = this.solveInverse(p.W, p.dfree, n, this.rows);
    const t3 = performance.now();
    p.force.set(sol.lambda.subarray(0, n));
    this.applyCorrection(step, p.force);
    for (const c of this.inverse) c.storeResults(sol.lambda, sol.delta, step.dt);
    const t4 = performance.now();
    const tm = this.timings;
    tm.build = t1 - start;
    tm.compliance = t2 - t1;
    tm.solve = t3 - t2;
    tm.correction = t4 - t3;
    this.objective.value = sol.objective;
    this.currentIterations.value = sol.iterations;
    this.solveTime.value = t3 - t2;
    this.lastStats = { iterations: sol.iterations, residual: sol.objective, timeMs: t4 - start };
  }

  /** Roles and bounds of every row from the inverse components; anything else is refused. */
  private collectRows(step: ConstraintStep): void {
    const n = this.problem.n;
    this.rows.reset(n);
    this.inverse.length = 0;
    const list = this.activeConstraints;
    for (let k = 0; k < list.length; k++) {
      const c = list[k];
      if (isInverseConstraint(c)) {
        c.getInverseRows(this.rows, step.dt);
        this.inverse.push(c);
      } else {
        this.addOtherConstraint(c, step, k + 1 < list.length ? list[k + 1].constraintIndex.value : n);
      }
    }
    if (this.allowsNoEffector || n === 0) return;
    for (let i = 0; i < n; i++) if (this.rows.role[i] === EFFECTOR || this.rows.role[i] === EQUALITY) return;
    throw this.error(
      'the inverse problem has no effector (and no equality)',
      'add an effector (e.g. PositionEffector), or set actuatorsOnly="1" on a QPInverseProblemSolver',
    );
  }

  /** A contact or bilateral constraint of the scene (rows first .. end − 1): its rows join the problem by their resolution's kind. */
  private addOtherConstraint(c: BaseLagrangianConstraint, step: ConstraintStep, end: number): void {
    const refuse = (): never => {
      throw this.error(
        `${c.describe()} is not an actuator, effector, equality, contact or bilateral constraint: ${this.describe()} cannot solve it`,
      );
    };
    if (!this.acceptsContacts) refuse();
    const res = this.problem.resolutions;
    c.getConstraintResolution(res, step.order);
    for (let i = c.constraintIndex.value; i < end;) {
      const r = res[i] ?? refuse();
      if (r instanceof BilateralResolution || r instanceof Bilateral3Resolution) {
        for (let k = 0; k < r.nbLines; k++) this.rows.setEqualityOnDisplacement(i + k, 0);
      } else if (r instanceof UnilateralResolution) {
        this.rows.addContact(i, 1, 0);
      } else if (r instanceof FrictionContactResolution) {
        this.rows.addContact(i, 3, r.mu);
      } else {
        refuse();
      }
      i += r.nbLines;
    }
  }
}
