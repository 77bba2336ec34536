import {
  BaseObject,
  Bool,
  isBaseMapping,
  isMechanicalState,
  sofaComponent,
  type BaseMapping,
  type BaseMechanicalState,
} from '@sofa-ts/core';

/**
 * SOFA's MatrixProjectionMethod: for a pair of (mapped) states (a, b), the projection of the
 * matrix block K_ab a force field or mass computes on them onto the top-most states:
 *   K_top += J_aᵀ·K_ab·J_b,   J_a the product of the Jacobians of the mappings from a up.
 * In sofa-ts the compiled mechanical system does this projection for every pair of mapped states
 * (MechanicalSystem.assembleMBK), which is what SOFA does with the default method it creates for
 * a pair without one; this component names the pair, checks it, and honours
 * areJacobiansConstant: Jacobians of linear mappings are built once (as SOFA then keeps them);
 * those of non-linear mappings are refreshed at each assembly, which a warning says.
 */
@sofaComponent({
  name: 'MatrixProjectionMethod',
  category: 'LinearSystem',
  module: 'Sofa.Component.LinearSystem',
  description:
    "Projection J_aᵀ·K·J_b of the matrices of a pair of mapped states onto the top-most states (the compiled system's mapped-matrix assembly; the pair is checked).",
  templates: ['CompressedRowSparseMatrixd'],
  defaultTemplate: 'CompressedRowSparseMatrixd',
})
export class MatrixProjectionMethod extends BaseObject {
  readonly mechanicalStates = this.initLink<BaseMechanicalState>({
    name: 'mechanicalStates',
    help: 'the pair of mechanical states whose matrix block is projected',
    accepts: isMechanicalState,
    expected: 'two MechanicalObjects',
    multi: true,
  });
  readonly areJacobiansConstant = this.initData({
    name: 'areJacobiansConstant',
    type: Bool,
    default: false,
    help: 'the Jacobians of the mappings are computed once (sofa-ts: those of linear mappings always are; non-linear ones are refreshed, with a warning)',
  });

  /** The mappings from each state of the pair up to its top-most states. */
  chains: [BaseMapping[], BaseMapping[]] = [[], []];

  override init(): void {
    const states = this.mechanicalStates.getAll();
    if (states.length !== 2) throw this.error(`mechanicalStates must name 2 mechanical states (got ${states.length})`);
    this.chains = [mappingChain(states[0]), mappingChain(states[1])];
    if (this.areJacobiansConstant.value) {
      const nonLinear = [...new Set([...this.chains[0], ...this.chains[1]])].filter((m) => !m.isLinear);
      if (nonLinear.length > 0)
        this.warn(
          `areJacobiansConstant is set, but ${nonLinear.map((m) => m.describe()).join(', ')} ${nonLinear.length > 1 ? 'are' : 'is'} not linear: sofa-ts refreshes their Jacobians at each assembly (SOFA keeps the first ones)`,
        );
    }
  }
}

/** The mechanical mappings from `s` up to top-most states, found in the nodes of their outputs. */
function mappingChain(s: BaseMechanicalState): BaseMapping[] {
  const out: BaseMapping[] = [];
  const seen = new Set<BaseMechanicalState>();
  const todo = [s];
  while (todo.length > 0) {
    const st = todo.pop()!;
    if (seen.has(st)) continue;
    seen.add(st);
    const m = st.context.objects.find((o): o is BaseMapping => isBaseMapping(o) && o.getTo() === st);
    if (!m) continue;
    out.push(m);
    todo.push(...m.getFrom());
  }
  return out;
}
