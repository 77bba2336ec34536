import { numberRange, Real, sofaComponent } from '@sofa-ts/core';
import { csrClone, csrDiagonal, type CsrMatrix } from '@sofa-ts/linalg';
import { MatrixLinearSolver } from './matrix-linear-solver.js';

/**
 * SOFA's SSORPreconditioner: with A = D + L + U (diagonal, strictly lower, strictly upper parts),
 *   z = (2 − ω)·(I + ω·D⁻¹·L)⁻¹·(D/ω + U)⁻¹·r
 * i.e. one backward sweep (D/ω + U)·t = r, then one forward sweep (I + ω·D⁻¹·L)·z = t, the same
 * two triangular sweeps as SOFA, reading row j's entries right of the diagonal in the first and left
 * of it in the second. As in SOFA, the Mat3x3 template applies no (2 − ω) factor. For symmetric A
 * this is the classical SSOR preconditioner (1/(2−ω))·(D/ω + L)(D/ω)⁻¹(D/ω + Lᵀ).
 */
@sofaComponent({
  name: 'SSORPreconditioner',
  aliases: ['SSORLinearSolver', 'SSORSolver'],
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Preconditioner',
  description: 'Symmetric successive over-relaxation preconditioner: one backward and one forward Gauss-Seidel sweep.',
  templates: ['CompressedRowSparseMatrixd', 'CompressedRowSparseMatrixMat3x3d'],
  defaultTemplate: 'CompressedRowSparseMatrixd',
})
export class SSORPreconditioner extends MatrixLinearSolver {
  readonly omega = this.initData({
    name: 'omega',
    type: Real,
    default: 1,
    range: numberRange('in (0, 2)', (x) => x > 0 && x < 2),
    help: 'relaxation factor ω, in ]0, 2[',
  });

  /** Own copy of the matrix (the assembled one is overwritten by the next assembly). */
  private M: CsrMatrix | undefined;
  /** (n) 1 / A_jj */
  private invDiag: Float64Array = new Float64Array(0);

  override init(): void {
    const w = this.omega.value;
    if (!(w > 0 && w < 2)) throw this.error(`omega must be in ]0, 2[ (got ${w})`);
  }

  protected invert(A: CsrMatrix, patternChanged: boolean): void {
    if (patternChanged || !this.M) this.M = csrClone(A);
    else this.M.values.set(A.values.subarray(0, this.M.values.length));
    if (this.invDiag.length !== A.rows) this.invDiag = new Float64Array(A.rows);
    csrDiagonal(this.invDiag, A);
    for (let j = 0; j < A.rows; j++) this.invDiag[j] = 1 / this.invDiag[j];
  }

  solveMatrix(z: Float64Array, r: Float64Array): void {
    const M = this.M!;
    const { rowPtr, colInd, values } = M;
    const n = M.rows;
    const w = this.omega.value;
    const inv = this.invDiag;
    // (D/ω + U)·t = r, from the last row up.
    for (let j = n - 1; j >= 0; j--) {
      let s = 0;
      for (let k = rowPtr[j]; k < rowPtr[j + 1]; k++) {
        const c = colInd[k];
        if (c > j) s += z[c] * values[k];
      }
      z[j] = (r[j] - s) * w * inv[j];
    }
    // (I + ω·D⁻¹·L)·z = t, from the first row down (z overwritten in place).
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = rowPtr[j]; k < rowPtr[j + 1]; k++) {
        const c = colInd[k];
        if (c >= j) break;
        s += z[c] * values[k];
      }
      z[j] = z[j] - s * w * inv[j];
    }
    if (w !== 1 && !this.blockTemplate) for (let j = 0; j < n; j++) z[j] = z[j] * (2 - w);
  }
}
