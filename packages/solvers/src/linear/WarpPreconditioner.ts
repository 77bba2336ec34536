import { Int, nonNegative, type CheckpointReader, type CheckpointRecord, type SolverStats, sofaComponent } from '@sofa-ts/core';
import type { MBKFactors, MechanicalSystem } from '@sofa-ts/assembly';
import type { CsrMatrix, SupernodalLDLT } from '@sofa-ts/linalg';
import { MatrixLinearSolver, isMatrixLinearSolver } from './matrix-linear-solver.js';
import { identityRotations, isRotationFinder, relativeRotations, rotateBlocks, type RotationFinder } from './rotation-finder.js';
import { isRotationMatrixSystem, type RotationMatrixSystem } from './RotationMatrixSystem.js';

/** A solver whose inverse is a factorization turned by per-node rotations (the constraint corrections ask). */
interface InnerFactor {
  supernodalFactor?(): SupernodalLDLT | undefined;
}

/**
 * SOFA's WarpPreconditioner: an assembled linear solver (`linearSolver`, e.g. SparseLDLSolver)
 * factorises A_f = A at some steps only (a refresh); in between, the material rotated and the old
 * factorisation is turned with the per-node rotations R = R_now·R_fᵀ since the refresh (R_f the node
 * rotations at the refresh, given by the rotation finder, a corotational force field of the node):
 *   A⁻¹ ≈ R·A_f⁻¹·Rᵀ,   z = R·A_f⁻¹·Rᵀ·r.
 * Between refreshes the system matrix is neither assembled nor factorised (SOFA builds only the
 * rotations then). When is a refresh: with a RotationMatrixSystem in the node (SOFA ≥ v25.12), every
 * `assemblingRate` builds of it; without one, every `update_step` steps (SOFA ≤ v25.06's Data, 0 or
 * 1: every step). A refresh step solves with the linear solver alone (R = I): update_step = 1 gives
 * the linear solver's results to the bit. R is relative to the refresh, as SOFA ≤ v25.06 computed
 * it (the rotations now times the transpose of those kept at the refresh); SOFA v25.12's
 * RotationMatrixSystem takes the rotations since the rest shape, which double-counts the rotation of
 * a refresh made away from rest. Used as the preconditioner of a PCG (setMatrix, with the
 * matrix at each build) it is exact when the refresh is at every build.
 * A constraint correction (LinearSolverConstraintCorrection) gets W = J·R·A_f⁻¹·Rᵀ·Jᵀ from the
 * linear solver's factor with the rotated rows Rᵀ·Jᵀ, as SOFA's addJMInvJt does.
 */
@sofaComponent({
  name: 'WarpPreconditioner',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Preconditioner',
  description: 'Linear solver warping a factorisation kept over several steps with the rotations of the nodes.',
  templates: ['RotationMatrixd'],
  defaultTemplate: 'RotationMatrixd',
})
export class WarpPreconditioner extends MatrixLinearSolver {
  readonly linearSolverLink = this.initLink<MatrixLinearSolver>({
    name: 'linearSolver',
    help: 'the assembled linear solver factorising the matrix (default: the first other one of the node)',
    accepts: (o): o is MatrixLinearSolver => isMatrixLinearSolver(o) && o !== this,
    expected: 'an assembled linear solver (SparseLDLSolver, ...)',
    search: 'local',
  });
  readonly useRotationFinder = this.initData({
    name: 'useRotationFinder',
    type: Int,
    default: 0,
    range: nonNegative,
    help: 'index of the rotation finder of the node to use (without a RotationMatrixSystem)',
  });
  readonly updateStep = this.initData({
    name: 'update_step',
    type: Int,
    default: 1,
    range: nonNegative,
    help: 'number of steps before the next refresh of the system matrix in the main solver (0 or 1: every step); a RotationMatrixSystem of the node decides instead (its assemblingRate)',
  });

  /** (nodes·9) rotations applied around the factorisation, those of the nodes at the refresh, now. */
  private R: Float64Array = new Float64Array(0);
  private Rf: Float64Array = new Float64Array(0);
  private Rcur: Float64Array = new Float64Array(0);
  /** R is the identity (a refresh step, or no rotation since). */
  private identity = true;
  /** (n) scratch: Rᵀ·r, then the inner solution. */
  private t1: Float64Array = new Float64Array(0);
  private t2: Float64Array = new Float64Array(0);
  private finder: RotationFinder | undefined;
  /** Steps since the last refresh (update_step counting); −1: refresh at the next solve. */
  private sinceRefresh = -1;
  /** The system and pattern version the inner factorisation was made for. */
  private refreshedFor: MechanicalSystem | undefined;
  private refreshedVersion = -1;
  /** Refreshes so far (factorisations of the linear solver by this warp). */
  refreshes = 0;
  /**
   * Changes of the operator R·A_f⁻¹·Rᵀ (every solve of a step): what a constraint correction solved
   * with it stays valid while this holds (the same contract as SparseLDLSolver's factorizations).
   */
  factorizations = 0;

  override init(): void {
    const sys = this.rotationSystem;
    if (sys && this.updateStep.isSet && this.updateStep.value !== sys.assemblingRate.value)
      this.warnAbout(
        this.updateStep,
        `update_step="${this.updateStep.value}" is not used: the RotationMatrixSystem ${sys.describe()} decides the refreshes (assemblingRate="${sys.assemblingRate.value}"), as in SOFA v25.12`,
      );
    this.sinceRefresh = -1;
  }

  override bwdInit(): void {
    if (!this.linearSolverLink.get()) throw this.error('no assembled linear solver to factorise the matrix (set linearSolver="@...")');
    const sys = this.rotationSystem;
    if (sys) this.finder = sys.rotationFinder.get();
    else {
      const finders = this.context.objects.filter(isRotationFinder) as unknown as RotationFinder[];
      const k = this.useRotationFinder.value;
      this.finder = finders[k];
      if (!this.finder && this.period > 1)
        throw this.error(
          finders.length === 0
            ? `update_step="${this.updateStep.value}" needs the node rotations between two refreshes, and no component of this node gives them (a corotational force field: TetrahedronFEMForceField, HexahedronFEMForceField)`
            : `useRotationFinder="${k}": this node has ${finders.length} rotation finder(s)`,
        );
    }
  }

  override reset(): void {
    this.sinceRefresh = -1;
  }

  /** Steps between two refreshes without a RotationMatrixSystem. */
  private get period(): number {
    return Math.max(1, this.updateStep.value);
  }

  /** Steps between two refreshes: the RotationMatrixSystem's assemblingRate, else update_step. */
  private get refreshPeriod(): number {
    const sys = this.rotationSystem;
    return sys ? sys.assemblingRate.value : this.period;
  }

  private get rotationSystem(): RotationMatrixSystem | undefined {
    const s = this.linearSystem.get();
    return isRotationMatrixSystem(s) ? s : undefined;
  }

  /** Whether this build refreshes the factorisation (counts the build). */
  private refreshDue(): boolean {
    const sys = this.rotationSystem;
    if (sys) {
      const due = sys.rebuildMainDue();
      if (this.sinceRefresh < 0) {
        this.sinceRefresh = 0;
        return true;
      }
      return due;
    }
    if (this.sinceRefresh < 0 || this.sinceRefresh + 1 >= this.period) {
      this.sinceRefresh = 0;
      return true;
    }
    this.sinceRefresh++;
    return false;
  }

  private sizeTo(n: number): void {
    const nodes = Math.floor(n / 3);
    if (this.R.length === 9 * nodes && this.t1.length === n) return;
    this.R = new Float64Array(9 * nodes);
    this.Rf = new Float64Array(9 * nodes);
    this.Rcur = new Float64Array(9 * nodes);
    this.t1 = new Float64Array(n);
    this.t2 = new Float64Array(n);
    identityRotations(this.R);
    this.identity = true;
  }

  /** R = I and R_f = the node rotations now (after a factorisation). */
  private refreshed(): void {
    identityRotations(this.R);
    this.identity = true;
    if (this.finder) this.finder.getNodeRotations(this.Rf);
    this.refreshes++;
  }

  /** R = R_now·R_fᵀ per node: the rotation of each node since the refresh. */
  private rotateSinceRefresh(): void {
    this.finder!.getNodeRotations(this.Rcur);
    relativeRotations(this.R, this.Rcur, this.Rf);
    this.identity = false;
  }

  /** A matrix handed by a PCG (as a preconditioner): refactorise at a refresh, else take the rotations since. */
  override setMatrix(A: CsrMatrix): void {
    const inner = this.linearSolverLink.require();
    this.sizeTo(A.rows);
    const refresh = this.refreshDue() || !inner.hasMatrix || !this.finder;
    this.rotationSystem?.assembled(A);
    this.hasMatrix = true;
    this.factorizations++;
    if (refresh) {
      inner.setMatrix(A);
      this.refreshed();
    } else this.rotateSinceRefresh();
  }

  protected invert(): void {}

  /** out = R·A_f⁻¹·Rᵀ·rhs */
  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    const inner = this.linearSolverLink.require();
    if (this.identity) {
      inner.solveMatrix(out, rhs);
      return;
    }
    rotateBlocks(this.t1, this.R, rhs, true);
    inner.solveMatrix(this.t2, this.t1);
    rotateBlocks(out, this.R, this.t2, false);
  }

  /**
   * The ODE solver's solve: at a refresh the linear solver assembles, factorises and solves
   * (R = I); between refreshes nothing is assembled: out = R·A_f⁻¹·Rᵀ·rhs.
   */
  override solveSystem(system: MechanicalSystem, factors: MBKFactors, rhs: Float64Array, out: Float64Array): SolverStats {
    const t0 = performance.now();
    const inner = this.linearSolverLink.require();
    this.sizeTo(system.size);
    const due = this.refreshDue();
    const stale = system !== this.refreshedFor || system.matrixPatternVersion !== this.refreshedVersion;
    if (stale) this.nodeWise = this.checkNodeWise(system);
    this.hasMatrix = true;
    this.factorizations++;
    if (due || stale || !inner.hasMatrix || !this.finder || !this.nodeWise) {
      inner.solveSystem(system, factors, rhs, out);
      this.refreshedFor = system;
      this.refreshedVersion = system.matrixPatternVersion;
      this.refreshed();
    } else {
      this.rotateSinceRefresh();
      this.solveMatrix(out, rhs);
    }
    return { iterations: 1, residual: 0, timeMs: performance.now() - t0 };
  }

  /** The system's dofs are the 3D points of one state (what per-node rotations can turn). */
  private nodeWise = true;

  private checkNodeWise(system: MechanicalSystem): boolean {
    const m = system.masters;
    const ok = m.length === 1 && m[0].state.stateType.derivSize === 3 && m[0].derivLength === system.size;
    if (!ok && this.finder && this.refreshPeriod > 1)
      this.warn(
        `the system of ${system.size} dofs is not the 3D points of one state (${m.length} independent states): the per-node rotations cannot turn it, so the matrix is factorised at every step (a refresh every ${this.refreshPeriod} steps is not honoured)`,
      );
    return ok;
  }

  /** The linear solver's L·D·Lᵀ (the factorisation R turns), for the constraint corrections' sparse solves. */
  supernodalFactor(): SupernodalLDLT | undefined {
    return (this.linearSolverLink.get() as InnerFactor | undefined)?.supernodalFactor?.();
  }

  /** (nodes·9) the rotations R around the factorisation, or undefined while R = I. */
  warpRotations(): Float64Array | undefined {
    return this.identity ? undefined : this.R;
  }

  /**
   * Checkpoint: the steps since the refresh. The factorisation of the refresh is not saved: a
   * restored scene refreshes at its next step (its next steps differ from an uninterrupted run by
   * the warp's approximation only).
   */
  checkpointState(): CheckpointRecord {
    return { sinceRefresh: this.sinceRefresh };
  }

  restoreState(_saved: CheckpointReader): void {
    this.sinceRefresh = -1;
  }
}
