import { expect } from 'chai';
import { Grid2D } from './grid-2d.js';

/** A grid whose cells below row `level` are fluid (φ = y − level), the border walls. */
function tank(nx: number, ny: number, level: number): Grid2D {
  const g = new Grid2D();
  g.clear(nx, ny);
  g.stepInit();
  g.seed(level, 0, 1);
  for (let i = 0; i < g.ncell; i++) if (g.type[i] === Grid2D.EMPTY && g.levelset[i] < 0) g.type[i] = Grid2D.FULL;
  return g;
}

function divergenceNorm(g: Grid2D): number {
  let s = 0;
  for (let i = 0; i < g.ncell; i++) if (g.type[i] > 0) s += g.divergence(i) ** 2;
  return Math.sqrt(s);
}

/** Deterministic pseudo-random numbers in [−1, 1). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 1073741824 - 1;
}

describe('Grid2D (SofaEulerianFluid stable fluids)', () => {
  it('leaves a discretely divergence-free field unchanged through the pressure projection', () => {
    const g = tank(12, 10, 6.5);
    const prev = new Grid2D();
    prev.clear(12, 10);
    // stream function ψ at the cell corners (x − ½, y − ½): u = ψ(x−½, y+½) − ψ(x−½, y−½), v = −(ψ(x+½, y−½) − ψ(x−½, y−½))
    // ψ = 0 on the walls' faces (x − ½ = ½ or 10.5, y − ½ = ½ or 8.5): no flow through them
    const psi = (x: number, y: number) => 0.3 * Math.sin((Math.PI * (x - 0.5)) / 10) * Math.sin((Math.PI * (y - 0.5)) / 8);
    for (let y = 1; y < 10; y++)
      for (let x = 1; x < 12; x++) {
        const i = g.index(x, y);
        g.u0[i] = psi(x - 0.5, y + 0.5) - psi(x - 0.5, y - 0.5);
        g.u1[i] = -(psi(x + 0.5, y - 0.5) - psi(x - 0.5, y - 0.5));
      }
    expect(divergenceNorm(g)).to.be.below(1e-15);
    expect(g.type.filter((t) => t > 0).length).to.equal(10 * 6);
    const u0 = g.u0.slice(),
      u1 = g.u1.slice();
    g.stepProject(prev, 0.04);
    expect(divergenceNorm(g)).to.be.below(1e-15);
    // b is rounding noise: the velocities move by as little
    for (let i = 0; i < g.ncell; i++) {
      expect(Math.abs(g.u0[i] - u0[i])).to.be.below(1e-14);
      expect(Math.abs(g.u1[i] - u1[i])).to.be.below(1e-14);
    }
  });

  it('projects a random field to a discrete divergence below the solver tolerance (‖div‖ ≤ 1e-2 of the initial)', () => {
    const g = tank(20, 16, 9.5);
    const prev = new Grid2D();
    prev.clear(20, 16);
    const rnd = lcg(3);
    for (let y = 1; y < 15; y++)
      for (let x = 1; x < 19; x++) {
        const i = g.index(x, y);
        // faces touching a wall carry no flow (SOFA's step_forces sets them to 0)
        g.u0[i] = g.type[i - 1] < 0 ? 0 : 0.5 * rnd();
        g.u1[i] = g.type[i - 20] < 0 ? 0 : 0.5 * rnd();
      }
    const before = divergenceNorm(g);
    expect(before).to.be.above(1);
    g.stepProject(prev, 0.04);
    expect(g.lastConverged).to.equal(true);
    const after = divergenceNorm(g);
    // div_new = −dt·r, and CG stops at ‖r‖ ≤ 1e-2‖b‖ with b = −div/dt
    expect(after).to.be.at.most(1e-2 * before * (1 + 1e-12));
    expect(after).to.be.below(before / 100 + 1e-12);
  });

  it('advects a constant velocity field exactly (semi-Lagrangian, bilinear)', () => {
    const g = tank(10, 10, 20);
    const temp = new Grid2D();
    temp.clear(10, 10);
    g.u0.fill(0.37);
    g.u1.fill(-1.21);
    g.stepAdvect(temp, 0.04);
    for (let y = 1; y < 9; y++)
      for (let x = 1; x < 9; x++) {
        expect(temp.u0[temp.index(x, y)]).to.equal(0.37);
        expect(temp.u1[temp.index(x, y)]).to.equal(-1.21);
      }
  });

  it('moves a planar level set by u·dt under a uniform velocity (linear fields are interpolated exactly)', () => {
    const prev = new Grid2D(),
      next = new Grid2D(),
      temp = new Grid2D();
    for (const g of [prev, next, temp]) g.clear(16, 8);
    prev.seed(6.3, 1, 0); // φ = x − 6.3
    prev.u0.fill(2);
    const dt = 0.1;
    next.stepInit();
    next.stepLevelset(prev, temp, dt);
    // the zero crossing along each inner row: 6.3 + 2·0.1
    for (let y = 1; y < 7; y++) {
      const a = next.levelset[next.index(6, y)],
        b = next.levelset[next.index(7, y)];
      expect(a).to.be.below(0);
      expect(b).to.be.above(0);
      expect(6 + a / (a - b)).to.be.closeTo(6.5, 1e-12);
    }
  });

  it('keeps the fluid (level set interface and fluid cells) in place at rest without gravity: its mass is conserved', () => {
    let fluid = new Grid2D(),
      next = new Grid2D();
    const temp = new Grid2D();
    for (const g of [fluid, next, temp]) {
      g.clear(14, 12);
      g.gravity = Float64Array.of(0, 0);
    }
    fluid.seed(5.4, 0.2, 1);
    fluid.tend = 0;
    const crossing = (g: Grid2D, x: number) => {
      for (let y = 1; y < 11; y++) {
        const a = g.levelset[g.index(x, y)],
          b = g.levelset[g.index(x, y + 1)];
        if (a < 0 && b >= 0) return y + a / (a - b);
      }
      return NaN;
    };
    const before = Array.from({ length: 12 }, (_, x) => crossing(fluid, x + 1));
    for (let s = 0; s < 20; s++) {
      next.step(fluid, temp, 0.04);
      [fluid, next] = [next, fluid];
    }
    let full = 0;
    for (let i = 0; i < fluid.ncell; i++) if (fluid.type[i] > 0) full++;
    expect(Array.from({ length: 12 }, (_, x) => crossing(fluid, x + 1))).to.deep.equal(before);
    // inner cells with φ < 0: those below the line 0.2x + y = 5.4·|(0.2, 1)|
    let expected = 0;
    const l = Math.hypot(0.2, 1);
    for (let y = 1; y < 11; y++) for (let x = 1; x < 13; x++) if ((0.2 * x + y) / l - 5.4 < 0) expected++;
    expect(full).to.equal(expected);
    expect(Math.max(...Array.from(fluid.u0).map(Math.abs), ...Array.from(fluid.u1).map(Math.abs))).to.equal(0);
  });
});
