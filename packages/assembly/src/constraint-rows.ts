import {
  type BaseCompliance,
  type BaseConstraintProjector,
  type BaseConstraintValue,
  type BaseMechanicalState,
  type ConstraintRows,
  type MatrixAccumulator,
  isConstraintProjector,
  isConstraintValue,
} from '@sofa-ts/core';
import { FixedPatternAssembler, type CsrMatrix } from '@sofa-ts/linalg';
import { RowStack } from './shift.js';

/** One compliant state: a mapped state carrying compliances that act as such. */
export interface CompliantState extends ConstraintRows {
  /** Index of the state in MechanicalSystem.states. */
  readonly index: number;
  /** Number of rows (blocks × dim). */
  readonly rows: number;
  readonly compliances: readonly BaseCompliance[];
}

/**
 * The constraint rows of a mechanical system (the Compliant plugin's compliant dofs):
 *   J (n × m)  the rows J_c0 of the compliant states, stacked in system order;
 *   C (n × n)  blockdiag(C_c)·cFactor, assembled from the compliances with a fixed pattern (the
 *              diagonal always present, so a hard constraint has explicit zeros);
 *   φ (n)      the violations: the positions of the compliant states.
 */
export class ConstraintAssembly {
  readonly states: CompliantState[] = [];
  /** Number of constraint rows. */
  readonly size: number;
  readonly stack: RowStack;
  readonly cAssembler: FixedPatternAssembler;
  /** (n) the violations φ, refilled by `fillViolation`. */
  readonly phi: Float64Array;
  private readonly acc = new OffsetAccumulator();

  constructor(
    entries: ReadonlyArray<{ index: number; state: BaseMechanicalState; compliances: BaseCompliance[]; J: CsrMatrix }>,
    masterSize: number,
  ) {
    let offset = 0;
    for (const e of entries) {
      const dim = e.state.stateType.derivSize;
      const node = e.state.hasContext ? e.state.context : undefined;
      const projector: BaseConstraintProjector | undefined = node?.objects.find(isConstraintProjector);
      const value: BaseConstraintValue | undefined = node?.objects.find(isConstraintValue);
      const rows = e.state.size * dim;
      this.states.push({
        index: e.index,
        state: e.state,
        offset,
        blocks: e.state.size,
        dim,
        rows,
        projector,
        value,
        compliances: e.compliances,
      });
      offset += rows;
    }
    this.size = offset;
    this.stack = entries.length > 0 ? new RowStack(entries.map((e) => e.J)) : new RowStack([emptyRows(masterSize)]);
    this.cAssembler = new FixedPatternAssembler(offset, offset, { withDiagonal: true });
    this.phi = new Float64Array(offset);
  }

  /** C·cFactor with its pattern built at the first call and refilled afterwards. */
  assembleC(cFactor: number): CsrMatrix {
    const asm = this.cAssembler;
    asm.beginNumeric();
    this.emitC(asm, cFactor);
    if (!asm.endNumeric()) {
      asm.beginSymbolic();
      this.emitC(asm, cFactor);
      asm.endSymbolic();
    }
    return asm.matrix!;
  }

  private emitC(asm: FixedPatternAssembler, cFactor: number): void {
    const acc = this.acc;
    acc.target = asm;
    for (const s of this.states) {
      acc.offset = s.offset;
      for (const c of s.compliances) c.addComplianceToMatrix(acc, cFactor);
    }
  }

  /** φ ← positions of the compliant states. */
  fillViolation(): Float64Array {
    for (const s of this.states) this.phi.set(s.state.x.subarray(0, s.rows), s.offset);
    return this.phi;
  }
}

function emptyRows(cols: number): CsrMatrix {
  return { rows: 0, cols, rowPtr: new Int32Array(1), colInd: new Int32Array(0), values: new Float64Array(0) };
}

/** Forwards a compliance's local indices to the rows of its state. */
class OffsetAccumulator implements MatrixAccumulator {
  offset = 0;
  target!: FixedPatternAssembler;
  add(row: number, col: number, value: number): void {
    this.target.add(this.offset + row, this.offset + col, value);
  }
}
