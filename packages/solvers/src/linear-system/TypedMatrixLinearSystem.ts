import { BaseObject, Bool, VecN } from '@sofa-ts/core';
import type { CsrMatrix } from '@sofa-ts/linalg';

/**
 * Common part of SOFA's assembled linear systems (TypedMatrixLinearSystem): the global matrix an
 * assembled linear solver works on, and its size. In sofa-ts the compiled mechanical system does
 * the assembly (`assembleMBK`: pattern built once, values refilled); a linear-system component says
 * which matrix a solver gets and records its size each time the solver is handed one.
 */
export abstract class TypedMatrixLinearSystem extends BaseObject {
  readonly isMatrixLinearSystem = true;
  readonly matrixSize = this.initData({
    name: 'matrixSize',
    type: VecN(2, 'Vec2u'),
    default: new Float64Array(2),
    output: true,
    help: 'size of the global matrix (rows, columns), set at each assembly',
  });
  readonly enableAssembly = this.initData({
    name: 'enableAssembly',
    type: Bool,
    default: true,
    help: 'allow the assembly of the system matrix (sofa-ts: always)',
  });
  /** Assemblies reported so far (the matrix of the last one is the solver's). */
  assemblies = 0;
  /** The matrix of the last assembly (the solver's own arrays, refilled in place: not a copy). */
  private last: CsrMatrix | undefined;

  override init(): void {
    if (!this.enableAssembly.value)
      throw this.error('enableAssembly="0" is not supported: sofa-ts assembles every contribution of the system');
  }

  /** Called by the linear solver with each matrix it is handed. */
  assembled(A: CsrMatrix): void {
    this.assemblies++;
    this.last = A;
    const s = this.matrixSize.value;
    if (s[0] !== A.rows || s[1] !== A.cols) this.matrixSize.value = Float64Array.of(A.rows, A.cols);
  }

  /** The global matrix of the last assembly, as its solver holds it (SOFA's getSystemBaseMatrix). */
  systemMatrix(): CsrMatrix | undefined {
    return this.last;
  }
}

export function isMatrixLinearSystem(o: unknown): o is TypedMatrixLinearSystem {
  return typeof o === 'object' && o !== null && (o as { isMatrixLinearSystem?: unknown }).isMatrixLinearSystem === true;
}
