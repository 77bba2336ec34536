import { sofaComponent } from '@sofa-ts/core';
import type { CsrMatrix } from '@sofa-ts/linalg';
import { TypedMatrixLinearSystem, isMatrixLinearSystem } from './TypedMatrixLinearSystem.js';

/**
 * SOFA's CompositeLinearSystem: a list of linear systems built together, one of which
 * (`solverLinearSystem`, default the first of the list) is the matrix its linear solver factorises.
 * The others are extra views of the same mechanics (a stiffness-only or mass-only matrix for a
 * GlobalSystemMatrixImage in SOFA's GUI). In sofa-ts the solver's matrix is the compiled system's
 * A = P(m·M + b·B + k·K)P; the other systems are not assembled, since no sofa-ts component reads
 * them: the component says so once, at init.
 */
@sofaComponent({
  name: 'CompositeLinearSystem',
  category: 'LinearSystem',
  module: 'Sofa.Component.LinearSystem',
  description: 'Several linear systems built together; one of them is the matrix of the linear solver.',
  templates: ['CompressedRowSparseMatrixd', 'CompressedRowSparseMatrixMat3x3d'],
  defaultTemplate: 'CompressedRowSparseMatrixd',
})
export class CompositeLinearSystem extends TypedMatrixLinearSystem {
  readonly isCompositeLinearSystem = true;
  readonly linearSystems = this.initLink<TypedMatrixLinearSystem>({
    name: 'linearSystems',
    help: 'the linear systems built by this component',
    accepts: isMatrixLinearSystem,
    expected: 'linear systems (MatrixLinearSystem, ...)',
    multi: true,
  });
  readonly solverLinearSystem = this.initLink<TypedMatrixLinearSystem>({
    name: 'solverLinearSystem',
    help: 'the system of the list whose matrix the linear solver uses (default: the first of the list)',
    accepts: isMatrixLinearSystem,
    expected: 'a linear system of the list',
  });

  /** The system a solver of this composite factorises. */
  get solverSystem(): TypedMatrixLinearSystem | undefined {
    return this.solverLinearSystem.get() ?? this.linearSystems.get();
  }

  /** The listed systems other than the solver's. */
  auxiliarySystems(): readonly TypedMatrixLinearSystem[] {
    const main = this.solverSystem;
    return this.linearSystems.getAll().filter((s) => s !== main);
  }

  override init(): void {
    super.init();
    const list = this.linearSystems.getAll();
    if (list.length === 0) throw this.error('linearSystems is empty: list the linear systems to build (linearSystems="@a @b")');
    const main = this.solverSystem!;
    if (!list.includes(main)) throw this.error(`solverLinearSystem ${main.describe()} is not one of linearSystems`);
    const others = this.auxiliarySystems();
    if (others.length > 0) {
      this.warn(
        `${others.map((s) => s.describe()).join(', ')} ${others.length > 1 ? 'are' : 'is'} not assembled: only the solver's system (${main.describe()}) is, as no sofa-ts component reads the others (SOFA shows them in a GUI image)`,
      );
    }
  }

  override assembled(A: CsrMatrix): void {
    super.assembled(A);
    this.solverSystem!.assembled(A);
  }
}
