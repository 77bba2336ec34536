import type { ConstraintResolution } from '@sofa-ts/core';
import { mat3InvertSarrus } from '@sofa-ts/linalg';

/**
 * The local solves of SOFA's Lagrangian constraints in a Gauss-Seidel sweep (its
 * ConstraintResolution classes). Each gets d = δ_free + W·λ on its rows (its own current λ
 * included) and moves its λ so that its own violation vanishes or its law holds.
 */

/** One bilateral row: λ −= d / W_ii (SOFA's BilateralConstraintResolution); optional warm start slot. */
export class BilateralResolution implements ConstraintResolution {
  readonly nbLines = 1;
  tolerance = 0;
  constructor(
    private readonly prev?: Float64Array,
    private readonly slot = 0,
  ) {}
  init(line: number, _W: Float64Array, _n: number, force: Float64Array): void {
    if (this.prev) force[line] = this.prev[this.slot];
  }
  resolution(line: number, W: Float64Array, n: number, d: Float64Array, force: Float64Array): void {
    force[line] -= d[line] / W[line * n + line];
  }
  store(line: number, force: Float64Array): void {
    if (this.prev) this.prev[this.slot] = force[line];
  }
}

/**
 * Three bilateral rows solved together (SOFA's BilateralConstraintResolution3Dof): λ −= W_b⁻¹·d
 * with W_b the 3×3 diagonal block, inverted at init; warm start from the previous step's λ of
 * the same point pair (prev[slot .. slot + 3)).
 */
export class Bilateral3Resolution implements ConstraintResolution {
  readonly nbLines = 3;
  tolerance = 0;
  private readonly inv = new Float64Array(9);
  constructor(
    private readonly prev?: Float64Array,
    private readonly slot = 0,
    private readonly load = 1,
  ) {}
  init(line: number, W: Float64Array, n: number, force: Float64Array): void {
    const m = (i: number, j: number): number => W[(line + i) * n + line + j];
    mat3InvertSarrus(this.inv, m(0, 0), m(0, 1), m(0, 2), m(1, 0), m(1, 1), m(1, 2), m(2, 0), m(2, 1), m(2, 2));
    if (this.prev) for (let i = 0; i < 3; i++) force[line + i] = this.prev[this.slot + i];
  }
  resolution(line: number, _W: Float64Array, _n: number, d: Float64Array, force: Float64Array): void {
    const inv = this.inv;
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) force[line + i] -= d[line + j] * inv[3 * i + j] * this.load;
    }
  }
  store(line: number, force: Float64Array): void {
    if (this.prev) for (let i = 0; i < 3; i++) this.prev[this.slot + i] = force[line + i];
  }
}

/** One unilateral row, λ ≥ 0 (SOFA's UnilateralConstraintResolution): λ = max(0, λ − d/W_ii). */
export class UnilateralResolution implements ConstraintResolution {
  readonly nbLines = 1;
  tolerance = 0;
  /** Friction coefficient (none). */
  readonly mu = 0;
  init(): void {}
  resolution(line: number, W: Float64Array, n: number, d: Float64Array, force: Float64Array): void {
    force[line] -= d[line] / W[line * n + line];
    if (force[line] < 0) force[line] = 0;
  }
  store(): void {}
}

/**
 * A frictional contact, rows (normal, t, s) (SOFA's UnilateralConstraintResolutionWithFriction):
 *   λ_n ← max(0, λ_n − d_n / W_nn); if 0 the contact opens (all λ = 0);
 *   d_t, d_s corrected for the change of λ_n (W_tn, W_sn), then
 *   λ_t,s ← λ_t,s − 2·d_t,s / (W_tt + W_ss), scaled back onto the cone ‖λ_t‖ ≤ μ·λ_n.
 * `status` (optional) receives 1 when the contact is closed after the solve.
 */
export class FrictionContactResolution implements ConstraintResolution {
  readonly nbLines = 3;
  private readonly w = new Float64Array(6);
  constructor(
    readonly mu: number,
    public tolerance = 0,
    private readonly status?: Uint8Array,
    private readonly statusIndex = 0,
  ) {}
  init(line: number, W: Float64Array, n: number, _force?: Float64Array): void {
    const w = this.w;
    w[0] = W[line * n + line];
    w[1] = W[line * n + line + 1];
    w[2] = W[line * n + line + 2];
    w[3] = W[(line + 1) * n + line + 1];
    w[4] = W[(line + 1) * n + line + 2];
    w[5] = W[(line + 2) * n + line + 2];
  }
  resolution(line: number, _W: Float64Array, _n: number, d: Float64Array, force: Float64Array): void {
    const w = this.w;
    const f0 = force[line];
    force[line] -= d[line] / w[0];
    if (force[line] < 0) {
      force[line] = 0;
      force[line + 1] = 0;
      force[line + 2] = 0;
      return;
    }
    d[line + 1] += w[1] * (force[line] - f0);
    d[line + 2] += w[2] * (force[line] - f0);
    force[line + 1] -= (2 * d[line + 1]) / (w[3] + w[5]);
    force[line + 2] -= (2 * d[line + 2]) / (w[3] + w[5]);
    const normFt = Math.sqrt(force[line + 1] * force[line + 1] + force[line + 2] * force[line + 2]);
    const fN = this.mu * force[line];
    if (normFt > fN) {
      const factor = fN / normFt;
      force[line + 1] *= factor;
      force[line + 2] *= factor;
    }
  }
  store(line: number, force: Float64Array): void {
    if (this.status) this.status[this.statusIndex] = force[line] > 0 ? 1 : 0;
  }
}

/**
 * SOFA's StopperLagrangianConstraintResolution1Dof: the value stays in [min, max]; the row's λ is
 * recomputed from the free violation each time (no warm start).
 */
export class StopperResolution implements ConstraintResolution {
  readonly nbLines = 1;
  tolerance = 0;
  private w = 1;
  private invW = 1;
  constructor(
    private readonly min: number,
    private readonly max: number,
  ) {}
  init(line: number, W: Float64Array, n: number, force: Float64Array): void {
    this.w = W[line * n + line];
    this.invW = 1 / this.w;
    force[line] = 0;
  }
  resolution(line: number, _W: Float64Array, _n: number, d: Float64Array, force: Float64Array): void {
    const dfree = d[line] - this.w * force[line];
    if (dfree > this.max) force[line] = (this.max - dfree) * this.invW;
    else if (dfree < this.min) force[line] = (this.min - dfree) * this.invW;
    else force[line] = 0;
  }
  store(): void {}
}

/**
 * n bilateral rows solved together (SOFA's BilateralConstraintResolutionNDof): λ −= W_b⁻¹·d with
 * W_b the n×n diagonal block of W, factored once at init as L·D·Lᵀ (a pivot of magnitude below
 * 1e-300 makes its direction free: its inverse is taken as 0). No warm start.
 */
export class BilateralNResolution implements ConstraintResolution {
  tolerance = 0;
  private readonly ldl: Float64Array;
  private readonly invD: Float64Array;
  private readonly y: Float64Array;
  constructor(readonly nbLines: number) {
    this.ldl = new Float64Array(nbLines * nbLines);
    this.invD = new Float64Array(nbLines);
    this.y = new Float64Array(nbLines);
  }
  init(line: number, W: Float64Array, n: number): void {
    const m = this.nbLines,
      L = this.ldl,
      invD = this.invD;
    // L·D·Lᵀ of the symmetric block: L unit lower (strict part stored), D on the diagonal.
    for (let j = 0; j < m; j++) {
      let d = W[(line + j) * n + line + j];
      for (let k = 0; k < j; k++) d -= L[j * m + k] * L[j * m + k] * L[k * m + k];
      L[j * m + j] = d;
      invD[j] = Math.abs(d) > 1e-300 ? 1 / d : 0;
      for (let i = j + 1; i < m; i++) {
        let s = W[(line + i) * n + line + j];
        for (let k = 0; k < j; k++) s -= L[i * m + k] * L[j * m + k] * L[k * m + k];
        L[i * m + j] = s * invD[j];
      }
    }
  }
  resolution(line: number, _W: Float64Array, _n: number, d: Float64Array, force: Float64Array): void {
    const m = this.nbLines,
      L = this.ldl,
      y = this.y;
    for (let i = 0; i < m; i++) {
      let s = d[line + i];
      for (let k = 0; k < i; k++) s -= L[i * m + k] * y[k];
      y[i] = s;
    }
    for (let i = 0; i < m; i++) y[i] *= this.invD[i];
    for (let i = m - 1; i >= 0; i--) {
      let s = y[i];
      for (let k = i + 1; k < m; k++) s -= L[k * m + i] * y[k];
      y[i] = s;
      force[line + i] -= s;
    }
  }
  store(): void {}
}
