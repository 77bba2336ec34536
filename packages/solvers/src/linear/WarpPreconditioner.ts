import { Int, type SolverStats, sofaComponent } from '@sofa-ts/core';
import type { MBKFactors, MechanicalSystem } from '@sofa-ts/assembly';
import type { CsrMatrix } from '@sofa-ts/linalg';
import { MatrixLinearSolver, isMatrixLinearSolver } from './matrix-linear-solver.js';
import { identityRotations, rotateBlocks, type RotationFinder } from './rotation-finder.js';
import { isRotationMatrixSystem, type RotationMatrixSystem } from './RotationMatrixSystem.js';

/**
 * SOFA's WarpPreconditioner: an assembled linear solver (`linearSolver`, e.g. SparseLDLSolver)
 * factorises A at some steps only; in between, the material rotated and the old factorisation is
 * turned with the per-node rotations R since then:  z = R·A_f⁻¹·Rᵀ·r.
 * Its linear system is a RotationMatrixSystem: each of its assemblingRate-th builds hands the new
 * matrix to the linear solver (R = I); the other builds take R from the rotation finder (a
 * corotational force field), relative to the rotations at the factorisation. With
 * assemblingRate = 1 (and as the preconditioner of a PCG) it is an exact preconditioner: the PCG
 * converges in one iteration.
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
    help: 'index of the rotation finder of the node to use',
  });
  readonly updateStep = this.initData({
    name: 'update_step',
    type: Int,
    default: 1,
    help: "SOFA's older refresh period of the factorisation; the RotationMatrixSystem's assemblingRate decides it (a value other than 1 is reported)",
  });

  /** (n·9) rotations applied around the factorisation, and those of the nodes at the factorisation. */
  private R: Float64Array = new Float64Array(0);
  private Rf: Float64Array = new Float64Array(0);
  private Rcur: Float64Array = new Float64Array(0);
  /** (n) scratch: Rᵀ·r, then the inner solution. */
  private t1: Float64Array = new Float64Array(0);
  private t2: Float64Array = new Float64Array(0);
  private finder: RotationFinder | undefined;

  override init(): void {
    if (this.updateStep.value !== 1)
      this.warn(
        `update_step="${this.updateStep.value}" is not used: the RotationMatrixSystem's assemblingRate decides when the matrix is factorised again`,
      );
  }

  override bwdInit(): void {
    if (!this.linearSolverLink.get()) throw this.error('no assembled linear solver to factorise the matrix (set linearSolver="@...")');
    const sys = this.rotationSystem;
    if (sys) this.finder = sys.rotationFinder.get();
  }

  private get rotationSystem(): RotationMatrixSystem | undefined {
    const s = this.linearSystem.get();
    return isRotationMatrixSystem(s) ? s : undefined;
  }

  /** A new build of the rotation system: refactorise (R = I) or take the rotations since then. */
  override setMatrix(A: CsrMatrix): void {
    const inner = this.linearSolverLink.require();
    const n = A.rows;
    const nodes = Math.floor(n / 3);
    if (this.R.length !== 9 * nodes) {
      this.R = new Float64Array(9 * nodes);
      this.Rf = new Float64Array(9 * nodes);
      this.Rcur = new Float64Array(9 * nodes);
      this.t1 = new Float64Array(n);
      this.t2 = new Float64Array(n);
    }
    const sys = this.rotationSystem;
    const rebuild = sys ? sys.rebuildMainDue() : true;
    sys?.assembled(A);
    this.hasMatrix = true;
    if (rebuild || !inner.hasMatrix) {
      inner.setMatrix(A);
      identityRotations(this.R);
      if (this.finder) this.finder.getNodeRotations(this.Rf);
      return;
    }
    // R = R_now·R_fᵀ per node: the rotation of each node since the factorisation.
    this.finder!.getNodeRotations(this.Rcur);
    const { R, Rf, Rcur } = this;
    for (let b = 0; b < R.length; b += 9) {
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 3; j++)
          R[b + 3 * i + j] =
            Rcur[b + 3 * i]! * Rf[b + 3 * j]! + Rcur[b + 3 * i + 1]! * Rf[b + 3 * j + 1]! + Rcur[b + 3 * i + 2]! * Rf[b + 3 * j + 2]!;
    }
  }

  protected invert(): void {}

  /** out = R·A_f⁻¹·Rᵀ·rhs */
  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    rotateBlocks(this.t1, this.R, rhs, true);
    this.linearSolverLink.require().solveMatrix(this.t2, this.t1);
    rotateBlocks(out, this.R, this.t2, false);
  }

  override solveSystem(system: MechanicalSystem, factors: MBKFactors, rhs: Float64Array, out: Float64Array): SolverStats {
    const t0 = performance.now();
    this.setMatrix(system.assembleMBK(factors));
    this.solveMatrix(out, rhs);
    return { iterations: 1, residual: 0, timeMs: performance.now() - t0 };
  }
}
