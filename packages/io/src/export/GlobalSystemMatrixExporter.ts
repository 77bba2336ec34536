import { sofaComponent, type BaseObject } from '@sofa-ts/core';
import { MatrixExporterBase } from './matrix-exporter.js';
import { csrRows, type ExportedMatrix } from './matrix-file.js';

/** What holds a global system matrix: a linear system (MatrixLinearSystem, ...) or an assembling linear solver. */
export interface SystemMatrixHolder extends BaseObject {
  systemMatrix(): { rows: number; cols: number; rowPtr: Int32Array; colInd: Int32Array; values: Float64Array } | undefined;
  readonly isMatrixLinearSystem?: boolean;
}

function holdsSystemMatrix(o: unknown): o is SystemMatrixHolder {
  return typeof o === 'object' && o !== null && typeof (o as { systemMatrix?: unknown }).systemMatrix === 'function';
}

const NO_SYSTEM =
  'No linear system found in the current context, whereas it is required. This component exports the matrix from a linear system: nothing is written';

/**
 * SOFA's GlobalSystemMatrixExporter (plugin SofaMatrix): writes the global matrix
 * A = P·(m·M + b·B + k·K)·P + (I − P) of the last linear solve, the one a direct solver factorises,
 * every exportEveryNumberOfSteps-th step (see MatrixExporterBase for the file). Its source is
 * `linearSystem`, else the first linear system of its node or an ancestor, else the first linear
 * solver there (SOFA finds the system that solver creates for itself). A matrix-free solver
 * (CGLinearSolver GraphScattered) assembles none: each export then warns, as SOFA's does.
 */
@sofaComponent({
  name: 'GlobalSystemMatrixExporter',
  category: 'Exporter',
  module: 'SofaMatrix',
  description: 'Export the global system matrix from a linear solver.',
})
export class GlobalSystemMatrixExporter extends MatrixExporterBase {
  readonly linearSystem = this.initLink<SystemMatrixHolder>({
    name: 'linearSystem',
    help: 'Linear system used to export its matrix',
    accepts: holdsSystemMatrix,
    expected: 'a linear system (MatrixLinearSystem, ...) or a linear solver that assembles its matrix',
    find: (owner) => {
      const up = (accept: (o: SystemMatrixHolder) => boolean): SystemMatrixHolder | undefined => {
        for (let n = owner.hasContext ? owner.context : undefined; n; n = n.parent) {
          const o = n.objects.find((c): c is SystemMatrixHolder => holdsSystemMatrix(c) && accept(c));
          if (o) return o;
        }
        return undefined;
      };
      return up((o) => o.isMatrixLinearSystem === true) ?? up(() => true);
    },
  });

  override init(): void {
    super.init();
    if (!this.linearSystem.get()) this.warn(NO_SYSTEM);
  }

  protected exportedMatrix(): ExportedMatrix | string {
    const holder = this.linearSystem.get();
    if (!holder) return NO_SYSTEM;
    const A = holder.systemMatrix();
    if (!A)
      return `Matrix cannot be exported, probably because the linear solver '${holder.getName()}' does not assemble explicitly the system matrix`;
    return csrRows(A);
  }
}
