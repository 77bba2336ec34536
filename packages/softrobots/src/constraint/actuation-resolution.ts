import type { ConstraintResolution } from '@sofa-ts/core';

/**
 * The local solve of one actuator row in a Gauss-Seidel sweep (SoftRobots' direct actuators:
 * CableConstraint, SurfacePressureConstraint). The row measures a "displacement" δ (a cable's
 * shortening, a cavity's volume growth) and its multiplier λ is the actuation impulse
 * (force·dt, pressure·dt). d = δ_free + W·λ is δ with the current λ.
 * - displacement mode (δ imposed): λ ← λ − (d − target)/W_ii, then λ clamped to
 *   [minForce, maxForce];
 * - force mode (λ imposed): λ = target, unless δ would then leave [minDisp, maxDisp]: λ is moved
 *   so that δ sits on the bound (λ += (bound − d′)/W_ii, d′ the displacement at λ = target).
 */
export class ActuationResolution implements ConstraintResolution {
  readonly nbLines = 1;
  tolerance = 0;
  private w = 1;
  mode: 'displacement' | 'force' = 'displacement';
  /** Displacement mode: the requested displacement; force mode: the imposed λ. */
  target = 0;
  minForce = -Infinity;
  maxForce = Infinity;
  minDisp = -Infinity;
  maxDisp = Infinity;

  init(line: number, W: Float64Array, n: number, force: Float64Array): void {
    this.w = W[line * n + line];
    if (!(this.w > 0)) this.w = 1e-300;
    force[line] = this.mode === 'force' ? this.target : 0;
  }

  resolution(line: number, _W: Float64Array, _n: number, d: Float64Array, force: Float64Array): void {
    const w = this.w;
    if (this.mode === 'displacement') {
      let l = force[line] - (d[line] - this.target) / w;
      if (l < this.minForce) l = this.minForce;
      if (l > this.maxForce) l = this.maxForce;
      force[line] = l;
      return;
    }
    const dAtValue = d[line] + w * (this.target - force[line]);
    let l = this.target;
    if (dAtValue > this.maxDisp) l += (this.maxDisp - dAtValue) / w;
    else if (dAtValue < this.minDisp) l += (this.minDisp - dAtValue) / w;
    force[line] = l;
  }

  store(): void {}
}
