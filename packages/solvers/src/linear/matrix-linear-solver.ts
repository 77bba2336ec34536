import { Bool, Enum, type SolverStats } from '@sofa-ts/core';
import { LinearSolver, type MBKFactors, type MechanicalSystem } from '@sofa-ts/assembly';
import {
  amdOrdering,
  leastWorkOrdering,
  naturalOrdering,
  nestedDissectionOrdering,
  ZeroPivotError,
  type CsrMatrix,
  type LeastWorkMethod,
} from '@sofa-ts/linalg';
import { isMatrixLinearSystem, type TypedMatrixLinearSystem } from '../linear-system/TypedMatrixLinearSystem.js';
import { isOrderingMethod, type BaseOrderingMethod } from './ordering-method.js';

/** Templates of the solvers working on an assembled compressed-row matrix. */
export const crsTemplates = ['CompressedRowSparseMatrixd', 'CompressedRowSparseMatrixMat3x3d'] as const;

/**
 * SOFA's MatrixLinearSolver: the system matrix A = P(m·M + b·B + k·K)P + (I − P) is assembled
 * (a fixed pattern refilled every step), "inverted" once per matrix (a factorization, a diagonal
 * inverse, ...) and then applied to right-hand sides. The same two operations make any such solver
 * usable as the preconditioner of a conjugate gradient: `setMatrix(A)` then `solveMatrix(z, r)`.
 */
export abstract class MatrixLinearSolver extends LinearSolver {
  readonly isMatrixLinearSolver = true;
  readonly verbose = this.initData({
    name: 'verbose',
    type: Bool,
    default: false,
    help: 'accepted for compatibility (old scenes); use printLog',
  });
  readonly linearSystem = this.initLink<TypedMatrixLinearSystem>({
    name: 'linearSystem',
    help: 'the linear system component describing the assembled matrix (default: the one in this node, if any)',
    accepts: isMatrixLinearSystem,
    expected: 'a linear system (MatrixLinearSystem, ConstantSparsityPatternSystem)',
    search: 'local',
  });
  /** Copy of the last pattern, to tell a refill from a new pattern. */
  private patRowPtr: Int32Array = new Int32Array(0);
  private patColInd: Int32Array = new Int32Array(0);
  private hasPattern = false;
  /** The last assembled matrix of solveSystem, its pattern arrays, system and pattern version. */
  private lastA: CsrMatrix | undefined;
  private lastRowPtr: Int32Array | undefined;
  private lastColInd: Int32Array | undefined;
  private lastSystem: MechanicalSystem | undefined;
  private lastVersion = -1;
  /** The system of the matrix being factorised (to name the dof of a zero pivot). */
  private factoredSystem: MechanicalSystem | undefined;
  /** True once a matrix was given (setMatrix): a solver nobody hands a matrix has none (SOFA: size 0). */
  hasMatrix = false;

  /** The matrix of the last solve (the system's arrays, refilled in place), SOFA's getSystemBaseMatrix. */
  systemMatrix(): CsrMatrix | undefined {
    return this.lastA;
  }

  /** True for the Mat3x3 templates (3x3 blocks). */
  get blockTemplate(): boolean {
    return this.template === 'CompressedRowSparseMatrixMat3x3d';
  }

  solveSystem(system: MechanicalSystem, factors: MBKFactors, rhs: Float64Array, out: Float64Array): SolverStats {
    const t0 = performance.now();
    const A = system.assembleMBK(factors);
    this.linearSystem.get()?.assembled(A);
    // the same matrix arrays of a system whose pattern did not change: no need to compare patterns
    const version = system.matrixPatternVersion;
    const same =
      A === this.lastA &&
      A.rowPtr === this.lastRowPtr &&
      A.colInd === this.lastColInd &&
      system === this.lastSystem &&
      version === this.lastVersion;
    this.factoredSystem = system;
    this.setMatrix(A, same);
    this.lastA = A;
    this.lastRowPtr = A.rowPtr;
    this.lastColInd = A.colInd;
    this.lastSystem = system;
    this.lastVersion = version;
    this.solveMatrix(out, rhs);
    return { iterations: 1, residual: 0, timeMs: performance.now() - t0 };
  }

  /**
   * Takes new values of A (analysing again only when the pattern changed) and inverts them.
   * `samePattern`: the caller knows A has the pattern of the last call (no comparison).
   */
  setMatrix(A: CsrMatrix, samePattern = false): void {
    if (A.rows !== A.cols) throw this.error(`the system matrix must be square (got ${A.rows}x${A.cols})`);
    const changed = samePattern && this.hasPattern ? false : this.takePattern(A);
    this.hasMatrix = true;
    try {
      this.invert(A, changed);
    } catch (e) {
      const where = e instanceof ZeroPivotError && this.factoredSystem ? dofOfRow(this.factoredSystem, e.index) : '';
      throw this.error(`the system matrix cannot be factorised: ${(e as Error).message}${where}`);
    }
  }

  /** out = A⁻¹·rhs (or the preconditioner's approximation of it) for the last matrix given. */
  abstract solveMatrix(out: Float64Array, rhs: Float64Array): void;

  /** Factorises / inverts A; `patternChanged` is true at the first call and after a new pattern. */
  protected abstract invert(A: CsrMatrix, patternChanged: boolean): void;

  private takePattern(A: CsrMatrix): boolean {
    const n = A.rows;
    const nnz = A.rowPtr[n];
    let same = this.hasPattern && this.patRowPtr.length === n + 1 && this.patColInd.length === nnz;
    if (same) {
      for (let i = 0; i <= n && same; i++) if (this.patRowPtr[i] !== A.rowPtr[i]) same = false;
      for (let k = 0; k < nnz && same; k++) if (this.patColInd[k] !== A.colInd[k]) same = false;
    }
    if (same) return false;
    this.patRowPtr = A.rowPtr.slice(0, n + 1);
    this.patColInd = A.colInd.slice(0, nnz);
    this.hasPattern = true;
    return true;
  }
}

export function isMatrixLinearSolver(o: unknown): o is MatrixLinearSolver {
  return typeof o === 'object' && o !== null && (o as { isMatrixLinearSolver?: unknown }).isMatrixLinearSolver === true;
}

/**
 * A direct sparse solver with a fill-reducing ordering (SOFA's OrderingMethodAccessor): the
 * ordering is the component linked by `orderingMethod`, else the ordering component of the same
 * node, else the old `ordering` attribute when the scene sets it. With none of them SOFA adds an
 * AMDOrderingMethod; sofa-ts takes approximate minimum degree too unless reverse Cuthill–McKee or
 * the mesh's own numbering needs clearly less work (leastWorkOrdering: a slender mesh, whose band
 * is cheaper than minimum degree's separators). The solution is the same up to round-off.
 */
export abstract class DirectSparseSolver extends MatrixLinearSolver {
  readonly ordering = this.initData({
    name: 'ordering',
    type: Enum(['Natural', 'AMD', 'COLAMD', 'Metis']),
    default: 'AMD',
    help:
      'deprecated: ordering method when no ordering component is given (COLAMD is served by AMD on A + Aᵀ); ' +
      'when neither is given, AMD unless reverse Cuthill–McKee or the natural order costs at most 0.85 of its factorization work and saves 2 million multiply-adds',
  });
  readonly orderingMethod = this.initLink<BaseOrderingMethod>({
    name: 'orderingMethod',
    help: 'ordering method used by this component (default: the one in this node, else AMD)',
    accepts: isOrderingMethod,
    expected: 'an ordering method (NaturalOrderingMethod, AMDOrderingMethod, MetisOrderingMethod)',
    search: 'local',
  });

  /** The ordering the last analysis chose when the scene named none. */
  private leastWork: LeastWorkMethod | undefined;

  /**
   * The ordering the scene names: the ordering component's, else the `ordering` attribute's (and,
   * in subclasses, their own legacy attributes'); undefined when it names none.
   */
  protected namedOrdering(): string | undefined {
    const m = this.orderingMethod.get();
    if (m) return m.methodName;
    if (!this.ordering.isSet) return undefined;
    return this.ordering.value === 'COLAMD' ? 'AMD' : this.ordering.value;
  }

  /** Name of the ordering in use, for messages and tests ('RCM' or 'Natural' when leastWorkOrdering chose it). */
  get orderingName(): string {
    return this.namedOrdering() ?? this.leastWork ?? 'AMD';
  }

  /** The fill-reducing permutation (new → old) for the pattern of A. Allocates (pattern changes only). */
  protected permutation(A: CsrMatrix): Int32Array {
    const n = A.rows;
    const m = this.orderingMethod.get();
    if (m) return m.computePermutation(n, A.rowPtr, A.colInd);
    const named = this.namedOrdering();
    if (named === undefined) {
      const chosen = leastWorkOrdering(n, A.rowPtr, A.colInd);
      this.leastWork = chosen.method;
      return chosen.perm;
    }
    switch (named) {
      case 'Natural':
        return naturalOrdering(n);
      case 'Metis':
        return nestedDissectionOrdering(n, A.rowPtr, A.colInd);
      default:
        return amdOrdering(n, A.rowPtr, A.colInd);
    }
  }
}

/** `; row r is dof d of <state> (component c)`: which state's dof a row of the assembled system is. */
function dofOfRow(system: MechanicalSystem, row: number): string {
  for (const m of system.masters) {
    if (row < m.offset || row >= m.offset + m.derivLength) continue;
    const d = m.state.stateType.derivSize;
    const k = row - m.offset;
    return `; row ${row} is dof ${Math.floor(k / d)} of ${m.state.describe()}${m.state.hasContext ? ` in ${m.state.context.path}` : ''} (component ${k % d} of ${d})`;
  }
  return '';
}
