import { Bool, StringArray, UInt, sofaComponent } from '@sofa-ts/core';
import { crsTemplates } from './matrix-linear-solver.js';
import { SparseCholeskySolver } from './SparseCholeskySolver.js';

/** TAUCS's orderings (taucs.factor.ordering) and the sofa-ts ordering that serves each. */
const TAUCS_ORDERINGS: Record<string, 'Metis' | 'AMD' | 'Natural'> = {
  metis: 'Metis',
  amd: 'AMD',
  md: 'AMD',
  mmd: 'AMD',
  genmmd: 'AMD',
  colamd: 'AMD',
  identity: 'Natural',
};

/** Options that choose between variants of the same complete LLᵀ (multifrontal, left-looking, phases). */
const SAME_FACTORIZATION = new Set(['taucs.factor.mf', 'taucs.factor.ll', 'taucs.factor.symbolic', 'taucs.factor.numeric', 'taucs.factor']);

/**
 * SOFA's SparseTAUCSSolver (the old SofaTaucsSolver module, alias TAUCSSolver): TAUCS's unified
 * `taucs_linsolve` driven by a list of `key=value` options, by default
 * `taucs.factor.LLT=true taucs.factor.ordering=metis`: the Cholesky factorization A(p,p) = L·Lᵀ of
 * the symmetric positive definite system matrix with a nested-dissection ordering p. sofa-ts
 * factorises with its sparse Cholesky (SparseCholeskySolver), and reads the options:
 *   taucs.factor.LLT=true              the factorization done (LLᵀ);
 *   taucs.factor.ordering=metis|amd|md|mmd|genmmd|colamd|identity
 *                                       nested dissection, AMD (which serves the minimum-degree
 *                                       variants: another ordering changes the fill, not the solution), natural;
 *   taucs.factor.mf / ll / symbolic / numeric
 *                                       variants and phases of the same factorization (no effect on the result).
 * Any other option (LU or LDLᵀ factorizations, TAUCS's iterative solves, taucs.cilk.nproc),
 * symmetric="0" (TAUCS then factorises the whole matrix, sofa-ts factorises it as symmetric) and nproc ≠ 1 are
 * not honoured: one located warning lists them.
 */
@sofaComponent({
  name: 'SparseTAUCSSolver',
  aliases: ['TAUCSSolver'],
  category: 'LinearSolver',
  module: 'SofaTaucsSolver',
  description: 'Direct linear solvers implemented with the TAUCS library (in sofa-ts: the sparse Cholesky LLᵀ of SparseCholeskySolver).',
  templates: crsTemplates,
  defaultTemplate: 'CompressedRowSparseMatrixMat3x3d',
})
export class SparseTAUCSSolver extends SparseCholeskySolver {
  readonly options = this.initData({
    name: 'options',
    type: StringArray,
    default: [],
    help: 'TAUCS unified solver list of space-separated options (default: taucs.factor.LLT=true taucs.factor.ordering=metis)',
  });
  readonly symmetric = this.initData({ name: 'symmetric', type: Bool, default: true, help: 'Consider the system matrix as symmetric' });
  readonly nproc = this.initData({ name: 'nproc', type: UInt, default: 1, help: 'NB proc used in taucs library' });

  /** The ordering the options ask for (TAUCS's default: metis). */
  private taucsOrdering: 'Metis' | 'AMD' | 'Natural' = 'Metis';

  protected override namedOrdering(): string | undefined {
    // An ordering component (sofa-ts's OrderingMethodAccessor) or the ordering attribute, when given, wins.
    if (this.orderingMethod.get() || this.ordering.isSet || this.permutation_.isSet) return super.namedOrdering();
    return this.taucsOrdering;
  }

  override init(): void {
    super.init();
    const ignored: string[] = [];
    for (const opt of this.options.value) {
      const eq = opt.indexOf('=');
      const key = eq < 0 ? opt : opt.slice(0, eq);
      const value = eq < 0 ? 'true' : opt.slice(eq + 1);
      if (key === 'taucs.factor.LLT' && value === 'true') continue;
      if (key === 'taucs.factor.ordering' && value in TAUCS_ORDERINGS) {
        this.taucsOrdering = TAUCS_ORDERINGS[value];
        continue;
      }
      if (SAME_FACTORIZATION.has(key)) continue;
      ignored.push(opt);
    }
    const differs: string[] = [];
    if (ignored.length > 0) differs.push(`the options ${ignored.join(' ')} (the factorization is a complete LLᵀ)`);
    if (!this.symmetric.value) differs.push('symmetric=0 (the matrix is factorised as symmetric)');
    if (this.nproc.value !== 1) differs.push(`nproc=${this.nproc.value} (one thread)`);
    if (differs.length > 0) this.warn(`solved by sofa-ts's sparse Cholesky, which ignores ${differs.join(', ')}`);
  }
}
