import { Bool, Int, nonNegative, numberRange, Real, RealArray } from '@sofa-ts/core';
import { BaseConstraintSolver, type ConstraintStep } from './base-constraint-solver.js';
import type { ConstraintProblem } from './constraint-problem.js';
import { GaussSeidelWork, type GaussSeidelOptions, type SolveResult } from './gauss-seidel.js';

/**
 * The Data and the step of SOFA's GenericConstraintSolver family (BlockGaussSeidel, UnbuiltGaussSeidel,
 * NNCG constraint solvers): build the problem (W from the corrections, or only its diagonal
 * blocks for the unbuilt variants), solve it with the subclass's method, correct the motion, and
 * publish the statistics and (computeConstraintForces) the λ of the step.
 */
export abstract class GenericConstraintSolverBase extends BaseConstraintSolver {
  readonly maxIterations = this.initData({
    name: 'maxIterations',
    type: Int,
    default: 1000,
    range: nonNegative,
    help: 'maximal number of iterations of the iterative algorithm',
    aliases: ['maxIt'],
  });
  readonly tolerance = this.initData({
    name: 'tolerance',
    type: Real,
    default: 0.001,
    range: nonNegative,
    help: 'residual error threshold for termination of the Gauss-Seidel algorithm',
  });
  readonly sor = this.initData({
    name: 'sor',
    type: Real,
    default: 1,
    range: numberRange('in (0, 2]', (x) => x > 0 && x <= 2),
    help: 'Successive Over Relaxation parameter (0-2)',
  });
  readonly regularizationTerm = this.initData({
    name: 'regularizationTerm',
    type: Real,
    default: 0,
    range: nonNegative,
    help: 'add regularization factor times the identity matrix to the compliance W when solving constraints',
  });
  readonly scaleTolerance = this.initData({
    name: 'scaleTolerance',
    type: Bool,
    default: true,
    help: 'scale the error tolerance with the number of constraints',
  });
  readonly allVerified = this.initData({
    name: 'allVerified',
    type: Bool,
    default: false,
    help: "all constraints must be verified (each constraint's error < tolerance)",
  });
  readonly computeGraphs = this.initData({
    name: 'computeGraphs',
    type: Bool,
    default: false,
    help: 'compute graphs of errors and forces during resolution (accepted; sofa-ts keeps the last errors in currentError)',
  });
  readonly multithreading = this.initData({
    name: 'multithreading',
    type: Bool,
    default: false,
    help: 'build compliances concurrently (accepted; sofa-ts builds them in turn)',
  });
  readonly useSVDForRegularization = this.initData({
    name: 'useSVDForRegularization',
    type: Bool,
    default: false,
    help: 'regularize only the constraints of the null space of W found by SVD (accepted; the regularization is added to every row)',
  });
  readonly computeConstraintForces = this.initData({
    name: 'computeConstraintForces',
    type: Bool,
    default: false,
    help: 'enable the storage of the constraintForces',
  });
  readonly constraintForces = this.initData({
    name: 'constraintForces',
    type: RealArray(0),
    default: new Float64Array(0),
    help: 'constraint forces λ of the last step (stored only if computeConstraintForces)',
    output: true,
  });
  readonly currentNumConstraints = this.initData({
    name: 'currentNumConstraints',
    type: Int,
    default: 0,
    help: 'current number of constraints',
    output: true,
  });
  readonly currentNumConstraintGroups = this.initData({
    name: 'currentNumConstraintGroups',
    type: Int,
    default: 0,
    help: 'current number of constraint groups',
    output: true,
  });
  readonly currentIterations = this.initData({
    name: 'currentIterations',
    type: Int,
    default: 0,
    help: 'current number of iterations',
    output: true,
  });
  readonly currentError = this.initData({ name: 'currentError', type: Real, default: 0, help: 'current error', output: true });

  protected readonly work = new GaussSeidelWork();

  /** True when W is assembled in full (false: only its diagonal blocks, the corrections giving displacements). */
  protected get built(): boolean {
    return true;
  }

  override init(): void {
    if (this.maxIterations.value < 0) throw this.error(`maxIterations must be >= 0 (got ${this.maxIterations.value})`);
    if (!(this.tolerance.value >= 0)) throw this.error(`tolerance must be >= 0 (got ${this.tolerance.value})`);
  }

  get options(): GaussSeidelOptions {
    return {
      maxIterations: this.maxIterations.value,
      tolerance: this.tolerance.value,
      sor: this.sor.value,
      scaleTolerance: this.scaleTolerance.value,
      allVerified: this.allVerified.value,
    };
  }

  solveConstraint(step: ConstraintStep): void {
    const t0 = performance.now();
    this.buildProblem(step, true);
    if (this.built) this.buildCompliance(step, this.regularizationTerm.value);
    else this.prepareUnbuilt(step);
    const res = this.doSolve(this.problem, step);
    this.currentError.value = res.error;
    this.currentIterations.value = res.iterations;
    this.currentNumConstraints.value = this.problem.n;
    this.currentNumConstraintGroups.value = this.problem.groupCount;
    if (this.computeConstraintForces.value) this.constraintForces.value = Float64Array.from(this.problem.force);
    this.applyCorrection(step, this.problem.force);
    this.lastStats = { iterations: res.iterations, residual: res.error, timeMs: performance.now() - t0 };
  }

  /** The unbuilt variants build the diagonal blocks of W and prepare the corrections. */
  protected prepareUnbuilt(_step: ConstraintStep): void {}

  /** Solves the built problem (λ in problem.force on return). */
  protected abstract doSolve(p: ConstraintProblem, step: ConstraintStep): SolveResult;
}
