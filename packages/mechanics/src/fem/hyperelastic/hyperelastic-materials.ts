/**
 * SOFA's hyperelastic materials (Sofa.Component.SolidMechanics.FEM.HyperElastic, `materialName` of
 * TetrahedronHyperelasticityFEMForceField), each a strain energy W of the right Cauchy-Green tensor
 * C = FᵀF with its second Piola-Kirchhoff stress S = 2·∂W/∂C and the tangent dS[H] = ∂S/∂C : H (the
 * change of S for a change H of C). Tensors are full row-major 3×3 arrays (9 numbers, symmetric).
 *
 * The isotropic materials are written in the invariants I1 = tr C, I2 = ½(I1² − tr C²), J = det F;
 * one kernel turns (∂W/∂I, ∂²W/∂I²) into S and dS:
 *   S = 2·(W1·I + W2·(I1·I − C)) + J·WJ·C⁻¹
 *   with dI1 = tr H, dI2 = I1·tr H − C:H, dJ = ½·J·C⁻¹:H, dC⁻¹ = −C⁻¹·H·C⁻¹.
 * Isochoric invariants Ī1 = J^(−2/3)·I1, Ī2 = J^(−4/3)·I2 enter through the chain rule (isochoric()).
 * Parameters (SOFA's ParameterSet, in this order):
 *   StVenantKirchhoff  μ λ        W = ½λ(tr E)² + μ·E:E,  E = (C − I)/2
 *   NeoHookean         μ λ        W = ½μ(I1 − 3) − μ ln J + ½λ ln²J
 *   StableNeoHookean   μ λ        W = ½μ(I1 − 3) + ½(λ + μ)(J − α)²,  α = 1 + μ/(λ + μ)
 *   MooneyRivlin       c1 c2 k0   W = c1(Ī1 − 3) + c2(Ī2 − 3) + ½k0 ln²J
 *   ArrudaBoyce        μ k0       W = μ·Σₙ cₙ(Ī1ⁿ − 3ⁿ) + ½k0 ln²J, cₙ = 1/2, 1/160, 11/67200, 19/3584000, 519/2759680000
 *   VerondaWestman     c1 c2 k0   W = c1(e^(c2(Ī1 − 3)) − 1) − ½c1c2(Ī2 − 3) + ½k0 ln²J
 *   Ogden              μ α k0     W = μ/α²·(J^(−α/3)·Σ λᵢ^α − 3) + ½k0 ln²J  (λᵢ² the eigenvalues of C)
 */

export type MaterialName =
  'ArrudaBoyce' | 'StVenantKirchhoff' | 'NeoHookean' | 'MooneyRivlin' | 'VerondaWestman' | 'Costa' | 'Ogden' | 'StableNeoHookean';

/** SOFA's options of `materialName`, in its order. */
export const MATERIAL_NAMES: readonly MaterialName[] = [
  'ArrudaBoyce',
  'StVenantKirchhoff',
  'NeoHookean',
  'MooneyRivlin',
  'VerondaWestman',
  'Costa',
  'Ogden',
  'StableNeoHookean',
];

/** The strain state a material reads: C, C⁻¹ (9 each), I1, I2, J. */
export interface StrainState {
  readonly C: Float64Array;
  readonly Cinv: Float64Array;
  I1: number;
  I2: number;
  J: number;
}

export interface HyperelasticMaterial {
  readonly name: MaterialName;
  /** Number of parameters read from ParameterSet. */
  readonly parameterCount: number;
  /** Called once per strain state before stress/tangent/energy (materials may cache there). */
  prepare(s: StrainState, p: ArrayLike<number>): void;
  energy(s: StrainState, p: ArrayLike<number>): number;
  /** S = 2·∂W/∂C into out (9). */
  stress(out: Float64Array, s: StrainState, p: ArrayLike<number>): void;
  /** dS[H] = ∂S/∂C : H into out (9), H symmetric (9). */
  tangent(out: Float64Array, H: Float64Array, s: StrainState, p: ArrayLike<number>): void;
}

/** s.C → C⁻¹, I1, I2, J (J given: det F keeps its sign, √det C does not). */
export function updateStrainState(s: StrainState, J: number): void {
  const C = s.C,
    Ci = s.Cinv;
  const c00 = C[4] * C[8] - C[5] * C[7],
    c01 = C[5] * C[6] - C[3] * C[8],
    c02 = C[3] * C[7] - C[4] * C[6];
  const inv = 1 / (C[0] * c00 + C[1] * c01 + C[2] * c02);
  Ci[0] = c00 * inv;
  Ci[1] = (C[2] * C[7] - C[1] * C[8]) * inv;
  Ci[2] = (C[1] * C[5] - C[2] * C[4]) * inv;
  Ci[3] = c01 * inv;
  Ci[4] = (C[0] * C[8] - C[2] * C[6]) * inv;
  Ci[5] = (C[2] * C[3] - C[0] * C[5]) * inv;
  Ci[6] = c02 * inv;
  Ci[7] = (C[1] * C[6] - C[0] * C[7]) * inv;
  Ci[8] = (C[0] * C[4] - C[1] * C[3]) * inv;
  const I1 = C[0] + C[4] + C[8];
  let trC2 = 0;
  for (let k = 0; k < 9; k++) trC2 += C[k] * C[k];
  s.I1 = I1;
  s.I2 = 0.5 * (I1 * I1 - trC2);
  s.J = J;
}

/** A:B for 3×3 arrays. */
function ddot(A: ArrayLike<number>, B: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < 9; k++) s += A[k] * B[k];
  return s;
}

/** out = A·B·A (3×3, A symmetric), e.g. C⁻¹·H·C⁻¹. */
function sandwich(out: Float64Array, A: ArrayLike<number>, B: ArrayLike<number>, tmp: Float64Array): void {
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) tmp[3 * i + j] = B[3 * i] * A[j] + B[3 * i + 1] * A[3 + j] + B[3 * i + 2] * A[6 + j];
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) out[3 * i + j] = A[3 * i] * tmp[j] + A[3 * i + 1] * tmp[3 + j] + A[3 * i + 2] * tmp[6 + j];
}

// Derivatives of W(I1, I2, J): indices into the 9-array d.
const W1 = 0,
  W2 = 1,
  WJ = 2,
  W11 = 3,
  W12 = 4,
  W22 = 5,
  W1J = 6,
  W2J = 7,
  WJJ = 8;

/**
 * Adds a term f(Ī) with Ī = I·J^q (I = I1, slot 0, or I2, slot 1; q = −2/3 or −4/3) to the
 * derivatives d of W(I1, I2, J), from f′(Ī) and f″(Ī).
 */
function isochoric(d: Float64Array, slot: 0 | 1, I: number, J: number, q: number, f1: number, f2: number): void {
  const jq = Math.pow(J, q),
    dIbar_dJ = (I * q * jq) / J;
  const iI = slot === 0 ? W1 : W2,
    iII = slot === 0 ? W11 : W22,
    iIJ = slot === 0 ? W1J : W2J;
  d[iI] += f1 * jq;
  d[WJ] += f1 * dIbar_dJ;
  d[iII] += f2 * jq * jq;
  d[iIJ] += f2 * jq * dIbar_dJ + (f1 * q * jq) / J;
  d[WJJ] += f2 * dIbar_dJ * dIbar_dJ + (f1 * I * q * (q - 1) * jq) / (J * J);
}

/** ½k0·ln²J: its derivatives in J. */
function logVolumetric(d: Float64Array, J: number, k0: number): void {
  const l = Math.log(J);
  d[WJ] += (k0 * l) / J;
  d[WJJ] += (k0 * (1 - l)) / (J * J);
}

/** An isotropic material given by W(I1, I2, J) and its first and second derivatives. */
abstract class InvariantMaterial implements HyperelasticMaterial {
  abstract readonly name: MaterialName;
  abstract readonly parameterCount: number;
  protected readonly d = new Float64Array(9);
  private readonly tmp = new Float64Array(9);
  private readonly cHc = new Float64Array(9);

  /** d ← (W1, W2, WJ, W11, W12, W22, W1J, W2J, WJJ) at the state. */
  protected abstract derivatives(d: Float64Array, s: StrainState, p: ArrayLike<number>): void;
  abstract energy(s: StrainState, p: ArrayLike<number>): number;

  prepare(s: StrainState, p: ArrayLike<number>): void {
    this.d.fill(0);
    this.derivatives(this.d, s, p);
  }

  stress(out: Float64Array, s: StrainState, _p: ArrayLike<number>): void {
    const d = this.d,
      C = s.C,
      Ci = s.Cinv;
    const a = 2 * (d[W1] + d[W2] * s.I1),
      b = -2 * d[W2],
      c = s.J * d[WJ];
    for (let k = 0; k < 9; k++) out[k] = b * C[k] + c * Ci[k];
    out[0] += a;
    out[4] += a;
    out[8] += a;
  }

  tangent(out: Float64Array, H: Float64Array, s: StrainState, _p: ArrayLike<number>): void {
    const d = this.d,
      C = s.C,
      Ci = s.Cinv,
      J = s.J,
      I1 = s.I1;
    const trH = H[0] + H[4] + H[8];
    const dI1 = trH,
      dI2 = I1 * trH - ddot(C, H),
      dJ = 0.5 * J * ddot(Ci, H);
    const dW1 = d[W11] * dI1 + d[W12] * dI2 + d[W1J] * dJ;
    const dW2 = d[W12] * dI1 + d[W22] * dI2 + d[W2J] * dJ;
    const dWJ = d[W1J] * dI1 + d[W2J] * dI2 + d[WJJ] * dJ;
    sandwich(this.cHc, Ci, H, this.tmp);
    // dS = 2(dW1·I + dW2·(I1·I − C) + W2·(trH·I − H)) + (dWJ·J + WJ·dJ)·C⁻¹ − J·WJ·C⁻¹HC⁻¹
    const a = 2 * (dW1 + dW2 * I1 + d[W2] * trH),
      cv = dWJ * J + d[WJ] * dJ,
      cs = -J * d[WJ];
    for (let k = 0; k < 9; k++) out[k] = -2 * dW2 * C[k] - 2 * d[W2] * H[k] + cv * Ci[k] + cs * this.cHc[k];
    out[0] += a;
    out[4] += a;
    out[8] += a;
  }
}

class StVenantKirchhoff extends InvariantMaterial {
  readonly name = 'StVenantKirchhoff';
  readonly parameterCount = 2;
  protected derivatives(d: Float64Array, s: StrainState, p: ArrayLike<number>): void {
    const mu = p[0],
      lambda = p[1];
    // W = −μ·I2/2 + (μ/4 + λ/8)·I1² − (3λ/4 + μ/2)·I1 + const
    d[W1] = (mu / 2 + lambda / 4) * s.I1 - (3 * lambda) / 4 - mu / 2;
    d[W2] = -mu / 2;
    d[W11] = mu / 2 + lambda / 4;
  }
  energy(s: StrainState, p: ArrayLike<number>): number {
    const mu = p[0],
      lambda = p[1];
    return (-mu * s.I2) / 2 + (mu / 4 + lambda / 8) * s.I1 * s.I1 - s.I1 * ((3 * lambda) / 4 + mu / 2) + (3 * mu) / 4 + (9 * lambda) / 8;
  }
}

class NeoHookean extends InvariantMaterial {
  readonly name = 'NeoHookean';
  readonly parameterCount = 2;
  protected derivatives(d: Float64Array, s: StrainState, p: ArrayLike<number>): void {
    const mu = p[0],
      lambda = p[1],
      J = s.J,
      l = Math.log(J);
    d[W1] = mu / 2;
    d[WJ] = (lambda * l - mu) / J;
    d[WJJ] = (mu + lambda * (1 - l)) / (J * J);
  }
  energy(s: StrainState, p: ArrayLike<number>): number {
    const mu = p[0],
      lambda = p[1],
      l = Math.log(s.J);
    return 0.5 * mu * (s.I1 - 3) - mu * l + 0.5 * lambda * l * l;
  }
}

class StableNeoHookean extends InvariantMaterial {
  readonly name = 'StableNeoHookean';
  readonly parameterCount = 2;
  protected derivatives(d: Float64Array, s: StrainState, p: ArrayLike<number>): void {
    const mu = p[0],
      lambda = p[1],
      alpha = 1 + mu / (lambda + mu);
    d[W1] = mu / 2;
    d[WJ] = (lambda + mu) * (s.J - alpha);
    d[WJJ] = lambda + mu;
  }
  energy(s: StrainState, p: ArrayLike<number>): number {
    const mu = p[0],
      lambda = p[1],
      alpha = 1 + mu / (lambda + mu);
    return 0.5 * (mu * (s.I1 - 3) + (lambda + mu) * (s.J - alpha) ** 2);
  }
}

class MooneyRivlin extends InvariantMaterial {
  readonly name = 'MooneyRivlin';
  readonly parameterCount = 3;
  protected derivatives(d: Float64Array, s: StrainState, p: ArrayLike<number>): void {
    isochoric(d, 0, s.I1, s.J, -2 / 3, p[0], 0);
    isochoric(d, 1, s.I2, s.J, -4 / 3, p[1], 0);
    logVolumetric(d, s.J, p[2]);
  }
  energy(s: StrainState, p: ArrayLike<number>): number {
    const l = Math.log(s.J);
    return p[0] * (s.I1 * Math.pow(s.J, -2 / 3) - 3) + p[1] * (s.I2 * Math.pow(s.J, -4 / 3) - 3) + 0.5 * p[2] * l * l;
  }
}

/** Arruda-Boyce coefficients of Ī1ⁿ (n = 1..5), as SOFA truncates the inverse Langevin series (λ_m² = 8). */
const ARRUDA_BOYCE = [1 / 2, 1 / 160, 11 / (1050 * 64), 19 / (7000 * 512), 519 / (673750 * 4096)];

class ArrudaBoyce extends InvariantMaterial {
  readonly name = 'ArrudaBoyce';
  readonly parameterCount = 2;
  protected derivatives(d: Float64Array, s: StrainState, p: ArrayLike<number>): void {
    const mu = p[0],
      Ib = s.I1 * Math.pow(s.J, -2 / 3);
    let f1 = 0,
      f2 = 0;
    for (let n = 1; n <= 5; n++) {
      const c = mu * ARRUDA_BOYCE[n - 1];
      f1 += c * n * Math.pow(Ib, n - 1);
      if (n >= 2) f2 += c * n * (n - 1) * Math.pow(Ib, n - 2);
    }
    isochoric(d, 0, s.I1, s.J, -2 / 3, f1, f2);
    logVolumetric(d, s.J, p[1]);
  }
  energy(s: StrainState, p: ArrayLike<number>): number {
    const Ib = s.I1 * Math.pow(s.J, -2 / 3),
      l = Math.log(s.J);
    let w = 0;
    for (let n = 1; n <= 5; n++) w += ARRUDA_BOYCE[n - 1] * (Math.pow(Ib, n) - Math.pow(3, n));
    return p[0] * w + 0.5 * p[1] * l * l;
  }
}

class VerondaWestman extends InvariantMaterial {
  readonly name = 'VerondaWestman';
  readonly parameterCount = 3;
  protected derivatives(d: Float64Array, s: StrainState, p: ArrayLike<number>): void {
    const c1 = p[0],
      c2 = p[1],
      Ib = s.I1 * Math.pow(s.J, -2 / 3),
      e = c1 * Math.exp(c2 * (Ib - 3));
    isochoric(d, 0, s.I1, s.J, -2 / 3, e * c2, e * c2 * c2);
    isochoric(d, 1, s.I2, s.J, -4 / 3, -0.5 * c1 * c2, 0);
    logVolumetric(d, s.J, p[2]);
  }
  energy(s: StrainState, p: ArrayLike<number>): number {
    const c1 = p[0],
      c2 = p[1],
      l = Math.log(s.J);
    return (
      c1 * (Math.exp(c2 * (s.I1 * Math.pow(s.J, -2 / 3) - 3)) - 1) - 0.5 * c1 * c2 * (s.I2 * Math.pow(s.J, -4 / 3) - 3) + 0.5 * p[2] * l * l
    );
  }
}

/**
 * Ogden (one term): S = J^(−α/3)·μ/α·(C^(α/2 − 1) − ⅓·tr(C^(α/2))·C⁻¹) + k0·ln J·C⁻¹, from the
 * eigen-decomposition C = Σ λᵢ vᵢvᵢᵀ; dC^β[H] = Σᵢⱼ gᵢⱼ (vᵢᵀHvⱼ) vᵢvⱼᵀ with gᵢᵢ = β·λᵢ^(β−1),
 * gᵢⱼ = (λᵢ^β − λⱼ^β)/(λᵢ − λⱼ) (its limit for close eigenvalues).
 */
class Ogden implements HyperelasticMaterial {
  readonly name = 'Ogden';
  readonly parameterCount = 3;
  private readonly lam = new Float64Array(3);
  private readonly V = new Float64Array(9);
  private readonly Cb = new Float64Array(9);
  private readonly tmp = new Float64Array(9);
  private readonly cHc = new Float64Array(9);
  private readonly w = new Float64Array(9);
  private T = 0;
  private FJ = 0;

  prepare(s: StrainState, p: ArrayLike<number>): void {
    const alpha = p[1],
      beta = alpha / 2 - 1;
    symmetricEigen(this.lam, this.V, s.C);
    this.T = 0;
    this.Cb.fill(0);
    for (let i = 0; i < 3; i++) {
      const l = this.lam[i];
      this.T += Math.pow(l, alpha / 2);
      const lb = Math.pow(l, beta);
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) this.Cb[3 * r + c] += lb * this.V[3 * r + i] * this.V[3 * c + i];
    }
    this.FJ = Math.pow(s.J, -alpha / 3);
  }

  energy(s: StrainState, p: ArrayLike<number>): number {
    const mu = p[0],
      alpha = p[1],
      l = Math.log(s.J);
    return (mu / (alpha * alpha)) * (this.FJ * this.T - 3) + 0.5 * p[2] * l * l;
  }

  stress(out: Float64Array, s: StrainState, p: ArrayLike<number>): void {
    const mu = p[0],
      alpha = p[1],
      k = (this.FJ * mu) / alpha,
      lnJ = Math.log(s.J);
    for (let q = 0; q < 9; q++) out[q] = k * (this.Cb[q] - (this.T / 3) * s.Cinv[q]) + p[2] * lnJ * s.Cinv[q];
  }

  tangent(out: Float64Array, H: Float64Array, s: StrainState, p: ArrayLike<number>): void {
    const mu = p[0],
      alpha = p[1],
      k0 = p[2],
      beta = alpha / 2 - 1,
      Ci = s.Cinv,
      lam = this.lam,
      V = this.V;
    const ciH = ddot(Ci, H);
    const dFJ = (-alpha / 6) * this.FJ * ciH;
    const dT = (alpha / 2) * ddot(this.Cb, H);
    sandwich(this.cHc, Ci, H, this.tmp);
    // w = Vᵀ·H·V, then dC^β = V·(g ∘ w)·Vᵀ
    const w = this.w;
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) {
        let sum = 0;
        for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) sum += V[3 * a + i] * H[3 * a + b] * V[3 * b + j];
        const li = lam[i],
          lj = lam[j];
        const g =
          Math.abs(li - lj) <= 1e-12 * Math.max(li, lj)
            ? beta * Math.pow(0.5 * (li + lj), beta - 1)
            : (Math.pow(li, beta) - Math.pow(lj, beta)) / (li - lj);
        w[3 * i + j] = g * sum;
      }
    const kIso = (mu / alpha) * this.FJ,
      lnJ = Math.log(s.J);
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 3; c++) {
        let dCb = 0;
        for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) dCb += V[3 * r + i] * w[3 * i + j] * V[3 * c + j];
        const q = 3 * r + c;
        out[q] =
          (mu / alpha) * dFJ * (this.Cb[q] - (this.T / 3) * Ci[q]) +
          kIso * (dCb - (dT / 3) * Ci[q] + (this.T / 3) * this.cHc[q]) +
          0.5 * k0 * ciH * Ci[q] -
          k0 * lnJ * this.cHc[q];
      }
  }
}

/** Eigenvalues lam (3) and eigenvectors V (columns, row-major 3×3) of the symmetric A, by cyclic Jacobi rotations. */
export function symmetricEigen(lam: Float64Array, V: Float64Array, A: ArrayLike<number>): void {
  let a00 = A[0],
    a01 = 0.5 * (A[1] + A[3]),
    a02 = 0.5 * (A[2] + A[6]),
    a11 = A[4],
    a12 = 0.5 * (A[5] + A[7]),
    a22 = A[8];
  V.fill(0);
  V[0] = V[4] = V[8] = 1;
  const M = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = a01 * a01 + a02 * a02 + a12 * a12;
    if (off <= 1e-30 * (a00 * a00 + a11 * a11 + a22 * a22) || off === 0) break;
    M[0][0] = a00;
    M[0][1] = a01;
    M[0][2] = a02;
    M[1][1] = a11;
    M[1][2] = a12;
    M[2][2] = a22;
    M[1][0] = a01;
    M[2][0] = a02;
    M[2][1] = a12;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const apq = M[p][q];
      if (apq === 0) continue;
      const theta = (M[q][q] - M[p][p]) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1),
        s = t * c;
      for (let k = 0; k < 3; k++) {
        const mkp = M[k][p],
          mkq = M[k][q];
        M[k][p] = c * mkp - s * mkq;
        M[k][q] = s * mkp + c * mkq;
      }
      for (let k = 0; k < 3; k++) {
        const mpk = M[p][k],
          mqk = M[q][k];
        M[p][k] = c * mpk - s * mqk;
        M[q][k] = s * mpk + c * mqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = V[3 * k + p],
          vkq = V[3 * k + q];
        V[3 * k + p] = c * vkp - s * vkq;
        V[3 * k + q] = s * vkp + c * vkq;
      }
    }
    a00 = M[0][0];
    a01 = M[0][1];
    a02 = M[0][2];
    a11 = M[1][1];
    a12 = M[1][2];
    a22 = M[2][2];
  }
  lam[0] = a00;
  lam[1] = a11;
  lam[2] = a22;
}

/** A new material of that name (Costa is not implemented: undefined). */
export function createMaterial(name: MaterialName): HyperelasticMaterial | undefined {
  switch (name) {
    case 'ArrudaBoyce':
      return new ArrudaBoyce();
    case 'StVenantKirchhoff':
      return new StVenantKirchhoff();
    case 'NeoHookean':
      return new NeoHookean();
    case 'MooneyRivlin':
      return new MooneyRivlin();
    case 'VerondaWestman':
      return new VerondaWestman();
    case 'Ogden':
      return new Ogden();
    case 'StableNeoHookean':
      return new StableNeoHookean();
    default:
      return undefined;
  }
}
