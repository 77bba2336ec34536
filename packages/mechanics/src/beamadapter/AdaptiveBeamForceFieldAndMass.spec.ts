import { expect } from 'chai';
import { Rigid3d } from '@sofa-ts/core';
import { buildNode, StubTopology } from '../mass/mesh-test-support.js';
import { stiffnessAndFiniteDifferences } from '../load/fd-check-test-support.js';
import { AdaptiveBeamForceFieldAndMass } from './AdaptiveBeamForceFieldAndMass.js';
import { BeamInterpolation } from './BeamInterpolation.js';
import type { BeamMass } from './beam-mass.js';
import { maxRelError, quat, rigidMotion } from '../fem/beam/beam-test-support.js';

/** Quaternion turning e_x onto the unit vector d (about e_x × d). */
function quatAlongX(d: number[]): number[] {
  const c = d[0],
    ax = [0, -d[2], d[1]],
    n = Math.hypot(ax[1], ax[2]);
  return n < 1e-12 ? [0, 0, 0, 1] : quat([0, ax[1] / n, ax[2] / n], Math.acos(c));
}

/** n frames from `origin` along the unit direction d, spacing L, their x axes along d. */
function chain(n: number, L: number, d: number[], origin = [0, 0, 0]): number[] {
  const q = quatAlongX(d),
    x: number[] = [];
  for (let i = 0; i < n; i++) x.push(origin[0] + i * L * d[0], origin[1] + i * L * d[1], origin[2] + i * L * d[2], ...q);
  return x;
}

interface BeamSetup {
  E?: number;
  nu?: number;
  r?: number;
  rho?: number;
  gravity?: number[];
  shape?: 'circular' | 'rectangular';
  straight?: boolean;
  rest?: number[];
}

function beams(x: number[], o: BeamSetup = {}): { ff: AdaptiveBeamForceFieldAndMass; interp: BeamInterpolation; mass: BeamMass } {
  const n = x.length / 7,
    interp = new BeamInterpolation(),
    ff = new AdaptiveBeamForceFieldAndMass();
  interp.radius.value = o.r ?? 0.1;
  interp.defaultYoungModulus.value = new Float64Array([o.E ?? 1e5]);
  interp.defaultPoissonRatio.value = new Float64Array([o.nu ?? 0.3]);
  if (o.shape === 'rectangular') {
    interp.crossSectionShape.value = 'rectangular';
    interp.lengthY.value = 0.2;
    interp.lengthZ.value = 0.05;
  }
  if (o.straight === false) interp.straight.value = false;
  ff.massDensity.value = o.rho ?? 1;
  const edges: number[] = [];
  for (let i = 0; i + 1 < n; i++) edges.push(i, i + 1);
  buildNode(x, new StubTopology(n, { edges }), [interp, ff], { template: 'Rigid3d', gravity: o.gravity ?? [0, 0, 0], rest: o.rest });
  return { ff, interp, mass: ff.massPart! };
}

function maxAsymmetry(K: number[][]): number {
  let a = 0,
    scale = 0;
  for (let i = 0; i < K.length; i++)
    for (let j = 0; j < K.length; j++) {
      a = Math.max(a, Math.abs(K[i][j] - K[j][i]));
      scale = Math.max(scale, Math.abs(K[i][j]));
    }
  return a / scale;
}

/** The dense mass matrix the mass part assembles (n × n, n = 6 × frames). */
function denseMass(mass: BeamMass, n: number): number[][] {
  const M = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  mass.addMToMatrix({ add: (r, c, v) => (M[r][c] += v) }, 1);
  return M;
}

/** vᵀ·M·v. */
function quadratic(M: number[][], v: number[]): number {
  let e = 0;
  for (let i = 0; i < v.length; i++) for (let j = 0; j < v.length; j++) e += v[i] * M[i][j] * v[j];
  return e;
}

describe('AdaptiveBeamForceFieldAndMass (BeamAdapter)', () => {
  const d = [2 / 7, 3 / 7, 6 / 7];

  it('measures the rest lengths as arc lengths, and exerts no force at rest nor after a rigid motion', () => {
    const x0 = chain(4, 0.5, d, [1, -1, 2]);
    const { ff, interp } = beams(x0);
    for (const L of interp.lengths) expect(L).to.be.closeTo(0.5, 1e-14);
    for (const at of [Float64Array.from(x0), rigidMotion(x0, quat([0.36, 0.48, 0.8], 0.9), [1, -2, 0.5])]) {
      const f = new Float64Array(24);
      ff.addForce([f], [at], [new Float64Array(24)]);
      for (const fi of f) expect(Math.abs(fi)).to.be.below(1e-9);
    }
  });

  it('K = ∂f/∂x (central differences, Rigid3 increments) and symmetric, at rest and after a rigid motion', () => {
    const x0 = chain(4, 0.5, d);
    for (const setup of [{}, { shape: 'rectangular' as const }]) {
      const { ff } = beams(x0, setup);
      for (const at of [Float64Array.from(x0), rigidMotion(x0, quat([0.6, 0, 0.8], 2.1), [0.3, 0.2, -1])]) {
        const { K, FD } = stiffnessAndFiniteDifferences(ff, at, new Float64Array(24), 1e-6, Rigid3d);
        expect(maxRelError(K, FD)).to.be.below(1e-6);
        expect(maxAsymmetry(K)).to.be.below(1e-12);
      }
    }
  });

  it('away from rest K is the turned rest stiffness: its gap to ∂f/∂x is of the order of the deformation', () => {
    const x0 = chain(3, 0.5, [1, 0, 0]);
    const { ff } = beams(x0);
    for (const amp of [1e-3, 1e-2]) {
      const x = Float64Array.from(x0);
      x[7 + 1] += amp * 0.5;
      x[14 + 2] -= amp * 0.5;
      const { K, FD } = stiffnessAndFiniteDifferences(ff, x, new Float64Array(18), 1e-7, Rigid3d);
      expect(maxAsymmetry(K)).to.be.below(1e-12);
      expect(maxRelError(K, FD)).to.be.below(3 * amp);
    }
  });

  it('addDForce applies the K it assembles', () => {
    const x0 = chain(3, 1, [0, 1, 0]);
    const { ff } = beams(x0);
    const x = Float64Array.from(x0);
    x[7] += 0.01;
    ff.addForce([new Float64Array(18)], [x], [new Float64Array(18)]);
    const K = Array.from({ length: 18 }, () => new Array<number>(18).fill(0));
    ff.addKToMatrix({ add: (i, j, v) => (K[i][j] += v) }, 1);
    const dx = Float64Array.from({ length: 18 }, (_, i) => Math.cos(5 * i));
    const df = new Float64Array(18);
    ff.addDForce([df], [dx], -0.2, 0);
    for (let i = 0; i < 18; i++) {
      let s = 0;
      for (let j = 0; j < 18; j++) s += K[i][j] * dx[j];
      expect(df[i]).to.be.closeTo(-0.2 * s, 1e-9);
    }
  });

  it('mass: total ρ·A·L in every direction, gravity summing to ρ·A·L·g with the consistent end moments ∓qL²/12', () => {
    const rho = 7.8,
      r = 0.05,
      L = 0.4,
      g = [0, 0, -9.81];
    const x0 = chain(4, L, [1, 0, 0]);
    const { mass, ff } = beams(x0, { rho, r, gravity: g });
    const A = Math.PI * r * r,
      total = rho * A * 3 * L;
    const M = denseMass(mass, 24);
    for (let c = 0; c < 3; c++) {
      const v = new Array<number>(24).fill(0);
      for (let i = 0; i < 4; i++) v[6 * i + c] = 1;
      expect(quadratic(M, v)).to.be.closeTo(total, 1e-12 * total);
    }
    const f = new Float64Array(24);
    ff.addForce([new Float64Array(24)], [Float64Array.from(x0)], [new Float64Array(24)]);
    mass.addForce(f, Float64Array.from(x0), new Float64Array(24));
    let fz = 0,
      fx = 0;
    for (let i = 0; i < 4; i++) {
      fz += f[6 * i + 2];
      fx += f[6 * i];
    }
    expect(fz).to.be.closeTo(total * g[2], 1e-12 * total * 10);
    expect(fx).to.equal(0);
    // end frames: moments about y of a beam along x under a uniform load q = ρAg along z, with
    // θ_y = −dw/dx: −qL²/12 at the first end, +qL²/12 at the last (the inner ones cancel)
    const q = rho * A * g[2];
    expect(f[4]).to.be.closeTo((-q * L * L) / 12, 1e-12);
    expect(f[18 + 4]).to.be.closeTo((q * L * L) / 12, 1e-12);
    expect(f[6 + 4]).to.be.closeTo(0, 1e-14);
    // the mass matrix is symmetric, and addMDx applies it
    expect(maxAsymmetry(M)).to.be.below(1e-15);
    const dx = Float64Array.from({ length: 24 }, (_, i) => Math.sin(3 * i + 1)),
      out = new Float64Array(24);
    mass.addMDx(out, dx, 2);
    for (let i = 0; i < 24; i++) expect(out[i]).to.be.closeTo(2 * M[i].reduce((s, m, j) => s + m * dx[j], 0), 1e-12);
  });

  it('mass: the rotational inertia of one element, about its centre (ρAL³/12 + ρIL) and about its axis (ρJL), in any orientation', () => {
    const rho = 2,
      r = 0.1,
      L = 0.8,
      A = Math.PI * r * r,
      I = (Math.PI * r ** 4) / 4;
    const x0 = chain(2, L, d, [0.5, 0.2, -0.1]);
    const { mass } = beams(x0, { rho, r });
    const M = denseMass(mass, 12);
    // an angular velocity ω about the centre: v_i = ω × (c_i − c), the same ω at both frames
    const c = [0.5 + (L / 2) * d[0], 0.2 + (L / 2) * d[1], -0.1 + (L / 2) * d[2]];
    const perpendicular = [d[1] * 1 - d[2] * 0, d[2] * 0 - d[0] * 1, 0];
    const np = Math.hypot(...perpendicular);
    for (const [w, inertia] of [
      [perpendicular.map((p) => p / np), (rho * A * L ** 3) / 12 + rho * I * L],
      [d, rho * 2 * I * L],
    ] as const) {
      const v = new Array<number>(12).fill(0);
      for (let i = 0; i < 2; i++) {
        const p = [x0[7 * i] - c[0], x0[7 * i + 1] - c[1], x0[7 * i + 2] - c[2]];
        v[6 * i] = w[1] * p[2] - w[2] * p[1];
        v[6 * i + 1] = w[2] * p[0] - w[0] * p[2];
        v[6 * i + 2] = w[0] * p[1] - w[1] * p[0];
        for (let k = 0; k < 3; k++) v[6 * i + 3 + k] = w[k];
      }
      expect(quadratic(M, v)).to.be.closeTo(inertia, 1e-12 * inertia);
      expect(mass.getKineticEnergy(Float64Array.from(v))).to.be.closeTo(inertia / 2, 1e-12 * inertia);
    }
  });

  it('straight="false" keeps a curved rest shape: no force at the rest positions, forces once straightened', () => {
    // frames on an arc of radius 2, x axes along the tangent
    const x0: number[] = [];
    for (let i = 0; i < 4; i++) {
      const a = 0.25 * i;
      x0.push(2 * Math.sin(a), 2 - 2 * Math.cos(a), 0, ...quat([0, 0, 1], a));
    }
    const straightened = chain(4, 0.5, [1, 0, 0]);
    const { ff } = beams(straightened, { straight: false, rest: x0 });
    const f = new Float64Array(24);
    ff.addForce([f], [Float64Array.from(x0)], [new Float64Array(24)]);
    for (const fi of f) expect(Math.abs(fi)).to.be.below(1e-9);
    ff.addForce([f], [Float64Array.from(straightened)], [new Float64Array(24)]);
    expect(Math.max(...Array.from(f, Math.abs))).to.be.above(1);
  });
});
