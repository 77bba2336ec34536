import { sofaComponent, type BaseObject } from '@sofa-ts/core';
import { MatrixExporterBase } from './matrix-exporter.js';
import { denseRows, type ExportedMatrix } from './matrix-file.js';

/** A constraint solver as this exporter sees it: the problem of its last step (n rows, W row-major). */
export interface ComplianceHolder extends BaseObject {
  readonly isConstraintSolver: true;
  readonly problem: { readonly n: number; readonly W: Float64Array };
}

function isComplianceHolder(o: unknown): o is ComplianceHolder {
  return typeof o === 'object' && o !== null && (o as { isConstraintSolver?: unknown }).isConstraintSolver === true && 'problem' in o;
}

const NO_SOLVER =
  'No constraint solver found in the current context, whereas it is required. This component exports the matrix from a constraint solver: nothing is written';

/**
 * SOFA's ComplianceMatrixExporter (plugin SofaMatrix): writes the compliance matrix
 * W = Σ J·A⁻¹·Jᵀ (n × n, regularisation included) of the constraint problem the solver built in the
 * step, every exportEveryNumberOfSteps-th step (see MatrixExporterBase for the file). Its source is
 * `constraintSolver`, else the first constraint solver of its node or an ancestor. A step without
 * constraint rows writes an empty matrix (SOFA's W has size 0 then); a solver that does not build
 * W (the unbuilt Gauss-Seidel) warns instead.
 */
@sofaComponent({
  name: 'ComplianceMatrixExporter',
  category: 'Exporter',
  module: 'SofaMatrix',
  description: 'Export the compliance matrix from a constraint solver.',
})
export class ComplianceMatrixExporter extends MatrixExporterBase {
  readonly constraintSolver = this.initLink<ComplianceHolder>({
    name: 'constraintSolver',
    help: 'Constraint solver used to export its compliance matrix',
    accepts: isComplianceHolder,
    expected: 'a constraint solver (BlockGaussSeidelConstraintSolver, ...)',
    search: 'up',
  });

  override init(): void {
    super.init();
    if (!this.constraintSolver.get()) this.warn(NO_SOLVER);
  }

  protected exportedMatrix(): ExportedMatrix | string {
    const solver = this.constraintSolver.get();
    if (!solver) return NO_SOLVER;
    const { n, W } = solver.problem;
    if (W.length !== n * n)
      return `Matrix cannot be exported: the constraint solver '${solver.getName()}' does not build the compliance matrix W`;
    return denseRows(W, n, n);
  }
}
