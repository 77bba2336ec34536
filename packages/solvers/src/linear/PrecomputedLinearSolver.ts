import { Bool, type CheckpointReader, type CheckpointRecord, type SolverStats, sofaComponent } from '@sofa-ts/core';
import type { MBKFactors, MechanicalSystem } from '@sofa-ts/assembly';
import { SupernodalLDLT, amdOrdering, csrClone, type CsrMatrix } from '@sofa-ts/linalg';
import { MatrixLinearSolver, crsTemplates } from './matrix-linear-solver.js';

/**
 * SOFA's PrecomputedLinearSolver: the system matrix is assembled and inverted once, at the first
 * solve (A₀ = P(m·M + b·B + k·K)P of the initial configuration), and that inverse serves every
 * later solve: x = A₀⁻¹·b. Exact for a linear problem with a constant step; for a large-displacement
 * material it is the small-displacement response around the rest shape. SOFA keeps A₀⁻¹ as a dense
 * matrix (and may cache it in a file, use_file); sofa-ts keeps the sparse LDLᵀ factorisation, which
 * gives the same solutions up to round-off with far less memory.
 */
@sofaComponent({
  name: 'PrecomputedLinearSolver',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Direct',
  description: 'Linear solver based on a precomputed inverse of the initial system matrix.',
  templates: crsTemplates,
  defaultTemplate: 'CompressedRowSparseMatrixd',
})
export class PrecomputedLinearSolver extends MatrixLinearSolver {
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

  private readonly ldlt = new SupernodalLDLT();
  private precomputed = false;

  override init(): void {
    if (this.useFile.isSet && this.useFile.value)
      this.warn('use_file="1": the precomputed inverse is not cached in a file by sofa-ts (it is recomputed at the first solve)');
    this.precomputed = false;
  }

  /** The matrix that was inverted (what a checkpoint saves; a restored one is inverted at the next solve). */
  private first: CsrMatrix | undefined;

  /** Only the first matrix is inverted; later ones are ignored (SOFA's "first" flag). */
  override setMatrix(A: CsrMatrix): void {
    if (this.precomputed) return;
    super.setMatrix(A);
    this.first = csrClone(A);
    this.precomputed = true;
  }

  /** Checkpoint: the precomputed matrix (its inverse is computed again from it). */
  checkpointState(): CheckpointRecord {
    const A = this.first;
    return { matrix: this.precomputed && A ? { rows: A.rows, cols: A.cols, rowPtr: A.rowPtr, colInd: A.colInd, values: A.values } : null };
  }

  restoreState(saved: CheckpointReader): void {
    if (saved.record['matrix'] === null) return;
    const m = saved.sub('matrix');
    this.setMatrix({
      rows: m.number('rows'),
      cols: m.number('cols'),
      rowPtr: m.array('rowPtr', Int32Array).slice(),
      colInd: m.array('colInd', Int32Array).slice(),
      values: m.array('values', Float64Array).slice(),
    });
  }

  protected invert(A: CsrMatrix): void {
    this.ldlt.analyze(A, amdOrdering(A.rows, A.rowPtr, A.colInd));
    this.ldlt.factorize(A);
  }

  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    this.ldlt.solve(out, rhs);
  }

  /** Assembles only for the first solve. */
  override solveSystem(system: MechanicalSystem, factors: MBKFactors, rhs: Float64Array, out: Float64Array): SolverStats {
    const t0 = performance.now();
    if (!this.precomputed) {
      const A = system.assembleMBK(factors);
      this.linearSystem.get()?.assembled(A);
      this.setMatrix(A);
    }
    this.solveMatrix(out, rhs);
    return { iterations: 1, residual: 0, timeMs: performance.now() - t0 };
  }
}
