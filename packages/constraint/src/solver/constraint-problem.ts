import type { ConstraintResolution } from '@sofa-ts/core';

/**
 * The constraint problem of a step (SOFA's ConstraintProblem): n rows,
 *   δ = δ_free + W·λ,   W (n × n, row-major) = J·A⁻¹·Jᵀ from the constraint corrections,
 * δ_free the violations after the free motion, λ the unknown impulses ("forces"), d the current
 * violations δ during the iterations, and per group of rows its resolution (at the group's first
 * row). Arrays are views on buffers that grow and are kept from step to step.
 */
export class ConstraintProblem {
  n = 0;
  W: Float64Array = new Float64Array(0);
  dfree: Float64Array = new Float64Array(0);
  force: Float64Array = new Float64Array(0);
  d: Float64Array = new Float64Array(0);
  readonly resolutions: Array<ConstraintResolution | undefined> = [];
  private wBuf = new Float64Array(0);
  private vBuf = new Float64Array(0);

  /** Size n, everything zeroed. */
  resize(n: number): void {
    this.n = n;
    if (this.wBuf.length < n * n) this.wBuf = new Float64Array(Math.max(n * n, 2 * this.wBuf.length));
    if (this.vBuf.length < 3 * n) this.vBuf = new Float64Array(Math.max(3 * n, 2 * this.vBuf.length));
    this.W = this.wBuf.subarray(0, n * n);
    this.W.fill(0);
    this.dfree = this.vBuf.subarray(0, n);
    this.force = this.vBuf.subarray(n, 2 * n);
    this.d = this.vBuf.subarray(2 * n, 3 * n);
    this.dfree.fill(0);
    this.force.fill(0);
    this.d.fill(0);
    this.resolutions.length = n;
    this.resolutions.fill(undefined);
  }

  /** Adds `value` to W's diagonal (SOFA's regularizationTerm). */
  addRegularization(value: number): void {
    if (!(value > Number.EPSILON)) return;
    for (let i = 0; i < this.n; i++) this.W[i * this.n + i] += value;
  }

  /** Number of groups of rows (SOFA's currentNumConstraintGroups). */
  get groupCount(): number {
    let g = 0;
    for (let i = 0; i < this.n;) {
      const r = this.resolutions[i];
      if (!r) break;
      g++;
      i += r.nbLines;
    }
    return g;
  }
}
