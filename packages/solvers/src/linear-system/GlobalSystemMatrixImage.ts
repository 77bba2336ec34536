import { InertComponent, sofaComponent } from '@sofa-ts/core';
import { isMatrixLinearSystem, type TypedMatrixLinearSystem } from './TypedMatrixLinearSystem.js';

/**
 * SOFA's GlobalSystemMatrixImage (plugin SofaMatrix): shows the sparsity of a linear system's
 * matrix as an image in SOFA's GUI. It only draws, so it is inert in sofa-ts batch runs.
 */
@sofaComponent({
  name: 'GlobalSystemMatrixImage',
  category: 'LinearSystem',
  module: 'SofaMatrix',
  description: "Image of a linear system's matrix in SOFA's GUI (inert in batch runs: it only draws).",
})
export class GlobalSystemMatrixImage extends InertComponent {
  readonly linearSystem = this.initLink<TypedMatrixLinearSystem>({
    name: 'linearSystem',
    help: 'the linear system whose matrix is shown',
    accepts: isMatrixLinearSystem,
    expected: 'a linear system (MatrixLinearSystem, ...)',
    search: 'local',
  });
}
