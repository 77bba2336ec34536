import { csrAddScaled, csrAxpyInto, spgemmNumeric, spgemmSymbolic, type CsrMatrix } from '@sofa-ts/linalg';

/** Where J_p0 of a parent comes from: a constant shift (master) or another mapped state's J_s0. */
export interface ParentJacobian {
  readonly J: CsrMatrix;
}

/**
 * The full Jacobian of a mapped state s with respect to the system's independent dofs,
 * J_s0 = Σ_p J_sp · J_p0 (Compliant, eq. of figure 4), through any depth of mappings: J_p0 is a
 * shift matrix for a master parent and the parent's own J_s0 for a mapped one.
 * The products' patterns are computed once; `refresh()` recomputes the values in place (needed
 * every step for non-linear mappings, whose J_sp change with the positions).
 */
export class MappedJacobian {
  readonly J: CsrMatrix;
  private readonly products: CsrMatrix[];
  private readonly acc: Float64Array;

  /** `local(i)` gives the current J_sp of parent i (its pattern must not change). */
  constructor(
    private readonly local: (i: number) => CsrMatrix,
    private readonly parents: readonly ParentJacobian[],
  ) {
    const cols = parents[0].J.cols;
    this.acc = new Float64Array(cols);
    this.products = parents.map((p, i) => spgemmSymbolic(local(i), p.J));
    let sum = this.products[0];
    for (let i = 1; i < this.products.length; i++) sum = csrAddScaled(sum, this.products[i], 1, 1);
    this.J = this.products.length === 1 ? { ...sum, values: new Float64Array(sum.values.length) } : sum;
    this.refresh();
  }

  /** Recomputes J_s0's values from the current J_sp and parents' J_p0 (no allocation). */
  refresh(): void {
    for (let i = 0; i < this.products.length; i++) spgemmNumeric(this.products[i], this.local(i), this.parents[i].J, this.acc);
    this.J.values.fill(0);
    for (const p of this.products) csrAxpyInto(this.J, p, 1);
  }
}
