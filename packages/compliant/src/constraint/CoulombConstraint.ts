import { BaseConstraintProjector, Bool, Real, sofaComponent } from '@sofa-ts/core';

/**
 * The Compliant plugin's CoulombConstraint: each block of 3 rows is a contact, the normal row
 * first, then two tangent rows; λ is projected onto the friction cone |λ_t| ≤ μ·λ_n.
 * - horizontal projection (default): λ_n ← max(λ_n, 0), then λ_t is scaled down to the cone's
 *   radius μ·λ_n when outside (the normal is kept);
 * - otherwise the orthogonal projection onto the cone (λ inside: kept; in the polar cone: 0;
 *   else onto the nearest generator: λ_n ← (λ_n + μ|λ_t|)/(1 + μ²), |λ_t| ← μ·λ_n).
 * In the correction pass the cone shrinks to its axis (μ = 0: only the normal is corrected).
 * Rows beyond the third of a block are zeroed.
 */
@sofaComponent({
  name: 'CoulombConstraint',
  category: 'ConstraintProjector',
  module: 'Compliant',
  description: 'Coulomb friction cone constraint (normal row first).',
})
export class CoulombConstraint extends BaseConstraintProjector {
  readonly mu = this.initData({ name: 'mu', type: Real, default: 1, help: 'friction coefficient: |λ_t| ≤ mu·λ_n' });
  readonly horizontalProjection = this.initData({
    name: 'horizontalProjection',
    type: Bool,
    default: true,
    help: 'project tangentially at constant normal (else orthogonally onto the cone)',
  });

  override init(): void {
    if (this.mu.value < 0) throw this.error(`mu must be non-negative (got ${this.mu.value})`);
  }

  project(lambda: Float64Array, offset: number, dim: number, _index: number, correction: boolean): void {
    const mu = correction ? 0 : this.mu.value;
    const i0 = offset,
      i1 = offset + 1,
      i2 = offset + 2;
    const tangents = Math.min(dim, 3) - 1;
    let n = lambda[i0];
    const t1 = tangents >= 1 ? lambda[i1] : 0;
    const t2 = tangents >= 2 ? lambda[i2] : 0;
    const t = Math.hypot(t1, t2);
    let scale = 1;
    if (this.horizontalProjection.value) {
      if (!(n > 0)) n = 0;
      if (t > mu * n) scale = t > 0 ? (mu * n) / t : 0;
    } else if (t <= mu * n) {
      // inside the cone
    } else if (mu * t <= -n) {
      n = 0;
      scale = 0;
    } else {
      n = (n + mu * t) / (1 + mu * mu);
      scale = t > 0 ? (mu * n) / t : 0;
    }
    lambda[i0] = n;
    if (tangents >= 1) lambda[i1] = t1 * scale;
    if (tangents >= 2) lambda[i2] = t2 * scale;
    for (let k = 3; k < dim; k++) lambda[offset + k] = 0;
  }
}
