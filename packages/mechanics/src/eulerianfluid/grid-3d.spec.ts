import { expect } from 'chai';
import { Grid3D, surfaceCondition } from './grid-3d.js';

/** A grid whose cells below z = level are fluid, the border walls. */
function tank(n: number, level: number): Grid3D {
  const prev = new Grid3D(),
    g = new Grid3D();
  prev.clear(n, n, n);
  g.clear(n, n, n);
  prev.seed(level, 0, 0, 1);
  g.stepInit(prev);
  return g;
}

function divergenceNorm(g: Grid3D): number {
  let s = 0;
  for (let i = 0; i < g.ncell; i++) if (g.type[i] > 0) s += g.divergence(i) ** 2;
  return Math.sqrt(s);
}

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 1073741824 - 1;
}

describe('Grid3D (SofaEulerianFluid stable fluids)', () => {
  it('sets the air faces of a fluid cell so that its divergence vanishes, except with one opposite air pair or all six', () => {
    const rnd = lcg(11);
    for (let mask = 1; mask < 64; mask++) {
      const f0 = Array.from({ length: 6 }, () => rnd());
      const f = f0.slice();
      surfaceCondition(mask, f);
      // only air faces change
      for (let k = 0; k < 6; k++) if (!(mask & (1 << k))) expect(f[k], `mask ${mask} face ${k}`).to.equal(f0[k]);
      const div = f[1] - f[0] + f[3] - f[2] + f[5] - f[4];
      const unchanged = [3, 12, 48, 63].includes(mask);
      if (unchanged) expect(f).to.deep.equal(f0);
      else expect(Math.abs(div), `mask ${mask}`).to.be.below(1e-15);
    }
  });

  it('projects a random field to a discrete divergence below the solver tolerance (‖div‖ ≤ 1e-3 of the initial)', () => {
    const n = 10;
    const g = tank(n, 5.5);
    const prev = new Grid3D();
    prev.clear(n, n, n);
    const rnd = lcg(5);
    const sy = n,
      sz = n * n;
    for (let i = 0; i < g.ncell; i++) {
      if (g.type[i] < 0) continue;
      g.u0[i] = g.type[i - 1] < 0 ? 0 : 0.3 * rnd();
      g.u1[i] = g.type[i - sy] < 0 ? 0 : 0.3 * rnd();
      g.u2[i] = g.type[i - sz] < 0 ? 0 : 0.3 * rnd();
    }
    const before = divergenceNorm(g);
    expect(before).to.be.above(1);
    g.stepProject(prev, 0.04);
    expect(g.lastConverged).to.equal(true);
    expect(divergenceNorm(g)).to.be.at.most(1e-3 * before * (1 + 1e-12));
  });

  it('keeps a discretely divergence-free field through the projection', () => {
    const n = 9;
    const g = tank(n, 4.5);
    const prev = new Grid3D();
    prev.clear(n, n, n);
    // u = curl of A = (0, 0, ψ(x, y)) on the faces: u = ∂ψ/∂y, v = −∂ψ/∂x, w = 0, ψ = 0 on the walls
    const psi = (x: number, y: number) => 0.2 * Math.sin((Math.PI * (x - 0.5)) / (n - 2)) * Math.sin((Math.PI * (y - 0.5)) / (n - 2));
    for (let z = 1; z < n; z++)
      for (let y = 1; y < n; y++)
        for (let x = 1; x < n; x++) {
          const i = g.index(x, y, z);
          g.u0[i] = psi(x - 0.5, y + 0.5) - psi(x - 0.5, y - 0.5);
          g.u1[i] = -(psi(x + 0.5, y - 0.5) - psi(x - 0.5, y - 0.5));
        }
    expect(divergenceNorm(g)).to.be.below(1e-15);
    const u0 = g.u0.slice();
    g.stepProject(prev, 0.04);
    expect(divergenceNorm(g)).to.be.below(1e-14);
    for (let i = 0; i < g.ncell; i++) expect(Math.abs(g.u0[i] - u0[i])).to.be.below(1e-14);
  });

  it('advects a constant velocity field exactly', () => {
    const g = tank(8, 20);
    const temp = new Grid3D();
    temp.clear(8, 8, 8);
    g.u0.fill(0.4);
    g.u1.fill(-0.9);
    g.u2.fill(1.7);
    g.stepAdvect(temp, 0.04);
    for (let z = 1; z < 7; z++)
      for (let y = 1; y < 7; y++)
        for (let x = 1; x < 7; x++) {
          const i = g.index(x, y, z);
          expect([temp.u0[i], temp.u1[i], temp.u2[i]]).to.deep.equal([0.4, -0.9, 1.7]);
        }
  });

  it('keeps the fluid in place at rest without gravity: the fluid cells (its mass) and the interface are conserved', () => {
    let fluid = new Grid3D(),
      next = new Grid3D();
    const temp = new Grid3D();
    for (const g of [fluid, next, temp]) g.clear(10, 9, 8);
    fluid.seed(4.3, 0.3, 0, 1);
    fluid.tend = 0;
    const fullCells = (g: Grid3D) => g.type.reduce((s, t) => s + (t > 0 ? 1 : 0), 0);
    // the interface along z in each inner column, by linear interpolation
    const crossings = (g: Grid3D) => {
      const out: number[] = [];
      for (let y = 1; y < 8; y++)
        for (let x = 1; x < 9; x++)
          for (let z = 1; z < 6; z++) {
            const a = g.levelset[g.index(x, y, z)],
              b = g.levelset[g.index(x, y, z + 1)];
            if (a < 0 && b >= 0) out.push(z + a / (a - b));
          }
      return out;
    };
    const c0 = crossings(fluid);
    expect(c0.length).to.equal(8 * 7);
    for (let s = 0; s < 10; s++) {
      next.step(fluid, temp, 0.04);
      [fluid, next] = [next, fluid];
    }
    expect(crossings(fluid)).to.deep.equal(c0);
    // inner cells below the plane (0.3x + z)/|(0.3, 0, 1)| = 4.3 (within the margin 0.01)
    let expected = 0;
    const l = Math.hypot(0.3, 1);
    for (let z = 1; z < 7; z++) for (let y = 1; y < 8; y++) for (let x = 1; x < 9; x++) if ((0.3 * x + z) / l - 4.3 < 0.01) expected++;
    expect(fullCells(fluid)).to.equal(expected);
  });
});
