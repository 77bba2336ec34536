import { isCompliance, type BaseCompliance } from '@sofa-ts/core';
import { createCsr, spgemmNumeric, spgemmSymbolic, type CsrMatrix } from '@sofa-ts/linalg';
import { ConstraintAssembly, type CompliantState } from './constraint-rows.js';
import type { MBKAssembly } from './mbk-assembly.js';
import type { SystemGraph } from './system-graph.js';
import type { MBKFactors } from './system-state.js';

/**
 * The assembled KKT system of a step (see core's KKTSystem): H with the solver's factors and the
 * projection applied, J and J·P (n × m), C·cFactor (n × n), P (m × m) and the violations φ (n).
 * Every matrix is owned by the system and refilled in place by the next `assembleKKT`.
 */
export interface AssembledKKT {
  readonly m: number;
  readonly n: number;
  readonly dt: number;
  readonly H: CsrMatrix;
  readonly J: CsrMatrix;
  readonly JP: CsrMatrix;
  readonly C: CsrMatrix;
  readonly P: CsrMatrix;
  readonly phi: Float64Array;
  readonly isPIdentity: boolean;
  readonly constraints: readonly CompliantState[];
  /** Changes whenever the pattern of H, J, JP, C or P changed. */
  readonly patternVersion: number;
}

/**
 * The KKT system of a compiled system (the Compliant plugin's assembly): H from the assembled
 * operator, the constraint rows J of the compliant states, their compliance C and violations φ,
 * and the projection P with J·P.
 */
export class KKTAssembly {
  /** Constraint rows of the compliant states. */
  readonly constraintRows: ConstraintAssembly;
  private kkt: KKTProjection | undefined;

  /**
   * Compliant states: mapped states with compliances acting as such, in system order. Their
   * positions are the violations φ, J_c0 their constraint rows.
   */
  constructor(
    private readonly graph: SystemGraph,
    private readonly mbk: MBKAssembly,
  ) {
    const byState = new Map<number, BaseCompliance[]>();
    for (const e of graph.forceFields) {
      if (!isCompliance(e.ff) || !e.ff.actsAsCompliance) continue;
      const s = e.states[0];
      let list = byState.get(s);
      if (!list) byState.set(s, (list = []));
      list.push(e.ff);
    }
    const entries = [];
    for (const s of graph.mappedStates) {
      const compliances = byState.get(s.index);
      if (!compliances) continue;
      const t = s.state.stateType;
      if (t.coordSize !== t.derivSize)
        throw compliances[0].error(
          `a compliance needs a state whose positions are its violations (Vec templates); ${s.state.describe()} is ${t.name}`,
        );
      entries.push({ index: s.index, state: s.state, compliances, J: graph.jacobians[s.index].J });
    }
    this.constraintRows = new ConstraintAssembly(entries, graph.size);
  }

  /** The compliant states (constraint rows), in row order. */
  get compliantStates(): readonly CompliantState[] {
    return this.constraintRows.states;
  }

  /** Number of constraint rows n. */
  get constraintSize(): number {
    return this.constraintRows.size;
  }

  /**
   * The KKT system of a step (Compliant's assembly, figure 4 of the plugin's paper):
   *   H = P·(Σ_g J_g0ᵀ (m·M + b·B + k·K)_g J_g0)·P + (I − P)  (compliances give no K here)
   *   J = [J_c0] over compliant states c,  C = blockdiag(C_c)·cFactor,  φ = [x_c]
   * and P, J·P. Patterns are built once and refilled; J rows of non-linear mappings follow the
   * last `propagatePositionsAndVelocities`.
   */
  assembleKKT(factors: MBKFactors, cFactor: number, dt: number): AssembledKKT {
    const H = this.mbk.assembleMBK(factors);
    const rows = this.constraintRows;
    rows.stack.refill();
    const J = rows.stack.matrix;
    const C = rows.assembleC(cFactor);
    const proj = this.assembleKKTProjection(J);
    return {
      m: this.graph.size,
      n: rows.size,
      dt,
      H,
      J,
      JP: proj.JP,
      C,
      P: proj.P,
      phi: rows.fillViolation(),
      isPIdentity: proj.identity,
      constraints: rows.states,
      patternVersion: this.mbk.matrixPatternVersion * 65536 + rows.cAssembler.patternVersion * 256 + proj.version,
    };
  }

  /**
   * P as a matrix and J·P. Without projective constraints P = I and J·P = J; with diagonal ones
   * P keeps its identity pattern with zeros on projected dofs and J·P masks J's columns; with a
   * non-diagonal one P is the general projection with the projected dofs' rows and columns
   * cleared, and J·P a sparse product with a fixed plan.
   */
  private assembleKKTProjection(J: CsrMatrix): KKTProjection {
    const m = this.graph.size;
    let k = this.kkt;
    if (!k) {
      const rowPtr = new Int32Array(m + 1);
      const colInd = new Int32Array(m);
      for (let i = 0; i < m; i++) {
        rowPtr[i + 1] = i + 1;
        colInd[i] = i;
      }
      const identity = createCsr(m, m, rowPtr, colInd, new Float64Array(m).fill(1));
      k = this.kkt = {
        identity: this.graph.constraints.length === 0,
        P: identity,
        JP: J,
        version: 0,
        jVersion: J,
        pVersion: -1,
        acc: new Float64Array(m),
      };
    }
    if (k.identity) return k;
    const mask = this.mbk.projectedMask;
    if (!this.mbk.general) {
      const pv = k.P.values;
      for (let i = 0; i < m; i++) pv[i] = mask[i] === 1 ? 0 : 1;
      if (k.JP === J || k.jVersion !== J) {
        k.JP = createCsr(J.rows, J.cols, J.rowPtr, J.colInd);
        k.jVersion = J;
        k.version++;
      }
      const src = J.values,
        dst = k.JP.values,
        col = J.colInd;
      for (let q = 0; q < src.length; q++) dst[q] = mask[col[q]] === 1 ? 0 : src[q];
      return k;
    }
    const g = this.mbk.general;
    const Pg = g.asm.matrix!;
    if (k.pVersion !== g.asm.patternVersion || k.jVersion !== J || k.JP === J) {
      k.P = createCsr(m, m, Pg.rowPtr, Pg.colInd);
      k.JP = spgemmSymbolic(J, k.P);
      k.pVersion = g.asm.patternVersion;
      k.jVersion = J;
      k.version++;
    }
    // P = P_general with the rows and columns of diagonally projected dofs cleared
    const pv = k.P.values;
    for (let r = 0; r < m; r++) {
      for (let q = Pg.rowPtr[r]; q < Pg.rowPtr[r + 1]; q++) pv[q] = mask[r] === 1 || mask[Pg.colInd[q]] === 1 ? 0 : Pg.values[q];
    }
    spgemmNumeric(k.JP, J, k.P, k.acc);
    return k;
  }
}

/** P and J·P of the KKT system, kept between steps. */
interface KKTProjection {
  /** True when the system has no projective constraint (P = I, J·P = J). */
  identity: boolean;
  P: CsrMatrix;
  JP: CsrMatrix;
  version: number;
  /** The J the pattern of JP was built for. */
  jVersion: CsrMatrix;
  pVersion: number;
  /** (m) zeroed scratch row of the product. */
  acc: Float64Array;
}
