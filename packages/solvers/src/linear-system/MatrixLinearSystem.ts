import { Bool, sofaComponent } from '@sofa-ts/core';
import type { CsrMatrix } from '@sofa-ts/linalg';
import { TypedMatrixLinearSystem } from './TypedMatrixLinearSystem.js';

/** The contributions SOFA's MatrixLinearSystem can leave out; sofa-ts assembles all of them. */
const ASSEMBLED = [
  'assembleStiffness',
  'assembleMass',
  'assembleDamping',
  'assembleGeometricStiffness',
  'applyProjectiveConstraints',
  'applyMappedComponents',
] as const;

/**
 * SOFA's MatrixLinearSystem: the global matrix A = P·(m·M + b·B + k·K)·P + (I − P) that an assembled
 * linear solver of the same node factorises, built from the local matrices of the masses, force
 * fields, mapped components (Jᵀ·H·J) and projective constraints below the solver.
 * In sofa-ts that assembly is the compiled mechanical system's (`assembleMBK`: pattern built at the
 * first step, values refilled after); this component states what enters it and reports the size.
 * Every contribution is assembled: a flag set to 0 is refused at init, except on a system that only
 * a CompositeLinearSystem lists beside its solver's system (SOFA shows those matrices in a GUI
 * image; no sofa-ts component reads them, so they are not assembled). checkIndices and
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
export class MatrixLinearSystem extends TypedMatrixLinearSystem {
  readonly assembleStiffness = this.initData({
    name: 'assembleStiffness',
    type: Bool,
    default: true,
    help: 'add the stiffness to the global matrix (sofa-ts: always)',
  });
  readonly assembleMass = this.initData({
    name: 'assembleMass',
    type: Bool,
    default: true,
    help: 'add the mass to the global matrix (sofa-ts: always)',
  });
  readonly assembleDamping = this.initData({
    name: 'assembleDamping',
    type: Bool,
    default: true,
    help: 'add the damping to the global matrix (sofa-ts: always)',
  });
  readonly assembleGeometricStiffness = this.initData({
    name: 'assembleGeometricStiffness',
    type: Bool,
    default: true,
    help: 'add the geometric stiffness of mappings to the global matrix (sofa-ts: always)',
  });
  readonly applyProjectiveConstraints = this.initData({
    name: 'applyProjectiveConstraints',
    type: Bool,
    default: true,
    help: 'apply the projective constraints to the global matrix (sofa-ts: always)',
  });
  readonly applyMappedComponents = this.initData({
    name: 'applyMappedComponents',
    type: Bool,
    default: true,
    help: 'let mapped components contribute to the global matrix (sofa-ts: always)',
  });
  readonly checkIndices = this.initData({
    name: 'checkIndices',
    type: Bool,
    default: false,
    help: 'verify indices before adding them to the global matrix (accepted; sofa-ts checks them once, when the pattern is built)',
  });
  readonly parallelAssemblyIndependentMatrices = this.initData({
    name: 'parallelAssemblyIndependentMatrices',
    type: Bool,
    default: false,
    help: 'assemble independent matrices in parallel (accepted; sofa-ts assembles on one thread)',
  });
  override init(): void {
    super.init();
    if (!this.isAuxiliary()) this.checkFlags();
  }

  /** True when a CompositeLinearSystem of the scene lists this system beside its solver's system. */
  private isAuxiliary(): boolean {
    let aux = false;
    this.context.root.visit((n) => {
      for (const o of n.objects) {
        const c = o as { isCompositeLinearSystem?: boolean; auxiliarySystems?: () => readonly unknown[] };
        if (c.isCompositeLinearSystem && c.auxiliarySystems!().includes(this)) aux = true;
      }
    });
    return aux;
  }

  /** The contributions left out; refused for a system a solver uses. */
  private checkFlags(): void {
    for (const name of ASSEMBLED) {
      if (!this[name].value) throw this.error(`${name}="0" is not supported: sofa-ts assembles every contribution of the system`);
    }
  }

  override assembled(A: CsrMatrix): void {
    if (this.assemblies === 0) this.checkFlags();
    super.assembled(A);
  }
}
