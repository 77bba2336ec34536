import { InertComponent, sofaComponent } from '@sofa-ts/core';
import { isConstraintSolver, type BaseConstraintSolver } from './base-constraint-solver.js';

/**
 * SOFA's ComplianceMatrixImage (plugin SofaMatrix): shows the compliance matrix W of a constraint
 * solver as an image in SOFA's GUI. It only draws, so it is inert in sofa-ts batch runs (the
 * matrix itself is written by ComplianceMatrixExporter).
 */
@sofaComponent({
  name: 'ComplianceMatrixImage',
  category: 'ConstraintSolver',
  module: 'SofaMatrix',
  description: "Image of a constraint solver's compliance matrix in SOFA's GUI (inert in batch runs: it only draws).",
})
export class ComplianceMatrixImage extends InertComponent {
  readonly constraintSolver = this.initLink<BaseConstraintSolver>({
    name: 'constraintSolver',
    help: 'the constraint solver whose compliance matrix is shown',
    accepts: isConstraintSolver,
    expected: 'a constraint solver',
    search: 'up',
  });
}
