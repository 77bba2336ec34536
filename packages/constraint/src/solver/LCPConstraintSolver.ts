import {
  Bool,
  IndexArray,
  Int,
  nonNegative,
  Real,
  RealArray,
  sofaComponent,
  type BaseLagrangianConstraint,
  type CheckpointContext,
  type CheckpointReader,
  type CheckpointRecord,
  type ConstraintBlockInfo,
  type RestoreContext,
} from '@sofa-ts/core';
import type { BaseConstraintCorrection } from '../correction/base-constraint-correction.js';
import { BaseConstraintSolver, type ConstraintStep } from './base-constraint-solver.js';
import { LcpWork, gaussSeidelLcp1, nlcpGaussSeidel, type LcpResult } from './lcp-kernels.js';

/** Forces of the previous step, by constraint and persistent contact id (SOFA's ConstraintBlockBuf). */
interface PreviousBlock {
  nbLines: number;
  /** persistent id → first row of the group in the previous step's λ (−1: gone). */
  readonly rows: Map<number, number>;
}

/**
 * SOFA's LCPConstraintSolver: contacts only, solved as an LCP (mu = 0: one row per contact,
 * gaussSeidelLCP1) or a frictional NLCP (mu > 0: rows in threes, nlcp_gaussseidel), with one
 * friction coefficient `mu` for every contact. With build_lcp the problem is built (W from the
 * constraint corrections); without, only the 3×3 diagonal blocks are, the corrections giving the
 * displacements of the current forces (unbuilt Gauss-Seidel, SOFA's semantics of the corrections
 * unless consistentWithBuilt: see BaseConstraintCorrection.resetForUnbuiltResolution). initial_guess starts each contact from
 * its force of the previous step, matched by its persistent id. The problem is posed on positions and
 * velocities; λ corrects the motion through each correction (SOFA's applyContactForce).
 * The multigrid variant (multi_grid) is not provided.
 */
@sofaComponent({
  name: 'LCPConstraintSolver',
  category: 'ConstraintSolver',
  module: 'Sofa.Component.Constraint.Lagrangian.Solver',
  description: 'A Constraint Solver using the Linear Complementarity Problem formulation to solve BaseConstraint based components.',
})
export class LCPConstraintSolver extends BaseConstraintSolver {
  readonly displayDebug = this.initData({ name: 'displayDebug', type: Bool, default: false, help: 'display debug information' });
  readonly initialGuess = this.initData({
    name: 'initial_guess',
    type: Bool,
    default: true,
    help: 'activate LCP results history to improve its resolution performances',
  });
  readonly buildLcp = this.initData({
    name: 'build_lcp',
    type: Bool,
    default: true,
    help: 'LCP is not fully built to increase performance in some case',
  });
  readonly tolerance = this.initData({
    name: 'tolerance',
    type: Real,
    default: 0.001,
    range: nonNegative,
    help: 'residual error threshold for termination of the Gauss-Seidel algorithm',
  });
  readonly maxIt = this.initData({
    name: 'maxIt',
    type: Int,
    default: 1000,
    range: nonNegative,
    help: 'maximal number of iterations of the Gauss-Seidel algorithm',
    aliases: ['maxIterations'],
  });
  readonly regularizationTerm = this.initData({
    name: 'regularizationTerm',
    type: Real,
    default: 0,
    range: nonNegative,
    help: 'add regularization factor times the identity matrix to the compliance W when solving constraints',
  });
  readonly mu = this.initData({ name: 'mu', type: Real, default: 0.6, range: nonNegative, help: 'friction coefficient' });
  readonly minW = this.initData({
    name: 'minW',
    type: Real,
    default: 0,
    range: nonNegative,
    help: 'if not zero, constraints whose self-compliance (i.e. the corresponding value on the diagonal of W) is smaller than this threshold will be ignored',
  });
  readonly maxF = this.initData({
    name: 'maxF',
    type: Real,
    default: 0,
    range: nonNegative,
    help: 'if not zero, constraints whose response force becomes larger than this threshold will be ignored',
  });
  readonly multiGrid = this.initData({
    name: 'multi_grid',
    type: Bool,
    default: false,
    help: 'activate multi_grid resolution (not provided by sofa-ts: refused)',
  });
  readonly multiGridLevels = this.initData({
    name: 'multi_grid_levels',
    type: Int,
    default: 2,
    help: 'if multi_grid is active: how many levels to create (>=2)',
  });
  readonly mergeMethod = this.initData({
    name: 'merge_method',
    type: Int,
    default: 0,
    help: 'if multi_grid is active: which method to use to merge constraints (0 = compliance-based, 1 = spatial coordinates)',
  });
  readonly mergeSpatialStep = this.initData({
    name: 'merge_spatial_step',
    type: Int,
    default: 2,
    help: 'if merge_method is 1: grid size reduction between multigrid levels',
  });
  readonly mergeLocalLevels = this.initData({
    name: 'merge_local_levels',
    type: Int,
    default: 2,
    help: 'if merge_method is 1: up to the specified level of the multigrid, constraints are grouped locally',
  });
  readonly constraintForces = this.initData({
    name: 'constraintForces',
    type: RealArray(0),
    default: new Float64Array(0),
    help: 'constraint forces of the last step (stored only if computeConstraintForces)',
    output: true,
  });
  readonly computeConstraintForces = this.initData({
    name: 'computeConstraintForces',
    type: Bool,
    default: false,
    help: 'enable the storage of the constraintForces',
  });
  readonly group = this.initData({
    name: 'group',
    type: IndexArray(1, 'set<int>'),
    default: Uint32Array.of(0),
    help: 'list of ID of groups of constraints to be handled by this solver (not provided: the solver handles every constraint; a warning says so when set to other groups)',
  });
  readonly showLevels = this.initData({
    name: 'showLevels',
    type: Int,
    default: 0,
    help: 'number of constraint levels to display',
    group: 'Visualization',
  });
  readonly showCellWidth = this.initData({
    name: 'showCellWidth',
    type: Real,
    default: 0,
    help: 'distance between each constraint cells',
    group: 'Visualization',
  });
  readonly showTranslation = this.initData({
    name: 'showTranslation',
    type: RealArray(3, 'Vec3d'),
    default: new Float64Array(3),
    help: 'position of the first cell',
    group: 'Visualization',
  });
  readonly showLevelTranslation = this.initData({
    name: 'showLevelTranslation',
    type: RealArray(3, 'Vec3d'),
    default: new Float64Array(3),
    help: 'translation between levels',
    group: 'Visualization',
  });
  readonly currentIterations = this.initData({
    name: 'currentIterations',
    type: Int,
    default: 0,
    help: 'iterations of the last solve',
    output: true,
  });
  readonly currentError = this.initData({
    name: 'currentError',
    type: Real,
    default: 0,
    help: 'error at the end of the last solve',
    output: true,
  });
  readonly consistentWithBuilt = this.initData({
    name: 'consistentWithBuilt',
    type: Bool,
    default: false,
    help: "sofa-ts (build_lcp=0 only): the corrections start from the displacement of the initial guess and UncoupledConstraintCorrection's compliance is scaled like the built W, so that the unbuilt sweeps are the built ones; false: SOFA's unbuilt resolution (the displacement starts at zero whatever the initial guess, a point's only computed when a row on it changes its force; the uncoupled compliance without the ODE solver's integration factor)",
  });

  private readonly work = new LcpWork();
  private readonly infos: ConstraintBlockInfo[] = [];
  private readonly previous = new Map<BaseLagrangianConstraint | object, PreviousBlock>();
  private previousForces = new Float64Array(0);
  /** Unbuilt resolution: per contact, its first two corrections. */
  private cc1: Array<BaseConstraintCorrection | undefined> = [];
  private cc2: Array<BaseConstraintCorrection | undefined> = [];
  private readonly d3 = new Float64Array(3);
  private readonly f3 = new Float64Array(3);

  override init(): void {
    const g = this.group.value;
    if (!(g.length === 1 && g[0] === 0))
      this.warnAbout(
        this.group,
        `group=${Array.from(g).join(' ')} is not honoured: this solver handles every constraint of the scene, whatever its group`,
      );
    if (this.multiGrid.value)
      throw this.error('multi_grid is not provided by sofa-ts', 'remove multi_grid (the Gauss-Seidel resolution is used)');
  }

  solveConstraint(step: ConstraintStep): void {
    const t0 = performance.now();
    // the LCP solver always poses the problem on positions and velocities
    const s: ConstraintStep = { ...step, order: 'posAndVel' };
    const p = this.problem;
    const n = this.buildProblem(s, false);
    if (this.buildLcp.value) {
      this.buildCompliance(s, this.regularizationTerm.value);
    }
    const guess = this.initialGuess.value;
    if (guess && n !== 0) this.computeInitialGuess(n);
    const mu = this.mu.value;
    let res: LcpResult;
    if (this.buildLcp.value) {
      res =
        mu > 0
          ? nlcpGaussSeidel(
              n,
              p.dfree,
              p.W,
              p.force,
              mu,
              this.tolerance.value,
              this.maxIt.value,
              guess,
              this.work,
              this.minW.value,
              this.maxF.value,
            )
          : gaussSeidelLcp1(n, p.dfree, p.W, p.force, this.tolerance.value, this.maxIt.value, this.work, this.minW.value, this.maxF.value);
    } else {
      res = mu > 0 ? this.nlcpUnbuilt(s) : this.lcpUnbuilt(s);
    }
    this.currentIterations.value = res.iterations;
    this.currentError.value = res.error;
    if (this.computeConstraintForces.value) this.constraintForces.value = Float64Array.from(p.force);
    if (guess) this.keepContactForces(n);
    this.applyCorrection(s, p.force);
    this.lastStats = { iterations: res.iterations, residual: res.error, timeMs: performance.now() - t0 };
  }

  /**
   * Checkpoint: the forces of the last solve and, per constraint still in the scene, the row of
   * each persistent id in them (the initial guess of the next solve). Constraints gone from the
   * scene are never asked for again and are left out.
   */
  checkpointState(ctx: CheckpointContext): CheckpointRecord {
    const blocks: CheckpointRecord[] = [];
    for (const [owner, buf] of this.previous) {
      if (!ctx.knows(owner)) continue;
      blocks.push({
        owner: ctx.keyOf(owner as BaseLagrangianConstraint),
        nbLines: buf.nbLines,
        ids: Float64Array.from(buf.rows.keys()),
        rows: Float64Array.from(buf.rows.values()),
      });
    }
    return { previousForces: this.previousForces, blocks };
  }

  restoreState(saved: CheckpointReader, ctx: RestoreContext): void {
    this.previousForces = saved.array('previousForces', Float64Array).slice();
    this.previous.clear();
    for (const b of saved.records('blocks')) {
      const ids = b.array('ids', Float64Array),
        rows = b.array('rows', Float64Array);
      const map = new Map<number, number>();
      for (let i = 0; i < ids.length; i++) map.set(ids[i], rows[i]);
      this.previous.set(ctx.objectOf(b.string('owner')), { nbLines: b.number('nbLines'), rows: map });
    }
  }

  /** SOFA's computeInitialGuess: λ = 0, then the previous forces of contacts still there (same constraint, same id). */
  private computeInitialGuess(n: number): void {
    const f = this.problem.force;
    f.fill(0, 0, n);
    this.infos.length = 0;
    for (const c of this.activeConstraints) c.getConstraintInfo(this.infos);
    for (const info of this.infos) {
      const owner = this.ownerOf(info);
      const prev = owner ? this.previous.get(owner) : undefined;
      if (!prev) continue;
      const nbl = Math.min(info.nbLines, prev.nbLines);
      for (let c = 0; c < info.ids.length; c++) {
        const prevIndex = prev.rows.get(info.ids[c]);
        if (prevIndex === undefined || prevIndex < 0 || prevIndex + nbl > this.previousForces.length) continue;
        for (let l = 0; l < nbl; l++) f[info.first + c * info.nbLines + l] = this.previousForces[prevIndex + l];
      }
    }
  }

  /** SOFA's keepContactForcesValue: the forces of this step by constraint and persistent id. */
  private keepContactForces(n: number): void {
    if (this.previousForces.length !== n) this.previousForces = new Float64Array(n);
    this.previousForces.set(this.problem.force.subarray(0, n));
    for (const buf of this.previous.values()) for (const k of buf.rows.keys()) buf.rows.set(k, -1);
    if (n === 0) return;
    for (const info of this.infos) {
      const owner = this.ownerOf(info);
      if (!owner) continue;
      let buf = this.previous.get(owner);
      if (!buf) this.previous.set(owner, (buf = { nbLines: info.nbLines, rows: new Map() }));
      buf.nbLines = info.nbLines;
      for (let c = 0; c < info.ids.length; c++) buf.rows.set(info.ids[c], info.first + c * info.nbLines);
    }
  }

  /** The constraint whose rows start at info.first. */
  private ownerOf(info: ConstraintBlockInfo): BaseLagrangianConstraint | undefined {
    let owner: BaseLagrangianConstraint | undefined;
    for (const c of this.activeConstraints) if (c.constraintIndex.value <= info.first) owner = c;
    return owner;
  }

  /** Per contact (first row), the first two corrections having that row; W's diagonal blocks from them. */
  private linkCorrections(step: ConstraintStep, rowsPerContact: number): number {
    const p = this.problem;
    const corrections = this.corrections(step.graph);
    for (const cc of corrections)
      cc.resetForUnbuiltResolution(step.graph, p.force, p.n, step.order, step.dt, this.consistentWithBuilt.value);
    const numContacts = p.n / rowsPerContact;
    this.cc1.length = numContacts;
    this.cc2.length = numContacts;
    let missing = 0;
    for (let c = 0; c < numContacts; c++) {
      this.cc1[c] = undefined;
      this.cc2[c] = undefined;
      for (const cc of corrections) {
        if (!cc.hasConstraintNumber(rowsPerContact * c)) continue;
        if (this.cc1[c]) this.cc2[c] = cc;
        else this.cc1[c] = cc;
      }
      if (!this.cc1[c]) missing++;
    }
    if (missing > 0 && missing === numContacts)
      throw this.error(
        'none of the contacts has a constraint correction (add one, e.g. UncoupledConstraintCorrection, to the simulated objects)',
      );
    for (let c = 0; c < numContacts; c++) {
      const b = rowsPerContact * c,
        e = b + rowsPerContact - 1;
      this.cc1[c]?.getBlockDiagonalCompliance(p.W, p.n, b, e);
      this.cc2[c]?.getBlockDiagonalCompliance(p.W, p.n, b, e);
    }
    if (this.regularizationTerm.value > Number.EPSILON) p.addRegularization(this.regularizationTerm.value);
    return numContacts;
  }

  /** SOFA's nlcp_gaussseidel_unbuilt. */
  private nlcpUnbuilt(step: ConstraintStep): LcpResult {
    const p = this.problem;
    if (p.n === 0) return { iterations: 0, error: 0, converged: true };
    if (p.n % 3 !== 0)
      throw this.error(
        `a frictional contact problem has 3 rows per contact (got ${p.n} rows): with mu > 0 every constraint must be a frictional contact`,
      );
    const numContacts = this.linkCorrections(step, 3);
    const n = p.n,
      W = p.W,
      f = p.force,
      dfree = p.dfree,
      d = p.d;
    for (let c = 0; c < numContacts; c++) {
      const r = 3 * c;
      this.work
        .block(c)
        .compute(W[r * n + r], W[r * n + r + 1], W[r * n + r + 2], W[(r + 1) * n + r + 1], W[(r + 1) * n + r + 2], W[(r + 2) * n + r + 2]);
    }
    const mu = this.mu.value,
      tol = this.tolerance.value;
    const d3 = this.d3,
      f3 = this.f3;
    let error = 0;
    let it = 0;
    for (; it < this.maxIt.value; it++) {
      error = 0;
      for (let c = 0; c < numContacts; c++) {
        const r = 3 * c;
        d[r] = dfree[r];
        d[r + 1] = dfree[r + 1];
        d[r + 2] = dfree[r + 2];
        const fn0 = f[r];
        this.cc1[c]?.addConstraintDisplacement(d, r, r + 2);
        this.cc2[c]?.addConstraintDisplacement(d, r, r + 2);
        d3[0] = d[r];
        d3[1] = d[r + 1];
        d3[2] = d[r + 2];
        f3[0] = f[r];
        f3[1] = f[r + 1];
        f3[2] = f[r + 2];
        this.work.blocks[c].newGsState(mu, d3, f3);
        const e0 = d3[0] - d[r],
          e1 = d3[1] - d[r + 1],
          e2 = d3[2] - d[r + 2];
        error += Math.sqrt(e0 * e0 + e1 * e1 + e2 * e2);
        const update = !(fn0 === 0 && f3[0] === 0);
        f[r] = f3[0] - f[r];
        f[r + 1] = f3[1] - f[r + 1];
        f[r + 2] = f3[2] - f[r + 2];
        if (update) {
          this.cc1[c]?.setConstraintDForce(f, r, r + 2, true);
          this.cc2[c]?.setConstraintDForce(f, r, r + 2, true);
        }
        f[r] = f3[0];
        f[r + 1] = f3[1];
        f[r + 2] = f3[2];
      }
      if (error < tol * (numContacts + 1)) return { iterations: it + 1, error, converged: true };
    }
    return { iterations: it, error, converged: false };
  }

  /** SOFA's lcp_gaussseidel_unbuilt (frictionless). */
  private lcpUnbuilt(step: ConstraintStep): LcpResult {
    const p = this.problem;
    if (p.n === 0) return { iterations: 0, error: 0, converged: true };
    const numContacts = this.linkCorrections(step, 1);
    const n = p.n,
      W = p.W,
      f = p.force,
      dfree = p.dfree,
      d = p.d;
    const tol = this.tolerance.value;
    let error = 0;
    let it = 0;
    for (; it < this.maxIt.value; it++) {
      error = 0;
      for (let c = 0; c < numContacts; c++) {
        d[c] = dfree[c];
        const fn0 = f[c];
        let fn = fn0;
        this.cc1[c]?.addConstraintDisplacement(d, c, c);
        this.cc2[c]?.addConstraintDisplacement(d, c, c);
        const w = W[c * n + c];
        fn -= d[c] / w;
        if (fn < 0) fn = 0;
        error += Math.abs(w * (fn - fn0));
        if (fn0 !== 0 || fn !== 0) {
          f[c] = fn - fn0;
          this.cc1[c]?.setConstraintDForce(f, c, c, true);
          this.cc2[c]?.setConstraintDForce(f, c, c, true);
        }
        f[c] = fn;
      }
      if (error < tol * (numContacts + 1)) return { iterations: it + 1, error, converged: true };
    }
    return { iterations: it, error, converged: false };
  }
}
