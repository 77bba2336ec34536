import { Bool, Int, Real, SingleStateForceField, inClosed, orReset, positive, sofaComponent, type MatrixAccumulator } from '@sofa-ts/core';
import { NeighborGrid } from './neighbor-grid.js';
import { findSpatialGrid, type SpatialGridContainer } from './SpatialGridContainer.js';
import { sphKernels, type SphKernels } from './sph-kernels.js';

/**
 * SOFA's SPHFluidForceField (SofaSphFluid): smoothed-particle hydrodynamics after Müller et al.
 * 2003, every particle of mass m (`mass`, not the state's mass) and smoothing radius h (`radius`).
 * Over the pairs (i, j) with r = |xi − xj| < h, q = r/h (found in the node's SpatialGridContainer):
 *   ρi = m·Wd(0) + Σj m·Wd(q)                          (density; Wd poly6, or the cubic spline)
 *   pi = k·(ρi − ρ0)                                   (k = pressure, ρ0 = density)
 *   fi += −m²·(pi/ρi² + pj/ρj²)·∇Wp(xi − xj)         (pressure; Wp spiky, or cubic), fj −= it
 *   viscosityType 1: fi += μ·m²/(ρi·ρj)·∇²Wv(q)·(vj − vi), fj −= it
 *   viscosityType 2 (artificial), when (vi − vj)·(xi − xj) < 0, adds to the pressure factor
 *     (vi − vj)·(xi − xj)·μ·h·m / ((q² + 0.01·h²)·(ρi + ρj)/2)   (SOFA's expression as written)
 *   surfaceTensionType 1 (σ = surfaceTension > 0): ni = Σj ∇Wc(xi − xj)·(m/ρj − m/ρi),
 *     ci = Σj ∇²Wc(q)·(m/ρj − m/ρi) (nj, cj get the opposite terms), fi += −m·σ·ci·ni/|ni| for
 *     |ni| > 1e−6; type 2 (Becker 2007 cohesion) adds nothing, as in SOFA.
 * Viscosity 0 means viscosityType 0 and surfaceTension ≤ 0 surfaceTensionType 0, as in SOFA.
 * kernelType: 0 SOFA's default kernels, 1 the cubic spline (sph-kernels.ts).
 * pressureType 0 leaves the pressure force out (SOFA's CUDA kernels do; its CPU code ignores the
 * value). As in SOFA, the force field gives no stiffness (addDForce and K are zero: the fluid is
 * integrated explicitly, even by an implicit solver; a warning says so) and no potential energy.
 * Coincident particles (r = 0) have no pressure direction: their pair's pressure force is left
 * out, with a warning (SOFA's spiky gradient divides by r there).
 */
@sofaComponent({
  name: 'SPHFluidForceField',
  category: 'ForceField',
  module: 'SofaSphFluid',
  description: 'Smoothed-particle hydrodynamics fluid (pressure, viscosity, surface tension between neighbouring particles).',
  templates: ['Vec3d'],
})
export class SPHFluidForceField extends SingleStateForceField {
  readonly radius = this.initData({
    name: 'radius',
    type: Real,
    default: 1,
    range: positive,
    unit: 'm',
    help: 'radius of a particle (the smoothing length h)',
  });
  readonly mass = this.initData({ name: 'mass', type: Real, default: 1, range: positive, unit: 'kg', help: 'mass of a particle' });
  readonly pressure = this.initData({ name: 'pressure', type: Real, default: 100, help: 'pressure stiffness k (100 - 1000 m²/s²)' });
  readonly density = this.initData({
    name: 'density',
    type: Real,
    default: 1,
    range: positive,
    help: 'rest density ρ0 (1000 kg/m³ for water)',
  });
  readonly viscosity = this.initData({ name: 'viscosity', type: Real, default: 0.001, help: 'viscosity μ (0: no viscosity)' });
  readonly surfaceTension = this.initData({ name: 'surfaceTension', type: Real, default: 0, help: 'surface tension σ (≤ 0: none)' });
  readonly kernelType = this.initData({
    name: 'kernelType',
    type: Int,
    default: 0,
    range: orReset(inClosed(0, 1), 0),
    help: '0 = default kernels (poly6, spiky, viscosity), 1 = cubic spline',
  });
  readonly pressureType = this.initData({
    name: 'pressureType',
    type: Int,
    default: 1,
    range: inClosed(0, 1),
    help: "0 = none, 1 = default pressure (SOFA's CPU code applies the pressure whatever the value, its CUDA code honours 0)",
  });
  readonly viscosityType = this.initData({
    name: 'viscosityType',
    type: Int,
    default: 1,
    range: inClosed(0, 2),
    help: '0 = none, 1 = default viscosity using kernel Laplacian, 2 = artificial viscosity',
  });
  readonly surfaceTensionType = this.initData({
    name: 'surfaceTensionType',
    type: Int,
    default: 1,
    range: inClosed(0, 2),
    help: '0 = none, 1 = default surface tension using kernel Laplacian, 2 = cohesion forces from Becker et al. 2007 (adds nothing, as in SOFA)',
  });
  readonly debugGrid = this.initData({
    name: 'debugGrid',
    type: Bool,
    default: false,
    help: "compare the grid's neighbours with a brute-force search (SOFA's check; here the grid's pairs are exact, so nothing is compared)",
  });

  private grid?: SpatialGridContainer;
  private readonly neighbors = new NeighborGrid();
  private kernels: SphKernels = sphKernels(0, 1);
  /** kernelType and h of `kernels`. */
  private kernelsFor = 0;
  private kernelsH = 1;
  /** Per particle, (capacity): ρ, p, curvature; normal (3·capacity). */
  private rho: Float64Array<ArrayBuffer> = new Float64Array(0);
  private pres: Float64Array<ArrayBuffer> = new Float64Array(0);
  private curv: Float64Array<ArrayBuffer> = new Float64Array(0);
  private normal: Float64Array<ArrayBuffer> = new Float64Array(0);
  /** Particles of the last addForce. */
  private n = 0;
  private warnedStiffness = false;
  private warnedCoincident = false;
  private warnedSkipped = false;

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name !== 'Vec3d') throw this.error(`SPHFluidForceField acts on Vec3d particles, got ${s.stateType.name}`);
    this.grid = findSpatialGrid(this.context);
    if (!this.grid)
      this.warn(
        'no SpatialGridContainer in this node or above: SOFA searches the neighbours by brute force (O(n²)); sofa-ts uses its own grid of cells the radius wide (the same pairs)',
        'add <SpatialGridContainer cellWidth="…"/> beside the state',
      );
    else if (this.grid.cellWidth.value < this.radius.value)
      this.warnAbout(
        this.radius,
        `radius ${this.radius.value} exceeds the SpatialGridContainer's cellWidth ${this.grid.cellWidth.value}: SOFA's grid would miss the pairs farther apart than one cell; sofa-ts finds every pair within the radius`,
      );
    if (this.pressureType.value === 0 && this.pressureType.isSet)
      this.warnAbout(
        this.pressureType,
        "pressureType 0: no pressure force (SOFA's CPU SPHFluidForceField applies it anyway, its CUDA one does not)",
      );
    if (this.surfaceTension.value > 0 && this.surfaceTensionType.value === 2)
      this.warnAbout(this.surfaceTensionType, 'surfaceTensionType 2 (cohesion forces) adds no force, as in SOFA (not implemented there)');
    this.resize(s.size);
    this.rho.fill(this.density.value, 0, s.size);
  }

  /** Density ρ of particle i at the last force evaluation (ρ0 before the first). */
  particleDensity(i: number): number {
    return i < this.n ? this.rho[i] : this.density.value;
  }

  /** SOFA's getParticleField: (1 − r²/h²)³/ρi, the colour field of particle i up to particleFieldConstant. */
  particleField(i: number, r2h2: number): number {
    const a = 1 - r2h2;
    return (a * a * a) / this.particleDensity(i);
  }

  /** SOFA's getParticleFieldConstant: m·315/(64πh³) (the poly6 constant, whatever kernelType). */
  particleFieldConstant(h: number): number {
    return (this.mass.value * 315) / (64 * Math.PI * h * h * h);
  }

  private resize(n: number): void {
    this.n = n;
    if (this.rho.length >= n) return;
    const cap = Math.max(n, 2 * this.rho.length);
    const grow = (a: Float64Array, k: number): Float64Array<ArrayBuffer> => {
      const b = new Float64Array(cap * k);
      b.set(a);
      return b;
    };
    this.rho = grow(this.rho, 1);
    this.pres = grow(this.pres, 1);
    this.curv = grow(this.curv, 1);
    this.normal = grow(this.normal, 3);
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const fs = f[0],
      xs = x[0],
      vs = v[0];
    const n = xs.length / 3;
    this.resize(n);
    const h = this.radius.value,
      h2 = h * h,
      m = this.mass.value,
      m2 = m * m,
      d0 = this.density.value,
      k = this.pressure.value,
      mu = this.viscosity.value,
      sigma = this.surfaceTension.value;
    const viscosityT = mu === 0 ? 0 : this.viscosityType.value;
    const tensionT = sigma <= 0 ? 0 : this.surfaceTensionType.value;
    const withPressure = this.pressureType.value !== 0;
    const kernelType = this.kernelType.value === 1 ? 1 : 0;
    if (this.kernelsFor !== kernelType || this.kernelsH !== h) {
      this.kernels = sphKernels(kernelType, h);
      this.kernelsFor = kernelType;
      this.kernelsH = h;
    }
    const { density: Kd, pressure: Kp, viscosity: Kv, color: Kc } = this.kernels;
    const grid = this.neighbors;
    const count = grid.search(xs, 3, n, h, this.grid?.cellWidth.value ?? h);
    if (grid.skipped > 0 && !this.warnedSkipped) {
      this.warnedSkipped = true;
      this.warn(`${grid.skipped} particle(s) with a non-finite position have no neighbours (reported once)`);
    }
    const { pairI, pairJ, pairR2 } = grid;
    const rho = this.rho,
      pres = this.pres,
      curv = this.curv,
      nrm = this.normal;
    // density and pressure: ρi = m·W(0) + Σ m·W(q)
    rho.fill(m * Kd.W(0), 0, n);
    for (let p = 0; p < count; p++) {
      const d = m * Kd.W(Math.sqrt(pairR2[p] / h2));
      rho[pairI[p]] += d;
      rho[pairJ[p]] += d;
    }
    for (let i = 0; i < n; i++) pres[i] = k * (rho[i] - d0);
    // surface normal and curvature (colour field)
    if (tensionT === 1) {
      curv.fill(0, 0, n);
      nrm.fill(0, 0, 3 * n);
      for (let p = 0; p < count; p++) {
        const i = pairI[p],
          j = pairJ[p];
        const q = Math.sqrt(pairR2[p] / h2);
        const w = m / rho[j] - m / rho[i];
        const g = Kc.gradFactor(q) * w;
        for (let c = 0; c < 3; c++) {
          const t = g * (xs[3 * i + c] - xs[3 * j + c]);
          nrm[3 * i + c] += t;
          nrm[3 * j + c] -= t;
        }
        const cc = Kc.laplacian(q) * w;
        curv[i] += cc;
        curv[j] -= cc;
      }
    }
    // pair forces
    let coincident = 0;
    for (let p = 0; p < count; p++) {
      const i = pairI[p],
        j = pairJ[p];
      const r2 = pairR2[p];
      const q = Math.sqrt(r2 / h2);
      let fv = withPressure ? -m2 * (pres[i] / (rho[i] * rho[i]) + pres[j] / (rho[j] * rho[j])) : 0;
      const ex = xs[3 * i] - xs[3 * j],
        ey = xs[3 * i + 1] - xs[3 * j + 1],
        ez = xs[3 * i + 2] - xs[3 * j + 2];
      if (viscosityT === 1) {
        const c = ((m2 * mu) / (rho[i] * rho[j])) * Kv.laplacian(q);
        for (let a = 0; a < 3; a++) {
          const t = (vs[3 * j + a] - vs[3 * i + a]) * c;
          fs[3 * i + a] += t;
          fs[3 * j + a] -= t;
        }
      } else if (viscosityT === 2) {
        const vx = (vs[3 * i] - vs[3 * j]) * ex + (vs[3 * i + 1] - vs[3 * j + 1]) * ey + (vs[3 * i + 2] - vs[3 * j + 2]) * ez;
        if (vx < 0) fv += (vx * mu * h * m) / ((q * q + 0.01 * h2) * (rho[i] + rho[j]) * 0.5);
      }
      if (fv === 0) continue;
      if (r2 === 0) {
        coincident++;
        continue;
      }
      const g = Kp.gradFactor(q) * fv;
      fs[3 * i] += g * ex;
      fs[3 * i + 1] += g * ey;
      fs[3 * i + 2] += g * ez;
      fs[3 * j] -= g * ex;
      fs[3 * j + 1] -= g * ey;
      fs[3 * j + 2] -= g * ez;
    }
    if (coincident > 0 && !this.warnedCoincident) {
      this.warnedCoincident = true;
      this.warn(`${coincident} pair(s) of coincident particles: their pressure force has no direction and is left out (reported once)`);
    }
    if (tensionT === 1) {
      for (let i = 0; i < n; i++) {
        const nx = nrm[3 * i],
          ny = nrm[3 * i + 1],
          nz = nrm[3 * i + 2];
        const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
        if (!(len > 0.000001)) continue;
        const c = (-m * sigma * curv[i]) / len;
        fs[3 * i] += nx * c;
        fs[3 * i + 1] += ny * c;
        fs[3 * i + 2] += nz * c;
      }
    }
  }

  /** SOFA's addDForce adds nothing (its list of pair stiffnesses is never filled). */
  addDForce(_df: readonly Float64Array[], _dx: readonly Float64Array[], _kFactor: number, _bFactor: number): void {
    this.noStiffness();
  }

  addKToMatrix(_acc: MatrixAccumulator, _kFactor: number): void {
    this.noStiffness();
  }

  private noStiffness(): void {
    if (this.warnedStiffness) return;
    this.warnedStiffness = true;
    this.warn(
      'SPHFluidForceField gives no stiffness (as in SOFA): an implicit solver integrates its forces explicitly',
      'an explicit solver (EulerExplicitSolver, RungeKutta4Solver, CentralDifferenceSolver) is what SOFA uses for SPH',
    );
  }

  /** Number of particles at the last force evaluation. */
  get particleCount(): number {
    return this.n;
  }
}
