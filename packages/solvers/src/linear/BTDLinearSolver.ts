import { Bool, sofaComponent } from '@sofa-ts/core';
import type { CsrMatrix } from '@sofa-ts/linalg';
import { MatrixLinearSolver } from './matrix-linear-solver.js';

/** In-place inverse of a dense bs×bs row-major block (Gauss–Jordan with partial pivoting). */
function invertBlock(a: Float64Array, off: number, bs: number, work: Float64Array): void {
  // work (bs × 2bs) = [a | I]
  const w = 2 * bs;
  for (let i = 0; i < bs; i++) for (let j = 0; j < w; j++) work[i * w + j] = j < bs ? a[off + i * bs + j]! : j - bs === i ? 1 : 0;
  for (let c = 0; c < bs; c++) {
    let p = c;
    for (let r = c + 1; r < bs; r++) if (Math.abs(work[r * w + c]!) > Math.abs(work[p * w + c]!)) p = r;
    const piv = work[p * w + c]!;
    if (piv === 0) throw new Error(`singular diagonal block (column ${c})`);
    if (p !== c) for (let j = 0; j < w; j++) [work[p * w + j], work[c * w + j]] = [work[c * w + j]!, work[p * w + j]!];
    for (let j = 0; j < w; j++) work[c * w + j]! /= piv;
    for (let r = 0; r < bs; r++) {
      if (r === c) continue;
      const f = work[r * w + c]!;
      if (f !== 0) for (let j = 0; j < w; j++) work[r * w + j]! -= f * work[c * w + j]!;
    }
  }
  for (let i = 0; i < bs; i++) for (let j = 0; j < bs; j++) a[off + i * bs + j] = work[i * w + bs + j]!;
}

/** out = A·B for bs×bs row-major blocks. */
function mulBlocks(out: Float64Array, o: number, A: Float64Array, a: number, B: Float64Array, b: number, bs: number): void {
  for (let i = 0; i < bs; i++)
    for (let j = 0; j < bs; j++) {
      let s = 0;
      for (let k = 0; k < bs; k++) s += A[a + i * bs + k]! * B[b + k * bs + j]!;
      out[o + i * bs + j] = s;
    }
}

/**
 * SOFA's BTDLinearSolver: direct solver for block-tridiagonal matrices (bs×bs blocks, bs = 6 for
 * BTDMatrix6d: the rigid nodes of a chain of beams, as BeamFEMForceField makes), by block Gaussian
 * elimination (the block Thomas algorithm):
 *   H_0 = D_0⁻¹;  H_i = (D_i − L_i·H_{i−1}·U_{i−1})⁻¹;  forward y_i = H_i·(b_i − L_i·y_{i−1});
 *   back x_i = y_i − H_i·U_i·x_{i+1}
 * with D_i, L_i = A(i, i−1), U_i = A(i, i+1) the diagonal, lower and upper blocks. O(n·bs³).
 * Entries outside the three block diagonals are not part of SOFA's BTD matrix: they are left out,
 * and said (once).
 */
@sofaComponent({
  name: 'BTDLinearSolver',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Direct',
  description: 'Linear system solver using Thomas Algorithm for Block Tridiagonal matrices.',
  templates: ['BTDMatrix6d', 'BTDMatrix6f', 'BTDMatrix3d', 'BTDMatrix3f'],
  defaultTemplate: 'BTDMatrix6d',
})
export class BTDLinearSolver extends MatrixLinearSolver {
  readonly showProblem = this.initData({ name: 'showProblem', type: Bool, default: false, help: 'print the matrix and the solution (accepted; use printLog)' });
  readonly subpartSolve = this.initData({ name: 'subpartSolve', type: Bool, default: false, help: 'solve only the part of the system a constraint touches (accepted; the whole system is solved)' });

  /** (nb·bs²) H_i, and H_i·U_i; (nb·bs²) L_i; (n) scratch. */
  private H: Float64Array = new Float64Array(0);
  private HU: Float64Array = new Float64Array(0);
  private Lb: Float64Array = new Float64Array(0);
  private D: Float64Array = new Float64Array(0);
  private U: Float64Array = new Float64Array(0);
  private tmp: Float64Array = new Float64Array(0);
  private work: Float64Array = new Float64Array(0);
  private nb = 0;
  private warned = false;

  get blockSize(): number {
    return this.template.startsWith('BTDMatrix3') ? 3 : 6;
  }

  protected invert(A: CsrMatrix): void {
    const bs = this.blockSize;
    const n = A.rows;
    if (n % bs !== 0) throw new Error(`the system size ${n} is not a multiple of the block size ${bs} (template ${this.template})`);
    const nb = (this.nb = n / bs);
    const b2 = bs * bs;
    if (this.D.length !== nb * b2) {
      this.D = new Float64Array(nb * b2);
      this.U = new Float64Array(nb * b2);
      this.Lb = new Float64Array(nb * b2);
      this.H = new Float64Array(nb * b2);
      this.HU = new Float64Array(nb * b2);
      this.tmp = new Float64Array(b2);
      this.work = new Float64Array(2 * b2);
    }
    const { D, U, Lb, H, HU, tmp } = this;
    D.fill(0);
    U.fill(0);
    Lb.fill(0);
    let outside = 0;
    for (let r = 0; r < n; r++) {
      const bi = Math.floor(r / bs);
      const ri = r - bi * bs;
      for (let k = A.rowPtr[r]!; k < A.rowPtr[r + 1]!; k++) {
        const c = A.colInd[k]!;
        const bj = Math.floor(c / bs);
        const v = A.values[k]!;
        const at = bi * b2 + ri * bs + (c - bj * bs);
        if (bj === bi) D[at] = v;
        else if (bj === bi + 1) U[at] = v;
        else if (bj === bi - 1) Lb[at] = v;
        else if (v !== 0) outside++;
      }
    }
    if (outside > 0 && !this.warned) {
      this.warned = true;
      this.warn(`${outside} entries of the system matrix are outside its three block diagonals (blocks of ${bs}): a block-tridiagonal solver leaves them out, as SOFA's BTD matrix does`);
    }
    // H_i = (D_i − L_i·H_{i−1}·U_{i−1})⁻¹, and HU_i = H_i·U_i
    for (let i = 0; i < nb; i++) {
      const o = i * b2;
      for (let q = 0; q < b2; q++) H[o + q] = D[o + q]!;
      if (i > 0) {
        mulBlocks(tmp, 0, Lb, o, HU, o - b2, bs);
        for (let q = 0; q < b2; q++) H[o + q] = H[o + q]! - tmp[q]!;
      }
      invertBlock(H, o, bs, this.work);
      mulBlocks(HU, o, H, o, U, o, bs);
    }
  }

  solveMatrix(out: Float64Array, rhs: Float64Array): void {
    const bs = this.blockSize;
    const b2 = bs * bs;
    const { H, HU, Lb, nb } = this;
    const y = this.tmp;
    // forward: x_i ← H_i·(b_i − L_i·x_{i−1})
    for (let i = 0; i < nb; i++) {
      for (let r = 0; r < bs; r++) {
        let s = rhs[i * bs + r]!;
        if (i > 0) for (let c = 0; c < bs; c++) s -= Lb[i * b2 + r * bs + c]! * out[(i - 1) * bs + c]!;
        y[r] = s;
      }
      for (let r = 0; r < bs; r++) {
        let s = 0;
        for (let c = 0; c < bs; c++) s += H[i * b2 + r * bs + c]! * y[c]!;
        out[i * bs + r] = s;
      }
    }
    // back: x_i ← y_i − H_i·U_i·x_{i+1}
    for (let i = nb - 2; i >= 0; i--) {
      for (let r = 0; r < bs; r++) {
        let s = 0;
        for (let c = 0; c < bs; c++) s += HU[i * b2 + r * bs + c]! * out[(i + 1) * bs + c]!;
        out[i * bs + r] = out[i * bs + r]! - s;
      }
    }
  }
}
