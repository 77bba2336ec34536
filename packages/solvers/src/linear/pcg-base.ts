import { Bool, Int, nonNegative, positive, Real, type CheckpointReader, type CheckpointRecord, type SolverStats } from '@sofa-ts/core';
import { LinearSolver, type MBKFactors, type MechanicalSystem } from '@sofa-ts/assembly';
import { csrClone, spmv, type CsrMatrix, type LinearOperator, type Preconditioner } from '@sofa-ts/linalg';
import { isMatrixLinearSolver, type MatrixLinearSolver } from './matrix-linear-solver.js';
import { isPreconditionedMatrixFreeSystem, type PreconditionedMatrixFreeSystem } from './PreconditionedMatrixFreeSystem.js';
import { PcgWorkspace, flatDot, groupedDot, sofaPcg, type DotProduct, type PcgResult } from './pcg-iteration.js';

/**
 * Common part of SOFA's PCGLinearSolver and ShewchukPCGLinearSolver: the preconditioned conjugate
 * gradient of {@link sofaPcg} on A = P(m·M + b·B + k·K)P, matrix-free over the scene graph
 * (GraphScattered) or on the assembled matrix, preconditioned by the linear solver linked as
 * `preconditioner` (any assembled solver: Jacobi, block Jacobi, SSOR, a direct solver...). The
 * preconditioner's matrix is assembled and inverted at the first solve and then every
 * `update_step` solves, or, when a PreconditionedMatrixFreeSystem is its linear system (SOFA's
 * design), every `assemblingRate` solves of that system. Without a preconditioner (or
 * use_precond = false) it is a plain CG.
 */
export abstract class PcgLinearSolverBase extends LinearSolver {
  readonly iterations = this.initData({
    name: 'iterations',
    type: Int,
    default: 25,
    range: nonNegative,
    help: 'largest number of conjugate gradient updates per solve',
  });
  readonly tolerance = this.initData({
    name: 'tolerance',
    type: Real,
    default: 1e-5,
    range: nonNegative,
    help: 'stop once the preconditioned squared residual rᵀM⁻¹r falls to tolerance·|b|²',
  });
  readonly usePrecond = this.initData({
    name: 'use_precond',
    type: Bool,
    default: true,
    help: 'apply the linked preconditioner (false: plain conjugate gradient)',
  });
  readonly updateStep = this.initData({
    name: 'update_step',
    type: Int,
    default: 1,
    range: positive,
    help: 'the preconditioner matrix is rebuilt every this many solves (1: at every solve)',
    aliases: ['assemblingRate'],
  });
  readonly buildPrecond = this.initData({
    name: 'build_precond',
    type: Bool,
    default: true,
    help: 'rebuild the preconditioner every update_step solves; false: build it once, at the first solve',
  });
  readonly preconditioner = this.initLink<MatrixLinearSolver>({
    name: 'preconditioner',
    help: 'assembled linear solver whose solve serves as the preconditioner (none: plain conjugate gradient)',
    accepts: isMatrixLinearSolver,
    expected: 'an assembled linear solver (JacobiPreconditioner, BlockJacobiPreconditioner, SSORPreconditioner, a direct solver...)',
  });

  readonly linearSystem = this.initLink<PreconditionedMatrixFreeSystem>({
    name: 'linearSystem',
    help: 'the matrix-free linear system deciding when the preconditioner matrix is rebuilt (default: the one of this node, if any)',
    accepts: isPreconditionedMatrixFreeSystem,
    expected: 'a PreconditionedMatrixFreeSystem',
    search: 'local',
  });

  private ws: PcgWorkspace | undefined;
  private readonly result: PcgResult = { iterations: 0, residual: 0 };
  /** Solves since the preconditioner matrix was last refreshed (SOFA's counter). */
  private sinceRefresh = 0;
  private refreshed = false;
  private sys: MechanicalSystem | undefined;
  private factors: MBKFactors = { m: 0, b: 0, k: 0 };
  private A: CsrMatrix | undefined;
  private dotFor: { sys: MechanicalSystem; dot: DotProduct } | undefined;
  /**
   * The matrix the preconditioner was last built from, copied when it is kept for later solves
   * (update_step > 1, or build_precond off): what a checkpoint saves. After a restore, `pending`
   * is given to the preconditioner at the next solve that does not refresh it.
   */
  private precondMatrix: CsrMatrix | undefined;
  private pending: CsrMatrix | undefined;
  private readonly applyGraph: LinearOperator = (out, p) => this.sys!.applyMBK(out, this.factors, p);
  private readonly applyAssembled: LinearOperator = (out, p) => {
    spmv(out, this.A!, p);
  };
  private readonly applyPrecond: Preconditioner = (out, r) => this.preconditioner.get()!.solveMatrix(out, r);

  get assembled(): boolean {
    return this.template !== '' && this.template !== 'GraphScattered';
  }

  override init(): void {
    if (this.iterations.value < 0) throw this.error(`iterations must be >= 0 (got ${this.iterations.value})`);
    this.sinceRefresh = 0;
    this.refreshed = false;
  }

  override reset(): void {
    this.sinceRefresh = 0;
    this.refreshed = false;
  }

  solveSystem(system: MechanicalSystem, factors: MBKFactors, rhs: Float64Array, out: Float64Array): SolverStats {
    const t0 = performance.now();
    if (!this.ws || this.ws.n !== rhs.length) this.ws = new PcgWorkspace(rhs.length);
    this.sys = system;
    this.factors = factors;
    let apply = this.applyGraph;
    let dot: DotProduct = flatDot;
    if (this.assembled) {
      this.A = system.assembleMBK(factors);
      apply = this.applyAssembled;
    } else {
      if (this.dotFor?.sys !== system) {
        const groups = system.masters.map((m) => ({ offset: m.offset, length: m.derivLength, derivSize: m.state.stateType.derivSize }));
        this.dotFor = { sys: system, dot: groupedDot(groups) };
      }
      dot = this.dotFor.dot;
    }
    const pre = this.preconditioner.get();
    const usePre = pre !== undefined && this.usePrecond.value;
    if (usePre && this.refreshDue()) {
      const M = this.A ?? system.assembleMBK(factors);
      pre.setMatrix(M);
      this.pending = undefined;
      if (this.keepsPreconditioner) this.keepPrecondMatrix(M);
    } else if (usePre && this.pending) {
      pre.setMatrix(this.pending);
      this.precondMatrix = this.pending;
      this.pending = undefined;
    }
    const res = sofaPcg(
      apply,
      usePre ? this.applyPrecond : undefined,
      rhs,
      out,
      this.iterations.value,
      this.tolerance.value,
      this.ws,
      this.result,
      dot,
    );
    this.A = undefined;
    return { iterations: res.iterations, residual: res.residual, timeMs: performance.now() - t0 };
  }

  /** The preconditioner serves more than the solve that built it. */
  private get keepsPreconditioner(): boolean {
    const sys = this.linearSystem.get();
    if (sys) return sys.assemblingRate.value !== 1;
    return !this.buildPrecond.value || this.updateStep.value !== 1;
  }

  private keepPrecondMatrix(M: CsrMatrix): void {
    const P = this.precondMatrix;
    if (P && P.rowPtr.length === M.rowPtr.length && P.values.length === M.values.length) {
      P.rowPtr.set(M.rowPtr);
      P.colInd.set(M.colInd);
      P.values.set(M.values);
    } else this.precondMatrix = csrClone(M);
  }

  /** Checkpoint: the refresh counters and, when it is kept across solves, the preconditioner's matrix. */
  checkpointState(): CheckpointRecord {
    const P = this.pending ?? this.precondMatrix;
    return {
      sinceRefresh: this.sinceRefresh,
      refreshed: this.refreshed,
      ...(P && this.keepsPreconditioner
        ? { precond: { rows: P.rows, cols: P.cols, rowPtr: P.rowPtr, colInd: P.colInd, values: P.values } }
        : {}),
    };
  }

  restoreState(saved: CheckpointReader): void {
    this.sinceRefresh = saved.number('sinceRefresh');
    this.refreshed = saved.bool('refreshed');
    if (saved.has('precond')) {
      const p = saved.sub('precond');
      this.pending = {
        rows: p.number('rows'),
        cols: p.number('cols'),
        rowPtr: p.array('rowPtr', Int32Array),
        colInd: p.array('colInd', Int32Array),
        values: p.array('values', Float64Array),
      };
    }
  }

  /** Whether this solve refreshes the preconditioner: the first one, then every update_step. */
  private refreshDue(): boolean {
    const sys = this.linearSystem.get();
    if (sys) return sys.rebuildDue();
    if (!this.refreshed) {
      this.refreshed = true;
      this.sinceRefresh = 1;
      return true;
    }
    if (!this.buildPrecond.value || this.updateStep.value <= 0) return false;
    if (this.sinceRefresh >= this.updateStep.value) {
      this.sinceRefresh = 1;
      return true;
    }
    this.sinceRefresh++;
    return false;
  }
}
