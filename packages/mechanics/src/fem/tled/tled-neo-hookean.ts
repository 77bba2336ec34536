import { mat3Invert } from '@sofa-ts/linalg';

/**
 * The material of SofaCUDA's TLED force fields (Taylor, Cheng, Ourselin 2008; Miller, Joldes, Lance,
 * Wittek 2007): a compressible neo-Hookean solid with decoupled isochoric and volumetric parts,
 *   W(C) = ½μ·(Ī1 − 3) + ½K·(J − 1)²,   Ī1 = J^(−2/3)·tr C,   K = λ + ⅔μ (the bulk modulus),
 * whose second Piola-Kirchhoff stress S = 2·∂W/∂C is
 *   S = S_iso + S_vol,  S_iso = μ·J^(−2/3)·(I − ⅓·tr C·C⁻¹),  S_vol = K·J·(J − 1)·C⁻¹.
 * Its change dS = ∂S/∂C : H for a symmetric change H of C (dJ = ½J·C⁻¹:H, dC⁻¹ = −C⁻¹HC⁻¹):
 *   dS = μ·J^(−2/3)·[−⅓(C⁻¹:H)·(I − ⅓tr C·C⁻¹) − ⅓tr H·C⁻¹ + ⅓tr C·C⁻¹HC⁻¹]
 *        + K·[(2J − 1)·dJ·C⁻¹ − J(J − 1)·C⁻¹HC⁻¹].
 * At small strain S ≈ λ·tr ε·I + 2μ·ε: Hooke's law with the same E and ν.
 * Tensors are full row-major 3×3 arrays (9 numbers); J^(−2/3) is taken as 1/∛J², defined for an
 * inverted element too.
 */
export class TLEDNeoHookean {
  /** μ and K = λ + ⅔μ, from setLame. */
  mu = 0;
  bulk = 0;
  /** The state of the last `update`: C⁻¹ (9), tr C, J, J^(−2/3). */
  readonly Cinv = new Float64Array(9);
  I1 = 3;
  J = 1;
  j23 = 1;
  private readonly tmp = new Float64Array(9);
  private readonly cHc = new Float64Array(9);

  /** μ and K from Lamé's λ and μ. */
  setLame(lambda: number, mu: number): void {
    this.mu = mu;
    this.bulk = lambda + (2 * mu) / 3;
  }

  /** C⁻¹, tr C, J^(−2/3) from C = FᵀF and J = det F. */
  update(C: ArrayLike<number>, J: number): void {
    mat3Invert(this.Cinv, C);
    this.I1 = C[0] + C[4] + C[8];
    this.J = J;
    const c = Math.cbrt(J);
    this.j23 = 1 / (c * c);
  }

  /** The strain energy density W at the last update. */
  energy(): number {
    const dJ = this.J - 1;
    return 0.5 * this.mu * (this.j23 * this.I1 - 3) + 0.5 * this.bulk * dJ * dJ;
  }

  /** S_iso into iso and S = S_iso + S_vol into out (9 each) at the last update. */
  stress(out: Float64Array, iso: Float64Array): void {
    const Ci = this.Cinv,
      x1 = this.mu * this.j23,
      x4 = (-x1 * this.I1) / 3,
      x5 = this.bulk * this.J * (this.J - 1);
    for (let k = 0; k < 9; k++) {
      iso[k] = x4 * Ci[k];
      out[k] = iso[k] + x5 * Ci[k];
    }
    iso[0] += x1;
    iso[4] += x1;
    iso[8] += x1;
    out[0] += x1;
    out[4] += x1;
    out[8] += x1;
  }

  /**
   * dS = ∂S/∂C : H into out and its isochoric part dS_iso into iso (9 each), H symmetric, at the
   * last update.
   */
  tangent(out: Float64Array, iso: Float64Array, H: ArrayLike<number>): void {
    const Ci = this.Cinv,
      J = this.J,
      I1 = this.I1,
      cHc = this.cHc,
      t = this.tmp;
    let ciH = 0;
    for (let k = 0; k < 9; k++) ciH += Ci[k] * H[k];
    const trH = H[0] + H[4] + H[8];
    // C⁻¹·H·C⁻¹
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) t[3 * i + j] = H[3 * i] * Ci[j] + H[3 * i + 1] * Ci[3 + j] + H[3 * i + 2] * Ci[6 + j];
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) cHc[3 * i + j] = Ci[3 * i] * t[j] + Ci[3 * i + 1] * t[3 + j] + Ci[3 * i + 2] * t[6 + j];
    const m = this.mu * this.j23,
      a = (-m * ciH) / 3,
      dJ = 0.5 * J * ciH;
    const ci = m * ((ciH * I1) / 9 - trH / 3),
      cs = (m * I1) / 3;
    const vci = this.bulk * (2 * J - 1) * dJ,
      vcs = -this.bulk * J * (J - 1);
    for (let k = 0; k < 9; k++) {
      iso[k] = ci * Ci[k] + cs * cHc[k];
      out[k] = iso[k] + vci * Ci[k] + vcs * cHc[k];
    }
    iso[0] += a;
    iso[4] += a;
    iso[8] += a;
    out[0] += a;
    out[4] += a;
    out[8] += a;
  }
}

/** Lamé's λ and μ from Young's modulus E and Poisson's ratio ν. */
export function lameCoefficients(E: number, nu: number): { lambda: number; mu: number } {
  return { lambda: (E * nu) / ((1 + nu) * (1 - 2 * nu)), mu: E / (2 * (1 + nu)) };
}
