/**
 * The smoothing kernels of SOFA's SofaSphFluid (SPHKernel.h), in 3D, of support radius h and
 * written in q = r/h (r = |d|, d = xi − xj):
 * - density (Müller et al. 2003 "poly6"): W = 315/(64πh³)·(1 − q²)³;
 * - pressure ("spiky"): W = 15/(πh³)·(1 − q)³;
 * - viscosity: W = 15/(2πh³)·(−q³/2 + q² + 1/(2q) − 1), whose Laplacian 45/(πh⁵)·(1 − q) is the
 *   part used;
 * - cubic spline (kernelType 1, all four roles): W = 48/(πh³)·(1/6 − q² + q³) for q < 1/2,
 *   16/(πh³)·(1 − q)³ for q < 1.
 * Each gives W(q), ∇W at d as d·gradFactor(q) (so ∇W = gradFactor·d, the factor holding 1/h² and
 * 1/q where the derivative needs them) and the Laplacian ∇²W(q) = W'' + 2W'/r, all zero for q ≥ 1.
 * As in SOFA, the spiky kernel's Laplacian is given as 0 (it is never used).
 */
export interface SphKernel {
  /** Support radius h. */
  readonly h: number;
  W(q: number): number;
  /** ∇W(d) = gradFactor(q)·d, q = |d|/h (q > 0). */
  gradFactor(q: number): number;
  laplacian(q: number): number;
}

/** SOFA's SPH_KERNEL_DEFAULT_DENSITY (poly6). */
export class DensityKernel implements SphKernel {
  private readonly cW: number;
  private readonly cG: number;
  constructor(readonly h: number) {
    this.cW = 315 / (64 * Math.PI * h * h * h);
    // ∇W = −6·cW/h²·(1 − q²)²·d; ∇²W = −6·cW/h²·(1 − q²)(3 − 7q²)
    this.cG = (-6 * this.cW) / (h * h);
  }
  W(q: number): number {
    if (q >= 1) return 0;
    const a = 1 - q * q;
    return this.cW * a * a * a;
  }
  gradFactor(q: number): number {
    if (q >= 1) return 0;
    const a = 1 - q * q;
    return this.cG * a * a;
  }
  laplacian(q: number): number {
    if (q >= 1) return 0;
    const q2 = q * q;
    return this.cG * (1 - q2) * (3 - 7 * q2);
  }
}

/** SOFA's SPH_KERNEL_DEFAULT_PRESSURE (spiky). */
export class PressureKernel implements SphKernel {
  private readonly cW: number;
  private readonly cG: number;
  constructor(readonly h: number) {
    this.cW = 15 / (Math.PI * h * h * h);
    // dW/dr = −3·cW/h·(1 − q)², ∇W = dW/dr·d/r = −3·cW/h²·(1 − q)²/q·d
    this.cG = (-3 * this.cW) / (h * h);
  }
  W(q: number): number {
    if (q >= 1) return 0;
    const a = 1 - q;
    return this.cW * a * a * a;
  }
  gradFactor(q: number): number {
    if (q >= 1) return 0;
    const a = 1 - q;
    return (this.cG * a * a) / q;
  }
  laplacian(_q: number): number {
    return 0;
  }
}

/** SOFA's SPH_KERNEL_DEFAULT_VISCOSITY. */
export class ViscosityKernel implements SphKernel {
  private readonly cW: number;
  private readonly cG: number;
  private readonly cL: number;
  constructor(readonly h: number) {
    this.cW = 15 / (2 * Math.PI * h * h * h);
    // ∇W = cW/h²·(2 − 3q/2 − 1/(2q³))·d; ∇²W = 6·cW/h²·(1 − q)
    this.cG = this.cW / (h * h);
    this.cL = (6 * this.cW) / (h * h);
  }
  W(q: number): number {
    if (q >= 1) return 0;
    const q2 = q * q;
    return this.cW * (-0.5 * q2 * q + q2 + 0.5 / q - 1);
  }
  gradFactor(q: number): number {
    if (q >= 1) return 0;
    return this.cG * (2 - 1.5 * q - 0.5 / (q * q * q));
  }
  laplacian(q: number): number {
    if (q >= 1) return 0;
    return this.cL * (1 - q);
  }
}

/** SOFA's SPH_KERNEL_CUBIC: the cubic spline on [0, h]. */
export class CubicKernel implements SphKernel {
  private readonly cW: number;
  private readonly cG: number;
  constructor(readonly h: number) {
    this.cW = 48 / Math.PI / (h * h * h);
    this.cG = this.cW / (h * h);
  }
  W(q: number): number {
    if (q < 0.5) return this.cW * (1 / 6 - q * q + q * q * q);
    if (q < 1) {
      const s = 1 - q;
      return (this.cW * s * s * s) / 3;
    }
    return 0;
  }
  gradFactor(q: number): number {
    // dW/dq = cW·q(3q − 2) below 1/2, −cW·(1 − q)² above; ∇W = dW/dq/(h²q)·d
    if (q < 0.5) return this.cG * (3 * q - 2);
    if (q < 1) {
      const s = 1 - q;
      return (-this.cG * s * s) / q;
    }
    return 0;
  }
  laplacian(q: number): number {
    if (q < 0.5) return this.cG * (12 * q - 6);
    if (q < 1) return this.cG * (6 - 4 * q - 2 / q);
    return 0;
  }
}

/** The kernels of one kernelType: 0 SOFA's default (poly6, spiky, viscosity, poly6 for the colour field), 1 cubic for all. */
export interface SphKernels {
  density: SphKernel;
  pressure: SphKernel;
  viscosity: SphKernel;
  color: SphKernel;
}

export function sphKernels(kernelType: 0 | 1, h: number): SphKernels {
  if (kernelType === 1) {
    const c = new CubicKernel(h);
    return { density: c, pressure: c, viscosity: c, color: c };
  }
  const d = new DensityKernel(h);
  return { density: d, pressure: new PressureKernel(h), viscosity: new ViscosityKernel(h), color: d };
}
