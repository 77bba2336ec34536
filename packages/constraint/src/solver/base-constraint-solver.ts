import {
  BaseObject,
  MAX_DENSE_CONSTRAINT_ROWS,
  Real,
  componentCall,
  type BaseLagrangianConstraint,
  type ConstraintOrder,
  type SolverStats,
} from '@sofa-ts/core';
import { isConstraintCorrection, type BaseConstraintCorrection } from '../correction/base-constraint-correction.js';
import type { ConstraintGraph } from '../graph/constraint-graph.js';
import { ConstraintProblem } from './constraint-problem.js';
import { FrictionResidualWork, frictionResidual } from './friction-residual.js';

/** What a FreeMotionAnimationLoop hands its constraint solver at each step. */
export interface ConstraintStep {
  readonly graph: ConstraintGraph;
  readonly order: ConstraintOrder;
  readonly dt: number;
  /** Time at the start of the step (constraints past their endTime are skipped). */
  readonly time: number;
}

/**
 * A constraint solver (SOFA's ConstraintSolver): at each step of a FreeMotionAnimationLoop, after
 * the free motion, it builds the constraint problem δ = δ_free + W·λ (rows J of the Lagrangian
 * constraints, W from the constraint corrections), solves it for λ and has the corrections move
 * the states: prepareStates → buildSystem → solveSystem → applyCorrection, as SOFA names them.
 */
export abstract class BaseConstraintSolver extends BaseObject {
  readonly isConstraintSolver = true;
  readonly constraintCorrections = this.initLink<BaseConstraintCorrection>({
    name: 'constraintCorrections',
    help: 'constraint corrections handled by this solver (default: every one below its node)',
    accepts: isConstraintCorrection,
    expected: 'constraint corrections',
    search: 'none',
    multi: true,
  });

  /** The problem of the last step (kept for inspection and tests). */
  readonly problem = new ConstraintProblem();
  /** Constraints acting in the last step, in row order. */
  readonly activeConstraints: BaseLagrangianConstraint[] = [];
  lastStats: SolverStats | undefined;
  /** e_rel of the last step's λ (friction-residual.ts), computed when read: a measure of accuracy
   *  common to every solver, for sweeps and benchmarks (`--record /constraintSolver.frictionResidual`). */
  readonly frictionResidual = this.initData({
    name: 'frictionResidual',
    type: Real,
    default: 0,
    help: "relative residual of the last step's friction contacts, the same measure for every solver (friction-residual.ts; computed when read; sofa-ts)",
    output: true,
  });
  private readonly residualWork = new FrictionResidualWork();

  constructor() {
    super();
    // the setter does not run the hook: computed once per read, nothing when nobody reads it
    this.frictionResidual.setReadHook(() => {
      this.frictionResidual.value = this.problem.n > 0 ? frictionResidual(this.problem, this.residualWork) : 0;
    });
  }

  /** Solves the constraints of the step and corrects the free motion. */
  abstract solveConstraint(step: ConstraintStep): void;

  /** The corrections: the `constraintCorrections` link when set, else every correction of the graph (visit order). */
  corrections(graph: ConstraintGraph): readonly BaseConstraintCorrection[] {
    const linked = this.constraintCorrections.getAll();
    if (linked.length > 0) return linked;
    if (this.cachedFor !== graph) {
      this.cached = graph.objects.filter(isConstraintCorrection).filter((c) => c.componentState !== 'invalid');
      this.cachedFor = graph;
    }
    return this.cached;
  }
  private cached: BaseConstraintCorrection[] = [];
  private cachedFor: ConstraintGraph | undefined;

  /**
   * SOFA's buildConstraintMatrix + getConstraintViolation (+ resolutions): J of the step, the
   * free violations δ_free and the resolution of each group. Returns n.
   */
  protected buildProblem(step: ConstraintStep, withResolutions: boolean): number {
    const p = this.problem;
    const n = step.graph.buildJacobian(step.order, step.time, this.activeConstraints);
    // W is dense (n² numbers): a problem past the bound is refused before it is allocated.
    if (n > MAX_DENSE_CONSTRAINT_ROWS) {
      throw this.error(
        `the constraint problem of this step has ${n} rows, above the limit of ${MAX_DENSE_CONSTRAINT_ROWS} rows of a dense compliance matrix`,
        'fewer contacts (a smaller alarmDistance, coarser collision models) or fewer constraints',
      );
    }
    p.resize(n);
    const caller = componentCall.current;
    for (const c of this.activeConstraints) {
      componentCall.current = c;
      c.getConstraintViolation(p.dfree, step.order, step.dt);
    }
    if (withResolutions) {
      for (const c of this.activeConstraints) {
        componentCall.current = c;
        c.getConstraintResolution(p.resolutions, step.order);
      }
      componentCall.current = caller;
      for (let i = 0; i < n;) {
        const r = p.resolutions[i];
        if (!r) throw this.error(`constraint row ${i} was given no resolution by its constraint (${this.ownerOfRow(i)})`);
        i += r.nbLines;
      }
    }
    componentCall.current = caller;
    return n;
  }

  /** W = Σ_corrections J·A⁻¹·Jᵀ (SOFA's BuiltConstraintSolver::doBuildSystem), plus regularization·I. */
  protected buildCompliance(step: ConstraintStep, regularization: number): void {
    const p = this.problem;
    const caller = componentCall.current;
    for (const cc of this.corrections(step.graph)) {
      componentCall.current = cc;
      cc.addComplianceInConstraintSpace(step.graph, p.W, p.n, step.order, step.dt);
    }
    componentCall.current = caller;
    p.addRegularization(regularization);
  }

  /** SOFA's computeAndApplyMotionCorrection: each correction moves its states by A⁻¹·Jᵀ·λ; then the constraints keep λ. */
  protected applyCorrection(step: ConstraintStep, lambda: Float64Array): void {
    // A non-finite λ would spread NaN to every state the corrections touch: refuse it here, where
    // its row and constraint are known.
    const p = this.problem;
    const bad = lambda.subarray(0, p.n).findIndex((x) => !Number.isFinite(x));
    if (bad >= 0) {
      // The row that caused it, when one can be named: a zero or non-finite compliance, a non-finite violation.
      const built = p.W.length === p.n * p.n;
      for (let i = 0; i < p.n; i++) {
        const w = built ? p.W[i * p.n + i] : 1;
        const why =
          w === 0
            ? 'its compliance W_ii is 0 (no constraint correction acts on its states, or projective constraints fix every dof it moves: SOFA divides by this 0 too)'
            : !Number.isFinite(w)
              ? `its compliance W_ii is ${w}`
              : !Number.isFinite(p.dfree[i])
                ? `its violation is ${p.dfree[i]} (non-finite positions)`
                : '';
        if (why)
          throw this.error(
            `the constraint forces are not finite at time ${step.time}: constraint row ${i} (${this.ownerOfRow(i)}): ${why}`,
          );
      }
      throw this.error(`constraint row ${bad} (${this.ownerOfRow(bad)}) got a non-finite force ${lambda[bad]} at time ${step.time}`);
    }
    const caller = componentCall.current;
    for (const cc of this.corrections(step.graph)) {
      componentCall.current = cc;
      cc.computeMotionCorrection(step.graph, lambda, step.order, step.dt);
      cc.applyMotionCorrection(step.graph, step.order, step.dt);
    }
    for (const c of this.activeConstraints) {
      componentCall.current = c;
      c.storeLambda(lambda);
    }
    componentCall.current = caller;
  }

  private ownerOfRow(row: number): string {
    let owner = 'unknown';
    for (const c of this.activeConstraints) if (c.constraintIndex.value <= row) owner = c.describe();
    return owner;
  }
}

export function isConstraintSolver(o: unknown): o is BaseConstraintSolver {
  return typeof o === 'object' && o !== null && (o as { isConstraintSolver?: unknown }).isConstraintSolver === true;
}
