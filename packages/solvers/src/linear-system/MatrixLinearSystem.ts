import { BaseObject, Bool, VecN, sofaComponent } from '@sofa-ts/core';
import type { CsrMatrix } from '@sofa-ts/linalg';

/** The contributions SOFA's MatrixLinearSystem can leave out; sofa-ts assembles all of them. */
const ASSEMBLED = ['assembleStiffness', 'assembleMass', 'assembleDamping', 'assembleGeometricStiffness', 'applyProjectiveConstraints', 'applyMappedComponents'] as const;

/**
 * SOFA's MatrixLinearSystem: the global matrix A = P·(m·M + b·B + k·K)·P + (I − P) that an assembled
 * linear solver of the same node factorises, built from the local matrices of the masses, force
 * fields, mapped components (Jᵀ·H·J) and projective constraints below the solver.
 * In sofa-ts that assembly is the compiled mechanical system's (`assembleMBK`: pattern built at the
 * first step, values refilled after); this component states what enters it and reports the size.
 * Every contribution is assembled: a flag set to 0 is refused at init. checkIndices and
 * parallelAssemblyIndependentMatrices are accepted (indices are always checked once, when the
 * pattern is built; the assembly runs on one thread).
 */
@sofaComponent({
  name: 'MatrixLinearSystem',
  category: 'LinearSystem',
  module: 'Sofa.Component.LinearSystem',
  description: 'Assembled linear system: the global matrix of the masses, force fields, mappings and projective constraints.',
  templates: ['CompressedRowSparseMatrixd', 'CompressedRowSparseMatrixMat3x3d'],
  defaultTemplate: 'CompressedRowSparseMatrixd',
})
export class MatrixLinearSystem extends BaseObject {
  readonly isMatrixLinearSystem = true;
  readonly assembleStiffness = this.initData({ name: 'assembleStiffness', type: Bool, default: true, help: 'add the stiffness to the global matrix (sofa-ts: always)' });
  readonly assembleMass = this.initData({ name: 'assembleMass', type: Bool, default: true, help: 'add the mass to the global matrix (sofa-ts: always)' });
  readonly assembleDamping = this.initData({ name: 'assembleDamping', type: Bool, default: true, help: 'add the damping to the global matrix (sofa-ts: always)' });
  readonly assembleGeometricStiffness = this.initData({ name: 'assembleGeometricStiffness', type: Bool, default: true, help: 'add the geometric stiffness of mappings to the global matrix (sofa-ts: always)' });
  readonly applyProjectiveConstraints = this.initData({ name: 'applyProjectiveConstraints', type: Bool, default: true, help: 'apply the projective constraints to the global matrix (sofa-ts: always)' });
  readonly applyMappedComponents = this.initData({ name: 'applyMappedComponents', type: Bool, default: true, help: 'let mapped components contribute to the global matrix (sofa-ts: always)' });
  readonly checkIndices = this.initData({ name: 'checkIndices', type: Bool, default: false, help: 'verify indices before adding them to the global matrix (accepted; sofa-ts checks them once, when the pattern is built)' });
  readonly parallelAssemblyIndependentMatrices = this.initData({ name: 'parallelAssemblyIndependentMatrices', type: Bool, default: false, help: 'assemble independent matrices in parallel (accepted; sofa-ts assembles on one thread)' });
  readonly matrixSize = this.initData({ name: 'matrixSize', type: VecN(2, 'Vec2u'), default: new Float64Array(2), output: true, help: 'size of the global matrix (rows, columns), set at each assembly' });
  readonly enableAssembly = this.initData({ name: 'enableAssembly', type: Bool, default: true, help: 'allow the assembly of the system matrix (sofa-ts: always)' });

  override init(): void {
    for (const name of ASSEMBLED) {
      if (!this[name].value) throw this.error(`${name}="0" is not supported: sofa-ts assembles every contribution of the system`);
    }
    if (!this.enableAssembly.value) throw this.error('enableAssembly="0" is not supported: sofa-ts assembles every contribution of the system');
  }

  /** Called by the linear solver with each assembled matrix. */
  assembled(A: CsrMatrix): void {
    const s = this.matrixSize.value;
    if (s[0] !== A.rows || s[1] !== A.cols) this.matrixSize.value = Float64Array.of(A.rows, A.cols);
  }
}

export function isMatrixLinearSystem(o: unknown): o is MatrixLinearSystem {
  return typeof o === 'object' && o !== null && (o as { isMatrixLinearSystem?: unknown }).isMatrixLinearSystem === true;
}
