import { Int, Real, type SolverStats, sofaComponent } from '@sofa-ts/core';
import { LinearSolver, type MBKFactors, type MechanicalSystem } from '@sofa-ts/assembly';
import { spmv, type CsrMatrix, type LinearOperator } from '@sofa-ts/linalg';
import { minres, MinresWorkspace, type MinresResult } from './minres-iteration.js';

/**
 * SOFA's MinResLinearSolver: the MINRES iteration (see {@link minres}) on A = P(m·M + b·B + k·K)P,
 * matrix-free over the scene graph (GraphScattered) or on the assembled matrix. Unlike the
 * conjugate gradient it needs A symmetric only, not positive definite (a system with an indefinite
 * stiffness, e.g. a buckling structure). The vector handed by the ODE solver is the initial guess.
 */
@sofaComponent({
  name: 'MinResLinearSolver',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Iterative',
  description: 'Linear system solver using the MINRES iterative algorithm (symmetric, possibly indefinite systems).',
  templates: ['GraphScattered', 'CompressedRowSparseMatrixd', 'CompressedRowSparseMatrixMat3x3d'],
  defaultTemplate: 'GraphScattered',
})
export class MinResLinearSolver extends LinearSolver {
  readonly iterations = this.initData({ name: 'iterations', type: Int, default: 25, help: 'largest number of iterations' });
  readonly tolerance = this.initData({
    name: 'tolerance',
    type: Real,
    default: 1e-5,
    help: 'stop when |r|/(|A|·|x|) or |A·r|/(|A|·|r|) falls below this',
  });
  readonly graph = this.initData({
    name: 'graph',
    type: Real,
    default: 0,
    output: true,
    help: 'residual estimate |b − A·x| at the end of the last solve',
  });

  private ws: MinresWorkspace | undefined;
  private readonly result: MinresResult = { iterations: 0, residual: 0 };
  private sys: MechanicalSystem | undefined;
  private factors: MBKFactors = { m: 0, b: 0, k: 0 };
  private A: CsrMatrix | undefined;
  private readonly applyGraph: LinearOperator = (out, p) => this.sys!.applyMBK(out, this.factors, p);
  private readonly applyAssembled: LinearOperator = (out, p) => {
    spmv(out, this.A!, p);
  };

  override init(): void {
    if (this.iterations.value < 0) throw this.error(`iterations must be >= 0 (got ${this.iterations.value})`);
  }

  solveSystem(system: MechanicalSystem, factors: MBKFactors, rhs: Float64Array, out: Float64Array): SolverStats {
    const t0 = performance.now();
    if (!this.ws || this.ws.n !== rhs.length) this.ws = new MinresWorkspace(rhs.length);
    this.sys = system;
    this.factors = factors;
    const assembled = this.template !== '' && this.template !== 'GraphScattered';
    if (assembled) this.A = system.assembleMBK(factors);
    const res = minres(
      assembled ? this.applyAssembled : this.applyGraph,
      rhs,
      out,
      this.iterations.value,
      this.tolerance.value,
      this.ws,
      this.result,
    );
    this.A = undefined;
    this.graph.value = res.residual;
    return { iterations: res.iterations, residual: res.residual, timeMs: performance.now() - t0 };
  }
}
