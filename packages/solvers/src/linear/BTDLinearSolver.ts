import { Bool, sofaComponent, type SolverStats } from '@sofa-ts/core';
import type { MBKFactors, MechanicalSystem } from '@sofa-ts/assembly';
import type { CsrMatrix } from '@sofa-ts/linalg';
import { MatrixLinearSolver } from './matrix-linear-solver.js';

/** In-place inverse of a dense bs×bs row-major block (Gauss–Jordan with partial pivoting). */
function invertBlock(a: Float64Array, off: number, bs: number, work: Float64Array): void {
  // work (bs × 2bs) = [a | I]
  const w = 2 * bs;
  for (let i = 0; i < bs; i++) for (let j = 0; j < w; j++) work[i * w + j] = j < bs ? a[off + i * bs + j] : j - bs === i ? 1 : 0;
  for (let c = 0; c < bs; c++) {
    let p = c;
    for (let r = c + 1; r < bs; r++) if (Math.abs(work[r * w + c]) > Math.abs(work[p * w + c])) p = r;
    const piv = work[p * w + c];
    if (piv === 0) throw new Error(`singular diagonal block (column ${c})`);
    if (p !== c) for (let j = 0; j < w; j++) [work[p * w + j], work[c * w + j]] = [work[c * w + j], work[p * w + j]];
    for (let j = 0; j < w; j++) work[c * w + j] /= piv;
    for (let r = 0; r < bs; r++) {
      if (r === c) continue;
      const f = work[r * w + c];
      if (f !== 0) for (let j = 0; j < w; j++) work[r * w + j] -= f * work[c * w + j];
    }
  }
  for (let i = 0; i < bs; i++) for (let j = 0; j < bs; j++) a[off + i * bs + j] = work[i * w + bs + j];
}

/** out = A·B for bs×bs row-major blocks. */
function mulBlocks(out: Float64Array, o: number, A: Float64Array, a: number, B: Float64Array, b: number, bs: number): void {
  for (let i = 0; i < bs; i++)
    for (let j = 0; j < bs; j++) {
      let s = 0;
      for (let k = 0; k < bs; k++) s += A[a + i * bs + k] * B[b + k * bs + j];
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
 *
 * The matrix is stored as SOFA's BTDMatrix stores it: three blocks per block row, and an entry
 * (r, c) of block row i = ⌊r/bs⌋, block column j = ⌊c/bs⌋ goes to the stored block number
 * 3i + (j − i + 1) (BTDMatrix::add, whose offset j − i + 1 is signed and only bounded above):
 *   j ∈ {i−1, i, i+1}: its own block;  j ≥ i + 2: left out;
 *   j ≤ i − 2: added to block number 2i + j + 1, i.e. into block row ⌊(2i+j+1)/3⌋ (another place
 *   of the matrix: SOFA's behaviour, kept so that results match SOFA; said once).
 * As a solver of an ODE solver, the projective constraints are applied after that storage, as
 * SOFA's linear system does (rows and columns of the projected dofs cleared in the stored blocks,
 * 1 on their diagonal): an entry moved by the rule keeps its value even when its own row or
 * column is projected. Such entries arise when SOFA's assembly puts a contact's blocks with a
 * non-simulated object at the top of the matrix, which this solver asks of the assembly
 * (MechanicalSystem.assembleMBK, option outsideBlocks).
 */
@sofaComponent({
  name: 'BTDLinearSolver',
  category: 'LinearSolver',
  module: 'Sofa.Component.LinearSolver.Direct',
  description:
    "Linear system solver using Thomas Algorithm for Block Tridiagonal matrices. The matrix is stored as SOFA's BTDMatrix stores it: an entry two or more blocks above the diagonal is left out, one two or more blocks below is added into stored block 3i + (j − i + 1) (another place; SOFA's offset rule, kept to match SOFA, said once); projective constraints are applied after that storage.",
  templates: ['BTDMatrix6d', 'BTDMatrix6f', 'BTDMatrix3d', 'BTDMatrix3f'],
  defaultTemplate: 'BTDMatrix6d',
})
export class BTDLinearSolver extends MatrixLinearSolver {
  readonly showProblem = this.initData({
    name: 'showProblem',
    type: Bool,
    default: false,
    help: 'print the matrix and the solution (accepted; use printLog)',
  });
  readonly subpartSolve = this.initData({
    name: 'subpartSolve',
    type: Bool,
    default: false,
    help: 'solve only the part of the system a constraint touches (accepted; the whole system is solved)',
  });

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
  /** The projected dofs of the matrix being stored (solveSystem), cleared after storage. */
  private projectedDofs: Int32Array | undefined;

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
    const { D, U, Lb } = this;
    D.fill(0);
    U.fill(0);
    Lb.fill(0);
    let above = 0,
      below = 0;
    for (let r = 0; r < n; r++) {
      const bi = Math.floor(r / bs);
      const ri = r - bi * bs;
      for (let k = A.rowPtr[r]; k < A.rowPtr[r + 1]; k++) {
        const c = A.colInd[k];
        const bj = Math.floor(c / bs);
        const v = A.values[k];
        // SOFA's BTDMatrix::add: stored block 3·bi + (bj − bi + 1), an offset bounded above only
        const offset = bj - bi + 1;
        if (offset >= 3) {
          if (v !== 0) above++;
          continue;
        }
        if (offset < 0 && v !== 0) below++;
        const slot = 3 * bi + offset;
        const row = Math.floor(slot / 3);
        const at = row * b2 + ri * bs + (c - bj * bs);
        const which = slot - 3 * row;
        if (which === 1) D[at] = D[at] + v;
        else if (which === 2) U[at] = U[at] + v;
        else Lb[at] = Lb[at] + v;
      }
    }
    if ((above > 0 || below > 0) && !this.warned) {
      this.warned = true;
      this.warn(
        `the system matrix has entries outside its three block diagonals (blocks of ${bs}): ${above} above them are left out and ${below} below them are added into other blocks, as SOFA's BTDMatrix stores them`,
      );
    }
    if (this.projectedDofs) this.clearProjected(this.projectedDofs, bs, nb);
    this.factorize(bs, nb);
  }

  /** SOFA's Dirichlet rows on the stored blocks: row and column of each dof cleared, 1 on the diagonal. */
  private clearProjected(dofs: Int32Array, bs: number, nb: number): void {
    const b2 = bs * bs;
    const { D, U, Lb } = this;
    for (const g of dofs) {
      const bi = Math.floor(g / bs),
        i = g - bi * bs;
      for (let c = 0; c < bs; c++) {
        D[bi * b2 + i * bs + c] = 0;
        U[bi * b2 + i * bs + c] = 0;
        Lb[bi * b2 + i * bs + c] = 0;
      }
      for (let r = 0; r < bs; r++) {
        D[bi * b2 + r * bs + i] = 0;
        if (bi > 0) U[(bi - 1) * b2 + r * bs + i] = 0;
        if (bi + 1 < nb) Lb[(bi + 1) * b2 + r * bs + i] = 0;
      }
      D[bi * b2 + i * bs + i] = 1;
    }
  }

  /**
   * As the linear solver of an ODE solver: the matrix before the projective constraints, stored,
   * then projected in the stored blocks (SOFA's order; see the class comment).
   */
  override solveSystem(system: MechanicalSystem, factors: MBKFactors, rhs: Float64Array, out: Float64Array): SolverStats {
    if (system.hasGeneralProjection) return super.solveSystem(system, factors, rhs, out);
    const t0 = performance.now();
    const A = system.assembleMBK(factors, { project: false, outsideBlocks: true });
    this.linearSystem.get()?.assembled(A);
    this.projectedDofs = system.projectedDofList();
    try {
      if (A.rows !== A.cols) throw new Error(`the system matrix must be square (got ${A.rows}x${A.cols})`);
      this.invert(A);
    } catch (e) {
      throw this.error(`the system matrix cannot be factorised: ${(e as Error).message}`);
    } finally {
      this.projectedDofs = undefined;
    }
    this.hasMatrix = true;
    this.solveMatrix(out, rhs);
    return { iterations: 1, residual: 0, timeMs: performance.now() - t0 };
  }

  private factorize(bs: number, nb: number): void {
    const b2 = bs * bs;
    const { D, U, Lb, H, HU, tmp } = this;
    // H_i = (D_i − L_i·H_{i−1}·U_{i−1})⁻¹, and HU_i = H_i·U_i
    for (let i = 0; i < nb; i++) {
      const o = i * b2;
      for (let q = 0; q < b2; q++) H[o + q] = D[o + q];
      if (i > 0) {
        mulBlocks(tmp, 0, Lb, o, HU, o - b2, bs);
        for (let q = 0; q < b2; q++) H[o + q] = H[o + q] - tmp[q];
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
        let s = rhs[i * bs + r];
        if (i > 0) for (let c = 0; c < bs; c++) s -= Lb[i * b2 + r * bs + c] * out[(i - 1) * bs + c];
        y[r] = s;
      }
      for (let r = 0; r < bs; r++) {
        let s = 0;
        for (let c = 0; c < bs; c++) s += H[i * b2 + r * bs + c] * y[c];
        out[i * bs + r] = s;
      }
    }
    // back: x_i ← y_i − H_i·U_i·x_{i+1}
    for (let i = nb - 2; i >= 0; i--) {
      for (let r = 0; r < bs; r++) {
        let s = 0;
        for (let c = 0; c < bs; c++) s += HU[i * b2 + r * bs + c] * out[(i + 1) * bs + c];
        out[i * bs + r] = out[i * bs + r] - s;
      }
    }
  }
}
