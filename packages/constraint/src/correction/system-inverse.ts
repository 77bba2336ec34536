import type { BaseObject, BaseOdeSolver } from '@sofa-ts/core';
import type { LinearSolver, MechanicalSystem } from '@sofa-ts/assembly';
import { SupernodalCompliance, type SupernodalLDLT } from '@sofa-ts/linalg';
import type { ConstraintGraph } from '../graph/constraint-graph.js';
import type { StateRows } from '../graph/state-rows.js';
import { systemFactors, systemOf } from './integration.js';

/** A linear solver that keeps the inverse of its last matrix (SOFA's MatrixLinearSolver: a factorization). */
interface FactorizedSolver {
  solveMatrix(out: Float64Array, rhs: Float64Array): void;
  setMatrix(A: unknown): void;
}

function isFactorized(o: unknown): o is FactorizedSolver {
  return (
    typeof (o as Partial<FactorizedSolver>).solveMatrix === 'function' && typeof (o as Partial<FactorizedSolver>).setMatrix === 'function'
  );
}

/** A solver whose factorization is a SupernodalLDLT it lends (SparseLDLSolver), with a count of its factorizations. */
interface SupernodalFactorSolver extends FactorizedSolver {
  supernodalFactor(): SupernodalLDLT | undefined;
  readonly factorizations: number;
}

function hasSupernodalFactor(o: unknown): o is SupernodalFactorSolver {
  return isFactorized(o) && typeof (o as Partial<SupernodalFactorSolver>).supernodalFactor === 'function';
}

/**
 * A solver whose inverse is R·A_f⁻¹·Rᵀ, a factorization turned by per-node 3x3 rotations R
 * (WarpPreconditioner): (nodes·9, row-major) R, or undefined while R = I.
 */
interface WarpedFactorSolver extends SupernodalFactorSolver {
  warpRotations(): Float64Array | undefined;
}

function warpRotationsOf(o: SupernodalFactorSolver): Float64Array | undefined {
  const w = o as Partial<WarpedFactorSolver>;
  return typeof w.warpRotations === 'function' ? w.warpRotations() : undefined;
}

/**
 * A⁻¹ of an ODE solver's system, applied through its linear solver (SOFA's addJMInvJt and
 * computeMotionCorrection of LinearSolverConstraintCorrection): a solver that factorized A during
 * the free motion of the step (SparseLDLSolver, ...) reuses that factorization; an iterative one
 * (CGLinearSolver) solves again with the same matrix. Right-hand sides and results are projected
 * by the projective constraints (P·A⁻¹·P).
 *
 * The constraint rows are handed over as columns of Jᵀ in the system's numbering (`beginColumns`,
 * `addRowToColumn`, `endColumn`). Then
 *   W[r_i, r_j] += factor·(J·A⁻¹·Jᵀ)_ij       (`addCompliance`)
 *   sol = A⁻¹·Jᵀ·λ                             (`solveJTLambda`)
 * With a SupernodalLDLT factor (P A Pᵀ = L D Lᵀ), W = Yᵀ·D⁻¹·Y with Y = L⁻¹·P·Jᵀ from one sparse
 * forward solve of all the rows together (linalg's SupernodalCompliance), and the correction of the
 * same step reuses Y: sol = Pᵀ·L⁻ᵀ·D⁻¹·(Y·λ), one backward solve. Other solvers: one solve per row.
 * A warped factor (WarpPreconditioner: A⁻¹ ≈ R·A_f⁻¹·Rᵀ) is given the rotated columns Rᵀ·Jᵀ
 * (W = (RᵀJᵀ)ᵀ·A_f⁻¹·(RᵀJᵀ), SOFA's rotateMatrix before addJMInvJt), and sol = R·A_f⁻¹·(RᵀJᵀ)·λ.
 */
export class SystemInverse {
  /** (system size) right-hand side and solution. */
  rhs = new Float64Array(0);
  sol = new Float64Array(0);
  private sys: MechanicalSystem | undefined;
  private factorizedFor: unknown;

  /** The columns of Jᵀ (m, CSC over the system's dofs) and the problem row of each. */
  private m = 0;
  private colPtr = new Int32Array(5);
  private colInd = new Int32Array(16);
  private colVal = new Float64Array(16);
  private colRow = new Int32Array(4);
  /** Entries of the columns so far. */
  private nnz = 0;
  /** (m) λ of each column, for the correction. */
  private colLambda = new Float64Array(4);
  private readonly compliance = new SupernodalCompliance();
  /** What the forward solves of the last addCompliance were made with (valid while all hold; factor undefined: none). */
  private fwFactor: SupernodalLDLT | undefined;
  private fwFactorizations = 0;
  private fwGraph: ConstraintGraph | undefined;
  private fwJacobianVersion = 0;
  /** The rotations the columns were turned with for the last forward solves (undefined: none). */
  private fwRotations: Float64Array | undefined;
  /** Rᵀ·columns (CSC over the system's dofs, 3 entries per node touched), and the nodes of a column. */
  private rotPtr = new Int32Array(5);
  private rotInd = new Int32Array(48);
  private rotVal = new Float64Array(48);
  private nodeMark = new Int32Array(0);
  private nodeList = new Int32Array(0);

  constructor(private readonly owner: BaseObject) {}

  /** The ODE solver's compiled system (buffers sized to it). */
  system(solver: BaseOdeSolver): MechanicalSystem {
    const sys = systemOf(solver, this.owner);
    if (sys !== this.sys) {
      this.sys = sys;
      this.factorizedFor = undefined;
    }
    if (this.rhs.length !== sys.size) {
      this.rhs = new Float64Array(sys.size);
      this.sol = new Float64Array(sys.size);
    }
    return sys;
  }

  /** sol = P·A⁻¹·P·rhs. */
  solve(solver: BaseOdeSolver, linear: LinearSolver, dt: number): void {
    const sys = this.system(solver);
    sys.projectResponse(this.rhs);
    if (isFactorized(linear)) {
      this.ensureFactorized(sys, solver, linear, dt);
      linear.solveMatrix(this.sol, this.rhs);
    } else {
      this.sol.fill(0);
      linear.solveSystem(sys, systemFactors(solver, dt, this.owner), this.rhs, this.sol);
    }
    sys.projectResponse(this.sol);
  }

  /** The free motion factorized A; a solver never used yet gets it now. */
  private ensureFactorized(sys: MechanicalSystem, solver: BaseOdeSolver, linear: FactorizedSolver, dt: number): void {
    const given = linear as { hasPattern?: boolean; hasMatrix?: boolean };
    if (this.factorizedFor !== linear && !given.hasPattern && !given.hasMatrix)
      linear.setMatrix(sys.assembleMBK(systemFactors(solver, dt, this.owner)));
    this.factorizedFor = linear;
  }

  // ---- J·A⁻¹·Jᵀ and A⁻¹·Jᵀ·λ -------------------------------------------------------------------

  /** Starts the list of columns of Jᵀ (the rows of the step touching the system). */
  beginColumns(): void {
    this.m = 0;
    this.nnz = 0;
    this.colPtr[0] = 0;
    this.fwFactor = undefined;
    this.fwRotations = undefined;
  }

  /** Column being built += row k of `rows` (a master state's rows), placed at the state's offset. */
  addRowToColumn(rows: StateRows, k: number, offset: number): void {
    const d = rows.d;
    const e0 = rows.rowPtr[k],
      e1 = rows.rowPtr[k + 1];
    let nnz = this.nnz;
    this.reserveEntries(nnz + (e1 - e0) * d);
    const ind = this.colInd,
      val = this.colVal;
    for (let e = e0; e < e1; e++) {
      const o = offset + rows.points[e] * d;
      for (let a = 0; a < d; a++) {
        const v = rows.values[e * d + a];
        if (v === 0) continue;
        ind[nnz] = o + a;
        val[nnz++] = v;
      }
    }
    this.nnz = nnz;
  }

  /** Closes the column being built: it is problem row `row`. */
  endColumn(row: number): void {
    const m = this.m;
    if (this.colRow.length <= m) {
      const grow = Math.max(2 * this.colRow.length, m + 1);
      const ptr = new Int32Array(grow + 1);
      ptr.set(this.colPtr.subarray(0, m + 1));
      this.colPtr = ptr;
      const r = new Int32Array(grow);
      r.set(this.colRow.subarray(0, m));
      this.colRow = r;
      this.colLambda = new Float64Array(grow);
    }
    this.colRow[m] = row;
    this.colPtr[m + 1] = this.nnz;
    this.m = m + 1;
  }

  private reserveEntries(size: number): void {
    if (size <= this.colInd.length) return;
    const cap = Math.max(size, 2 * this.colInd.length);
    const ind = new Int32Array(cap);
    ind.set(this.colInd);
    this.colInd = ind;
    const val = new Float64Array(cap);
    val.set(this.colVal);
    this.colVal = val;
  }

  /** W (n × n) [r_i, r_j] += factor·(J·A⁻¹·Jᵀ)_ij over the columns given since beginColumns. */
  addCompliance(
    graph: ConstraintGraph,
    solver: BaseOdeSolver,
    linear: LinearSolver,
    dt: number,
    W: Float64Array,
    n: number,
    factor: number,
  ): void {
    const m = this.m;
    if (m === 0) return;
    const sys = this.system(solver);
    const { colPtr, colInd, colVal, colRow } = this;
    if (hasSupernodalFactor(linear)) {
      this.ensureFactorized(sys, solver, linear, dt);
      const f = linear.supernodalFactor();
      if (f && f.n === sys.size) {
        this.projectColumns(sys);
        const R = warpRotationsOf(linear);
        if (R) {
          this.rotateColumns(R);
          this.compliance.forward(f, m, this.rotPtr, this.rotInd, this.rotVal);
        } else this.compliance.forward(f, m, colPtr, colInd, colVal);
        this.compliance.addGram(W, n, colRow, factor);
        this.fwRotations = R;
        this.fwFactor = f;
        this.fwFactorizations = linear.factorizations;
        this.fwGraph = graph;
        this.fwJacobianVersion = graph.jacobianVersion;
        return;
      }
    }
    // one solve per column, W_ij = column i · A⁻¹·column j
    const rhs = this.rhs,
      sol = this.sol;
    for (let j = 0; j < m; j++) {
      rhs.fill(0);
      for (let e = colPtr[j]; e < colPtr[j + 1]; e++) rhs[colInd[e]] += colVal[e];
      this.solve(solver, linear, dt);
      const rj = colRow[j];
      for (let i = 0; i < m; i++) {
        let s = 0;
        for (let e = colPtr[i]; e < colPtr[i + 1]; e++) s += colVal[e] * sol[colInd[e]];
        W[rj * n + colRow[i]] += factor * s;
      }
    }
  }

  /**
   * True when the columns and the forward solves of the last addCompliance still hold: same
   * factorization, same Jacobian (then `solveJTLambda` needs one backward solve).
   */
  canReuseForward(graph: ConstraintGraph, linear: LinearSolver): boolean {
    return (
      this.fwFactor !== undefined &&
      this.fwGraph === graph &&
      this.fwJacobianVersion === graph.jacobianVersion &&
      hasSupernodalFactor(linear) &&
      linear.factorizations === this.fwFactorizations &&
      linear.supernodalFactor() === this.fwFactor
    );
  }

  /**
   * Columns ← P·columns (the rows come projected from the graph; projecting again keeps P·A⁻¹·P
   * whatever the graph did). A projection acts point by point: a column keeps its entries.
   */
  private projectColumns(sys: MechanicalSystem): void {
    const { colPtr, colInd, colVal, rhs } = this;
    rhs.fill(0);
    for (let j = 0; j < this.m; j++) {
      const e0 = colPtr[j],
        e1 = colPtr[j + 1];
      for (let e = e0; e < e1; e++) rhs[colInd[e]] += colVal[e];
      sys.projectResponse(rhs);
      for (let e = e0; e < e1; e++) colVal[e] = rhs[colInd[e]];
      rhs.fill(0);
    }
  }

  /**
   * Rotated columns (rotPtr, rotInd, rotVal) = Rᵀ·columns, node by node: a column touching node i
   * (dofs 3i..3i+2) gets the three entries Rᵢᵀ·(its entries at node i). Allocates only when the
   * columns grow.
   */
  private rotateColumns(R: Float64Array): void {
    const { colPtr, colInd, colVal, rhs } = this;
    const m = this.m;
    const nodes = R.length / 9;
    if (this.nodeMark.length !== nodes) {
      this.nodeMark = new Int32Array(nodes).fill(-1);
      this.nodeList = new Int32Array(nodes);
    }
    if (this.rotPtr.length < m + 1) this.rotPtr = new Int32Array(m + 1);
    if (this.rotInd.length < 3 * this.nnz) {
      this.rotInd = new Int32Array(3 * this.nnz);
      this.rotVal = new Float64Array(3 * this.nnz);
    }
    const { nodeMark, nodeList, rotPtr, rotInd, rotVal } = this;
    rotPtr[0] = 0;
    let q = 0;
    for (let j = 0; j < m; j++) {
      // the column's entries, summed per dof, and the nodes it touches
      let nn = 0;
      for (let e = colPtr[j]; e < colPtr[j + 1]; e++) {
        const dof = colInd[e];
        const node = (dof / 3) | 0;
        if (node >= nodes) continue;
        if (nodeMark[node] !== j) {
          nodeMark[node] = j;
          nodeList[nn++] = node;
          rhs[3 * node] = rhs[3 * node + 1] = rhs[3 * node + 2] = 0;
        }
        rhs[dof] += colVal[e];
      }
      // Rᵢᵀ·v at each node touched
      for (let t = 0; t < nn; t++) {
        const node = nodeList[t];
        const o = 3 * node,
          r = 9 * node;
        const a = rhs[o],
          b = rhs[o + 1],
          c = rhs[o + 2];
        for (let k = 0; k < 3; k++) {
          rotInd[q] = o + k;
          rotVal[q++] = R[r + k] * a + R[r + 3 + k] * b + R[r + 6 + k] * c;
        }
        rhs[o] = rhs[o + 1] = rhs[o + 2] = 0;
      }
      // entries past the nodes (a system size not a multiple of 3) are kept as they are
      for (let e = colPtr[j]; e < colPtr[j + 1]; e++) {
        if (((colInd[e] / 3) | 0) < nodes) continue;
        rotInd[q] = colInd[e];
        rotVal[q++] = colVal[e];
      }
      rotPtr[j + 1] = q;
    }
    nodeMark.fill(-1);
  }

  /** sol = P·A⁻¹·Jᵀ·λ from the forward solves of the last addCompliance (canReuseForward must hold). */
  solveJTLambda(solver: BaseOdeSolver, lambda: Float64Array): Float64Array {
    const sys = this.system(solver);
    const c = this.colLambda;
    for (let j = 0; j < this.m; j++) c[j] = lambda[this.colRow[j]];
    this.compliance.solveCombination(this.sol, c);
    if (this.fwRotations) rotateNodes(this.sol, this.fwRotations);
    sys.projectResponse(this.sol);
    return this.sol;
  }

  /** The global offset of a master state of the system, or −1. */
  offsetOf(solver: BaseOdeSolver, state: unknown): number {
    const sys = this.system(solver);
    const m = sys.masters.find((s) => s.state === state);
    return m ? m.offset : -1;
  }
}

/** v ← R·v node by node (R: nodes·9 row-major 3x3 blocks; entries past the nodes unchanged). */
function rotateNodes(v: Float64Array, R: Float64Array): void {
  const nodes = Math.min(R.length / 9, Math.floor(v.length / 3));
  for (let i = 0; i < nodes; i++) {
    const o = 3 * i,
      r = 9 * i;
    const a = v[o],
      b = v[o + 1],
      c = v[o + 2];
    v[o] = R[r] * a + R[r + 1] * b + R[r + 2] * c;
    v[o + 1] = R[r + 3] * a + R[r + 4] * b + R[r + 5] * c;
    v[o + 2] = R[r + 6] * a + R[r + 7] * b + R[r + 8] * c;
  }
}
