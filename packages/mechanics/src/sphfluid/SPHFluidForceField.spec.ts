import { expect } from 'chai';
import { sceneWarnings } from '@sofa-ts/core';
import { SPHFluidForceField } from './SPHFluidForceField.js';
import { SpatialGridContainer } from './SpatialGridContainer.js';
import { buildNode, rng } from '../mass/mesh-test-support.js';

interface Params {
  radius: number;
  mass?: number;
  pressure?: number;
  density?: number;
  viscosity?: number;
  viscosityType?: number;
  kernelType?: number;
  surfaceTension?: number;
  cellWidth?: number;
}

function fluid(x: ArrayLike<number>, p: Params): { ff: SPHFluidForceField; warnings: string[] } {
  const ff = new SPHFluidForceField();
  ff.radius.value = p.radius;
  if (p.mass !== undefined) ff.mass.value = p.mass;
  if (p.pressure !== undefined) ff.pressure.value = p.pressure;
  if (p.density !== undefined) ff.density.value = p.density;
  ff.viscosity.value = p.viscosity ?? 0;
  if (p.viscosityType !== undefined) ff.viscosityType.value = p.viscosityType;
  if (p.kernelType !== undefined) ff.kernelType.value = p.kernelType;
  if (p.surfaceTension !== undefined) ff.surfaceTension.value = p.surfaceTension;
  const objects: SpatialGridContainer[] = [];
  if (p.cellWidth !== undefined) {
    const g = new SpatialGridContainer();
    g.cellWidth.value = p.cellWidth;
    objects.push(g);
  }
  const { node } = buildNode(x, undefined, [...objects, ff]);
  return { ff, warnings: sceneWarnings(node).map((w) => w.message) };
}

function forces(ff: SPHFluidForceField, x: Float64Array, v = new Float64Array(x.length)): Float64Array {
  const f = new Float64Array(x.length);
  ff.addForce([f], [x], [v]);
  return f;
}

/** A random cloud of n points in a cube of side s. */
function cloud(n: number, s: number, seed: number): Float64Array {
  const r = rng(seed);
  return Float64Array.from({ length: 3 * n }, () => 0.5 * s * r());
}

// Müller's poly6 and the cubic spline, written here from their definitions (not the component's code)
const poly6 = (r: number, h: number): number => (r < h ? (315 / (64 * Math.PI * h ** 9)) * (h * h - r * r) ** 3 : 0);
function cubic(r: number, h: number): number {
  const q = r / h,
    c = 8 / (Math.PI * h ** 3);
  if (q < 0.5) return c * (1 - 6 * q * q + 6 * q ** 3);
  return q < 1 ? c * 2 * (1 - q) ** 3 : 0;
}

describe('SPHFluidForceField (SofaSphFluid)', () => {
  it('gives the density of the centre of a regular lattice as the closed-form lattice sum m·Σ W(|a·(i, j, k)|), ≈ m/a³', () => {
    const a = 0.05,
      h = 0.35,
      m = 0.002,
      L = 7; // h/a = 7 layers around the centre
    const x: number[] = [];
    for (let k = -L; k <= L; k++) for (let j = -L; j <= L; j++) for (let i = -L; i <= L; i++) x.push(i * a, j * a, k * a);
    const { ff } = fluid(x, { radius: h, mass: m, cellWidth: h });
    forces(ff, Float64Array.from(x));
    let sum = 0;
    for (let k = -L; k <= L; k++) for (let j = -L; j <= L; j++) for (let i = -L; i <= L; i++) sum += m * poly6(a * Math.hypot(i, j, k), h);
    const centre = (x.length / 3 - 1) / 2;
    expect(ff.particleDensity(centre)).to.be.closeTo(sum, 1e-12 * sum);
    expect(ff.particleDensity(centre) / (m / a ** 3)).to.be.closeTo(1, 0.01);
  });

  for (const kernelType of [0, 1])
    for (const viscosityType of [0, 1, 2])
      it(`conserves momentum: Σf = 0 (kernelType ${kernelType}, viscosityType ${viscosityType}), and Σ x×f = 0 for pressure alone`, () => {
        const x = cloud(120, 1, 5 + kernelType + 3 * viscosityType);
        const { ff } = fluid(x, {
          radius: 0.3,
          density: 30,
          pressure: 500,
          viscosity: viscosityType ? 5 : 0,
          viscosityType,
          kernelType,
          cellWidth: 0.3,
        });
        const v = Float64Array.from(cloud(120, 4, 99));
        const f = forces(ff, x, v);
        const sum = [0, 0, 0],
          torque = [0, 0, 0];
        let scale = 0;
        for (let i = 0; i < 120; i++) {
          const [fx, fy, fz] = [f[3 * i], f[3 * i + 1], f[3 * i + 2]];
          const [px, py, pz] = [x[3 * i], x[3 * i + 1], x[3 * i + 2]];
          sum[0] += fx;
          sum[1] += fy;
          sum[2] += fz;
          torque[0] += py * fz - pz * fy;
          torque[1] += pz * fx - px * fz;
          torque[2] += px * fy - py * fx;
          scale = Math.max(scale, Math.hypot(fx, fy, fz));
        }
        expect(scale).to.be.above(1);
        for (const s of sum) expect(Math.abs(s)).to.be.below(1e-11 * scale * 120);
        if (viscosityType === 0) for (const t of torque) expect(Math.abs(t)).to.be.below(1e-11 * scale * 120);
      });

  it('with the cubic kernel for density and pressure, the pressure force is −∂E/∂x, E = Σi m·k·(ln ρi + ρ0/ρi) (finite differences)', () => {
    const n = 40,
      h = 0.4,
      m = 0.7,
      k = 300,
      rho0 = 20;
    const x = cloud(n, 1, 17);
    const energy = (y: Float64Array): number => {
      let E = 0;
      for (let i = 0; i < n; i++) {
        let rho = 0;
        for (let j = 0; j < n; j++)
          rho += m * cubic(Math.hypot(y[3 * i] - y[3 * j], y[3 * i + 1] - y[3 * j + 1], y[3 * i + 2] - y[3 * j + 2]), h);
        E += m * k * (Math.log(rho) + rho0 / rho);
      }
      return E;
    };
    const { ff } = fluid(x, { radius: h, mass: m, pressure: k, density: rho0, kernelType: 1, cellWidth: h });
    const f = forces(ff, x);
    const e = 1e-6;
    let scale = 0;
    for (const c of f) scale = Math.max(scale, Math.abs(c));
    expect(scale).to.be.above(1);
    for (let d = 0; d < 3 * n; d++) {
      const xp = Float64Array.from(x),
        xm = Float64Array.from(x);
      xp[d] += e;
      xm[d] -= e;
      expect(f[d], `dof ${d}`).to.be.closeTo(-(energy(xp) - energy(xm)) / (2 * e), 1e-5 * scale);
    }
  });

  it('gives two particles the closed-form pressure and Laplacian viscosity forces of the default kernels', () => {
    const h = 0.5,
      m = 2,
      k = 100,
      rho0 = 10,
      mu = 3,
      r = 0.2;
    const x = Float64Array.of(0, 0, 0, r, 0, 0);
    const v = Float64Array.of(0, 1, 0, 0, -2, 0);
    const { ff } = fluid(x, { radius: h, mass: m, pressure: k, density: rho0, viscosity: mu, viscosityType: 1, cellWidth: h });
    const f = forces(ff, x, v);
    const rho = m * (poly6(0, h) + poly6(r, h));
    const p = k * (rho - rho0);
    // spiky gradient at d = x0 − x1 = (−r, 0, 0): ∇W = −45/(πh⁶)·(h − r)²·d/r
    const gradX = (-45 / (Math.PI * h ** 6)) * (h - r) ** 2 * -1;
    const fPressure = -m * m * 2 * (p / (rho * rho)) * gradX;
    const lapV = (45 / (Math.PI * h ** 6)) * (h - r);
    const fVisc = ((mu * m * m) / (rho * rho)) * lapV * (-2 - 1);
    expect(ff.particleDensity(0)).to.be.closeTo(rho, 1e-12 * rho);
    expect(f[0]).to.be.closeTo(fPressure, 1e-9 * Math.abs(fPressure));
    expect(f[1]).to.be.closeTo(fVisc, 1e-9 * Math.abs(fVisc));
    expect([f[3], f[4]]).to.deep.equal([-f[0], -f[1]]);
  });

  it('artificial viscosity (type 2) adds to the pressure of approaching particles only', () => {
    const h = 0.5,
      m = 1,
      mu = 4,
      r = 0.25;
    const x = Float64Array.of(0, 0, 0, 0, r, 0);
    const { ff } = fluid(x, { radius: h, mass: m, pressure: 0, density: 1, viscosity: mu, viscosityType: 2, cellWidth: h });
    const receding = forces(ff, x, Float64Array.of(0, -1, 0, 0, 1, 0));
    expect(Array.from(receding).every((c) => c === 0)).to.equal(true);
    const f = forces(ff, x, Float64Array.of(0, 1, 0, 0, -1, 0));
    const rho = m * (poly6(0, h) + poly6(r, h));
    const q = r / h;
    // (vi − vj)·(xi − xj) = (0, 2, 0)·(0, −r, 0) = −2r
    const fv = (-2 * r * mu * h * m) / ((q * q + 0.01 * h * h) * rho);
    const grad = (-45 / (Math.PI * h ** 6)) * (h - r) ** 2 * -1; // y component of the spiky gradient at d = (0, −r, 0)
    expect(f[1]).to.be.closeTo(fv * grad, 1e-9 * Math.abs(fv * grad));
    expect(f[1]).to.be.below(0); // particle 0 is slowed down
  });

  it('stays finite for coincident particles (their pair has no pressure direction) and says so; warns without a grid', () => {
    const x = Float64Array.of(0, 0, 0, 0, 0, 0, 0.1, 0, 0);
    const { ff, warnings } = fluid(x, { radius: 0.5, pressure: 100 });
    const f = forces(ff, x);
    expect(Array.from(f).every(Number.isFinite)).to.equal(true);
    expect(f[6]).to.be.above(0);
    expect(warnings.some((w) => /no SpatialGridContainer/.test(w))).to.equal(true);
    expect(sceneWarnings(ff.context).some((w) => /coincident/.test(w.message))).to.equal(true);
  });
});
