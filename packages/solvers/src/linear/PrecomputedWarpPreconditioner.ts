import { Bool, Real, type CheckpointReader, type CheckpointRecord, type SolverStats, sofaComponent } from '@sofa-ts/core';
import type { MBKFactors, MechanicalSystem } from '@sofa-ts/assembly';
import { SupernodalLDLT, amdOrdering, csrClone, type CsrMatrix } from '@sofa-ts/linalg';
import { MatrixLinearSolver, isMatrixLinearSolver } from './matrix-linear-solver.js';
import { findRotationFinder, identityRotations, rotateBlocks, type RotationFinder } from './rotation-finder.js';

/**
 * SOFA's PrecomputedWarpPreconditioner: the inverse of the first system matrix A₀ is computed once
 * and kept; each later solve turns it with the current per-node rotations R of the material
 * (a rotation finder of the node):  z = R·A₀⁻¹·Rᵀ·r.
 * A₀⁻¹ is the factorisation of the first matrix this preconditioner is handed, or, when
 * `linearSolver` links a solver, that solver's factorisation of its own matrix. As in SOFA, a
 * linked solver that was never handed a matrix (its linear system is built by no ODE solver,
 * preconditioner or warp) gives a zero inverse: z = 0, and a PCG using it does not move; a warning
 * says so. SOFA caches A₀⁻¹ in a file (use_file); sofa-ts recomputes it at the first solve.
 */
@sofaComponent({
  name: 'PrecomputedWarpPreconditioner',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Preconditioner',
  description: 'Linear solver based on a precomputed inverse matrix, wrapped by a per-node rotation matrix.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class PrecomputedWarpPreconditioner extends MatrixLinearSolver {
  readonly jmjtTwostep = this.initData({
    name: 'jmjt_twostep',
    type: Bool,
    default: true,
    help: 'two-step product J·A⁻¹·Jᵀ for constraint corrections (accepted; the product is computed column by column)',
  });
  readonly useFile = this.initData({
    name: 'use_file',
    type: Bool,
    default: true,
    help: 'SOFA caches the inverse in a file; sofa-ts recomputes it at the first solve (a value of 1 in the scene is reported)',
  });
  readonly shareMatrix = this.initData({
    name: 'share_matrix',
    type: Bool,
    default: true,
    help: 'share the inverse between components of the same file in SOFA (accepted; each component keeps its own)',
  });
  readonly useRotations = this.initData({
    name: 'use_rotations',
    type: Bool,
    default: true,
    help: 'turn the precomputed inverse with the node rotations of a rotation finder',
  });
  readonly drawRotationsScale = this.initData({
    name: 'draw_rotations_scale',
    type: Real,
    default: 0,
    help: 'scale of the rotation frames drawn (GUI only)',
    group: 'Visualization',
  });
  readonly linearSolverLink = this.initLink<MatrixLinearSolver>({
    name: 'linearSolver',
    help: 'the linear solver whose factorisation gives the precomputed inverse (default: factorise the first matrix handed)',
    accepts: (o): o is MatrixLinearSolver => isMatrixLinearSolver(o) && o !== this,
    expected: 'an assembled linear solver',
  });

  private precomputed = false;
  /** The inverse is zero (a linked solver had no matrix). */
  private zero = false;
  private readonly ldlt = new SupernodalLDLT();
  private own = false;
  private finder: RotationFinder | undefined;
  /** (n·9) rotations; (n) scratch. */
  private R: Float64Array = new Float64Array(0);
  private t1: Float64Array = new Float64Array(0);
  private t2: Float64Array = new Float64Array(0);

  override init(): void {
    if (this.useFile.isSet && this.useFile.value)
      this.warn('use_file="1": the precomputed inverse is not cached in a file by sofa-ts (it is recomputed at the first solve)');
    this.precomputed = false;
  }

  override bwdInit(): void {
    this.finder = findRotationFinder(this);
    if (this.useRotations.value && !this.finder)
      this.warn('no component of this node gives node rotations: the precomputed inverse is used unrotated (R = I), as SOFA does');
  }

  override setMatrix(A: CsrMatrix): void {
    const n = A.rows;
    this.linearSystem.get()?.assembled(A);
    this.hasMatrix = true;
    if (!this.precomputed) {
      this.precomputed = true;
      this.R = new Float64Array(9 * Math.floor(n / 3));
      this.t1 = new Float64Array(n);
      this.t2 = new Float64Array(n);
      identityRotations(this.R);
      const linked = this.linearSolverLink.get();
      if (linked) {
        this.own = false;
        this.zero = !linked.hasMatrix;
        if (this.zero)
          this.warn(
            `the linked ${linked.describe()} was never given a matrix (its linear system is built by no ODE solver, preconditioner or warp): as in SOFA, the precomputed inverse is zero and this preconditioner returns 0`,
            'link the solver of a system that is built, or remove linearSolver to invert the first matrix handed to this preconditioner',
          );
      } else {
        this.own = true;
        this.factorizeFirst(A);
      }
    }
    // Rotations of the nodes now (SOFA turns the inverse at every build).
    if (this.useRotations.value && this.finder) this.finder.getNodeRotations(this.R);
  }

  /** The first matrix (kept for checkpoints: its factorisation is computed again from it). */
  private first: CsrMatrix | undefined;

  private factorizeFirst(A: CsrMatrix): void {
    try {
      this.ldlt.analyze(A, amdOrdering(A.rows, A.rowPtr, A.colInd));
      this.ldlt.factorize(A);
    } catch (e) {
      throw this.error(`the first system matrix cannot be factorised: ${(e as Error).message}`);
    }
    this.first = csrClone(A);
  }

  /** Checkpoint: whether the inverse was precomputed, from which matrix (own), and the rotations of the last build. */
  checkpointState(): CheckpointRecord {
    const A = this.first;
    return {
      precomputed: this.precomputed,
      zero: this.zero,
      own: this.own,
      hasMatrix: this.hasMatrix,
      R: this.R,
      n: this.t1.length,
      matrix: this.own && A ? { rows: A.rows, cols: A.cols, rowPtr: A.rowPtr, colInd: A.colInd, values: A.values } : null,
    };
  }

  restoreState(saved: CheckpointReader): void {
    this.precomputed = saved.bool('precomputed');
    this.zero = saved.bool('zero');
    this.own = saved.bool('own');
    this.hasMatrix = saved.bool('hasMatrix');
    this.R = saved.array('R', Float64Array).slice();
    if (saved.record['matrix'] !== null) {
      const m = saved.sub('matrix');
      this.factorizeFirst({
        rows: m.number('rows'),
        cols: m.number('cols'),
        rowPtr: m.array('rowPtr', Int32Array).slice(),
        colInd: m.array('colInd', Int32Array).slice(),
        values: m.array('values', Float64Array).slice(),
      });
    }
    this.t1 = new Float64Array(saved.number('n'));
    this.t2 = new Float64Array(this.t1.length);
  }

  protected invert(): void {}

  /** out = R·A₀⁻¹·Rᵀ·rhs */
  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    if (this.zero) {
      out.fill(0);
      return;
    }
    rotateBlocks(this.t1, this.R, rhs, true);
    if (this.own) this.ldlt.solve(this.t2, this.t1);
    else this.linearSolverLink.require().solveMatrix(this.t2, this.t1);
    rotateBlocks(out, this.R, this.t2, false);
  }

  override solveSystem(system: MechanicalSystem, factors: MBKFactors, rhs: Float64Array, out: Float64Array): SolverStats {
    const t0 = performance.now();
    if (!this.precomputed) this.setMatrix(system.assembleMBK(factors));
    else if (this.useRotations.value && this.finder) this.finder.getNodeRotations(this.R);
    this.solveMatrix(out, rhs);
    return { iterations: 1, residual: 0, timeMs: performance.now() - t0 };
  }
}
