import type { ConstraintResolution } from '@sofa-ts/core';

/**
 * SOFA's AugmentedLagrangianResolutionWithFriction, rows (normal, t, s): the multipliers are
 * augmented by the violations times the penalty ε at each Gauss-Seidel visit,
 *   λ_n ← λ_n − ε·d_n;  λ_n < 0: the contact opens (all λ = 0);
 *   trial λ_t,s* = λ_t,s − ε·d_t,s;  inside the cone (‖λ_t*‖ < μ·λ_n): λ_t,s = λ_t,s*,
 *   else (sliding) λ_t,s ← λ_t,s − μ·ε·d_n·d_t,s/‖d_t‖ (SOFA's update; none when ‖d_t‖ = 0,
 *   where SOFA divides by 0).
 * No warm start (SOFA gives it no previous forces). `status` receives 1 when the contact is closed.
 * The frictionless row is SOFA's AugmentedLagrangianResolution, λ_n ← max(0, λ_n − d_n/W_nn): the
 * law of UnilateralResolution (ε is not used there, as in SOFA).
 */
export class AugmentedLagrangianFrictionResolution implements ConstraintResolution {
  readonly nbLines = 3;
  constructor(
    readonly mu: number,
    readonly epsilon: number,
    public tolerance = 0,
    private readonly status?: Uint8Array,
    private readonly statusIndex = 0,
  ) {}
  init(): void {}
  resolution(line: number, _W: Float64Array, _n: number, d: Float64Array, force: Float64Array): void {
    const eps = this.epsilon;
    force[line] -= d[line] * eps;
    if (force[line] < 0) {
      force[line] = 0;
      force[line + 1] = 0;
      force[line + 2] = 0;
      return;
    }
    const ft0 = force[line + 1] - d[line + 1] * eps;
    const ft1 = force[line + 2] - d[line + 2] * eps;
    if (Math.hypot(ft0, ft1) - this.mu * Math.abs(force[line]) < 0) {
      force[line + 1] = ft0;
      force[line + 2] = ft1;
      return;
    }
    const norm = Math.hypot(d[line + 1], d[line + 2]);
    if (norm === 0) return;
    force[line + 1] -= (this.mu * d[line] * eps * d[line + 1]) / norm;
    force[line + 2] -= (this.mu * d[line] * eps * d[line + 2]) / norm;
  }
  store(line: number, force: Float64Array): void {
    if (this.status) this.status[this.statusIndex] = force[line] !== 0 ? 1 : 0;
  }
}
