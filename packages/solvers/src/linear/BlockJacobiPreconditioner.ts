import { sofaComponent } from '@sofa-ts/core';
import { csrGet, mat3Invert, type CsrMatrix } from '@sofa-ts/linalg';
import { MatrixLinearSolver } from './matrix-linear-solver.js';

/**
 * SOFA's BlockJacobiPreconditioner (BlockDiagonalMatrix<3>): the 3x3 diagonal blocks B_i of the
 * system matrix (one per Vec3 point), z_i = B_i⁻¹·r_i. A trailing block smaller than 3 (a system
 * size not multiple of 3) is inverted as it is.
 */
@sofaComponent({
  name: 'BlockJacobiPreconditioner',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Preconditioner',
  description: 'Block Jacobi preconditioner: the inverses of the 3x3 diagonal blocks of the system matrix.',
  templates: ['BlockDiagonalMatrix3d', 'BlockDiagonalMatrix3'],
  defaultTemplate: 'BlockDiagonalMatrix3d',
})
export class BlockJacobiPreconditioner extends MatrixLinearSolver {
  /** (9 · nblocks) inverses of the diagonal blocks, row-major. */
  private inv: Float64Array = new Float64Array(0);
  private n = 0;
  private readonly block = new Float64Array(9);

  protected invert(A: CsrMatrix): void {
    const n = A.rows;
    this.n = n;
    const nb = Math.ceil(n / 3);
    if (this.inv.length !== 9 * nb) this.inv = new Float64Array(9 * nb);
    const blk = this.block;
    for (let b = 0; b < nb; b++) {
      const i0 = 3 * b;
      const size = Math.min(3, n - i0);
      // Pad a partial block with the identity so that the 3x3 inverse gives the inverse of its top-left part.
      for (let r = 0; r < 3; r++)
        for (let c = 0; c < 3; c++) blk[3 * r + c] = r < size && c < size ? csrGet(A, i0 + r, i0 + c) : r === c ? 1 : 0;
      const out = this.inv.subarray(9 * b, 9 * b + 9);
      if (mat3Invert(out, blk) === 0) throw new Error(`diagonal block ${b} (rows ${i0}..${i0 + size - 1}) is singular`);
    }
  }

  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    const n = this.n;
    const inv = this.inv;
    for (let i0 = 0, b = 0; i0 < n; i0 += 3, b++) {
      const m = 9 * b;
      const r0 = rhs[i0];
      const r1 = i0 + 1 < n ? rhs[i0 + 1] : 0;
      const r2 = i0 + 2 < n ? rhs[i0 + 2] : 0;
      out[i0] = inv[m] * r0 + inv[m + 1] * r1 + inv[m + 2] * r2;
      if (i0 + 1 < n) out[i0 + 1] = inv[m + 3] * r0 + inv[m + 4] * r1 + inv[m + 5] * r2;
      if (i0 + 2 < n) out[i0 + 2] = inv[m + 6] * r0 + inv[m + 7] * r1 + inv[m + 8] * r2;
    }
  }
}
