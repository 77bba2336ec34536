import { FMM_FAR, FMM_KNOWN, FastMarchingHeap } from './fast-marching-heap.js';

/** Cells whose level set is below this margin are fluid (SOFA's LEVELSET_MARGIN). */
const MARGIN = 0.01;

/**
 * The 3D stable-fluids grid of SOFA's SofaEulerianFluid (Grid3D), as Grid2D (grid-2d.ts) with a
 * third axis and SOFA's 3D order and choices:
 *   init      border cells are walls; the others take the previous level set and are fluid where
 *             φ < 0.01;
 *   forces    previous face velocities of the fluid faces + gravity·dt (the context's gravity in
 *             cell widths), source (a ball of radius nz/8 at (nz/4, 3ny/4, 3nz/4) pushing
 *             (4, 0, −4)) while 0 < t < tend;
 *   surface   SOFA's 63 cases of air faces around a fluid cell (continuity where it can be had);
 *   advect, diffuse (6 neighbours), project (A with 6 neighbours, CG until ‖r‖² ≤ 1e-6‖b‖²);
 *   levelset  last, advected through the new velocities, reinitialised; cells become fluid where
 *             φ < 0.01 and empty again where not.
 * sofa-ts departs from SOFA's code in three places that read as slips: the backtrace of the x and
 * y faces takes the mean of the four w around them (SOFA sums them); the case of four air faces
 * Y0 Y1 Z0 Z1 splits x1 − x0 over the y and z faces (SOFA writes the y faces twice from z1 − z0);
 * with five air faces the one without an opposite air face is solved for (SOFA writes the fluid
 * face opposite it), as in every other case only air faces change.
 * Values are doubles; backtraced points are clamped into the grid.
 */
export class Grid3D {
  nx = 0;
  ny = 0;
  nz = 0;
  ncell = 0;
  u0 = new Float64Array(0);
  u1 = new Float64Array(0);
  u2 = new Float64Array(0);
  type = new Int32Array(0);
  pressure = new Float64Array(0);
  levelset = new Float64Array(0);
  private s0 = new Float64Array(0);
  private s1 = new Float64Array(0);
  private s2 = new Float64Array(0);
  private s3 = new Float64Array(0);
  private q = new Float64Array(0);
  private readonly fmm = new FastMarchingHeap();
  t = 0;
  tend = 60;
  /** Gravity in cell widths per unit time² (Fluid3D sets the context's / cellwidth). */
  gravity = Float64Array.of(0, 0, 0);
  lastIterations = 0;
  lastConverged = true;

  static readonly WALL = -1;
  static readonly EMPTY = 0;
  static readonly FULL = 1;

  clear(nx: number, ny: number, nz: number): void {
    this.t = 0;
    this.tend = 40;
    [this.nx, this.ny, this.nz] = [nx, ny, nz];
    const n = (this.ncell = nx * ny * nz);
    if (this.u0.length !== n) {
      this.u0 = new Float64Array(n);
      this.u1 = new Float64Array(n);
      this.u2 = new Float64Array(n);
      this.type = new Int32Array(n);
      this.pressure = new Float64Array(n);
      this.levelset = new Float64Array(n);
      this.s0 = new Float64Array(n);
      this.s1 = new Float64Array(n);
      this.s2 = new Float64Array(n);
      this.s3 = new Float64Array(n);
      this.q = new Float64Array(n);
      this.fmm.resize(n);
    } else {
      for (const a of [this.u0, this.u1, this.u2, this.pressure, this.levelset]) a.fill(0);
      this.type.fill(0);
    }
  }

  index(x: number, y: number, z: number): number {
    return x + this.nx * (y + this.ny * z);
  }

  /** φ = (x, y, z)·n̂ − height. */
  seed(height: number, n0: number, n1: number, n2: number): void {
    const l = Math.hypot(n0, n1, n2);
    const [a, b, c] = [n0 / l, n1 / l, n2 / l];
    let i = 0;
    for (let z = 0; z < this.nz; z++)
      for (let y = 0; y < this.ny; y++) for (let x = 0; x < this.nx; x++, i++) this.levelset[i] = x * a + y * b + z * c - height;
  }

  /** Component c at (px, py, pz), its faces at −½ along c. */
  interp(c: 0 | 1 | 2, px: number, py: number, pz: number): number {
    if (c === 0) return this.trilinear(this.u0, px + 0.5, py, pz);
    if (c === 1) return this.trilinear(this.u1, px, py + 0.5, pz);
    return this.trilinear(this.u2, px, py, pz + 0.5);
  }

  levelsetAt(px: number, py: number, pz: number): number {
    return this.trilinear(this.levelset, px, py, pz);
  }

  private trilinear(f: Float64Array, px: number, py: number, pz: number): number {
    const { nx, ny, nz } = this;
    px = Math.min(Math.max(px, 0), nx - 1);
    py = Math.min(Math.max(py, 0), ny - 1);
    pz = Math.min(Math.max(pz, 0), nz - 1);
    const ix = Math.min(Math.floor(px), nx - 2),
      iy = Math.min(Math.floor(py), ny - 2),
      iz = Math.min(Math.floor(pz), nz - 2);
    const fx = px - ix,
      fy = py - iy,
      fz = pz - iz;
    const i = ix + nx * (iy + ny * iz),
      sy = nx,
      sz = nx * ny;
    const l = (j: number) => f[j] + (f[j + 1] - f[j]) * fx;
    const a = l(i) + (l(i + sy) - l(i)) * fy;
    const b = l(i + sz) + (l(i + sz + sy) - l(i + sz)) * fy;
    return a + (b - a) * fz;
  }

  step(prev: Grid3D, temp: Grid3D, dt: number, diff = 0.00001): void {
    this.t = prev.t + dt;
    this.tend = prev.tend;
    this.stepInit(prev);
    this.stepForces(prev, dt);
    this.stepSurface();
    this.stepAdvect(temp, dt);
    this.stepDiffuse(temp, diff);
    this.stepProject(prev, dt);
    this.stepLevelset(prev, temp, dt);
  }

  stepInit(prev: Grid3D): void {
    const { nx, ny, nz } = this;
    let i = 0;
    for (let z = 0; z < nz; z++)
      for (let y = 0; y < ny; y++)
        for (let x = 0; x < nx; x++, i++) {
          this.levelset[i] = prev.levelset[i];
          if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) this.type[i] = Grid3D.WALL;
          else this.type[i] = this.levelset[i] < MARGIN ? Grid3D.FULL : Grid3D.EMPTY;
        }
  }

  stepForces(prev: Grid3D, dt: number): void {
    const { nx, ny, nz } = this;
    const sy = nx,
      sz = nx * ny;
    const [fx, fy, fz] = [this.gravity[0] * dt, this.gravity[1] * dt, this.gravity[2] * dt];
    const ty = this.type;
    for (let z = 1; z < nz - 1; z++)
      for (let y = 1; y < ny - 1; y++)
        for (let x = 1; x < nx - 1; x++) {
          const i = x + sy * y + sz * z;
          const p0 = ty[i];
          if (p0 < 0) {
            this.u0[i] = this.u1[i] = this.u2[i] = 0;
            continue;
          }
          let p1 = ty[i - 1];
          this.u0[i] = p1 >= 0 && p0 + p1 > 0 ? fx + prev.u0[i] : 0;
          p1 = ty[i - sy];
          this.u1[i] = p1 >= 0 && p0 + p1 > 0 ? fy + prev.u1[i] : 0;
          p1 = ty[i - sz];
          this.u2[i] = p1 >= 0 && p0 + p1 > 0 ? fz + prev.u2[i] : 0;
        }
    if (this.t > 0 && this.t < this.tend) {
      const cx = Math.floor(nz / 4),
        cy = Math.floor((3 * ny) / 4),
        cz = Math.floor((3 * nz) / 4);
      let r = nz / 8;
      if (this.t < 1) r *= this.t;
      else if (this.t > this.tend - 1) r *= this.tend - this.t;
      const ir = Math.ceil(r) + 5;
      for (let z = cz - ir; z <= cz + ir; z++)
        for (let y = cy - ir; y <= cy + ir; y++)
          for (let x = cx - ir; x <= cx + ir; x++) {
            if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) continue;
            const d = Math.sqrt((z - cz) ** 2 + (y - cy) ** 2 + (x - cx) ** 2) - r;
            const i = x + sy * y + sz * z;
            if (d < MARGIN) {
              this.u0[i] = 4;
              this.u1[i] = 0;
              this.u2[i] = -4;
              if (ty[i] === Grid3D.EMPTY) ty[i] = Grid3D.FULL;
            }
            if (d < this.levelset[i]) this.levelset[i] = d;
          }
    }
  }

  stepSurface(): void {
    const { nx, ny, nz } = this;
    const sy = nx,
      sz = nx * ny;
    const ty = this.type;
    const U = this.u0,
      V = this.u1,
      W = this.u2;
    for (let z = 1; z < nz - 1; z++)
      for (let y = 1; y < ny - 1; y++)
        for (let x = 1; x < nx - 1; x++) {
          const i = x + sy * y + sz * z;
          if (ty[i] <= 0) continue;
          const mask =
            (ty[i - 1] === 0 ? X0 : 0) |
            (ty[i + 1] === 0 ? X1 : 0) |
            (ty[i - sy] === 0 ? Y0 : 0) |
            (ty[i + sy] === 0 ? Y1 : 0) |
            (ty[i - sz] === 0 ? Z0 : 0) |
            (ty[i + sz] === 0 ? Z1 : 0);
          if (mask === 0) continue;
          const f = [U[i], U[i + 1], V[i], V[i + sy], W[i], W[i + sz]];
          surfaceCondition(mask, f);
          U[i] = f[0];
          U[i + 1] = f[1];
          V[i] = f[2];
          V[i + sy] = f[3];
          W[i] = f[4];
          W[i + sz] = f[5];
        }
  }

  stepAdvect(temp: Grid3D, dt: number): void {
    const { nx, ny, nz } = this;
    const sy = nx,
      sz = nx * ny;
    const U = this.u0,
      V = this.u1,
      W = this.u2;
    temp.u0.fill(0);
    temp.u1.fill(0);
    temp.u2.fill(0);
    for (let z = 1; z < nz - 1; z++)
      for (let y = 1; y < ny - 1; y++)
        for (let x = 1; x < nx - 1; x++) {
          const i = x + sy * y + sz * z;
          // each face traced back along its own component and the mean of the four others around it
          const vx = 0.25 * (V[i] + V[i - 1] + V[i + sy] + V[i - 1 + sy]);
          const wx = 0.25 * (W[i] + W[i - 1] + W[i + sz] + W[i - 1 + sz]);
          temp.u0[i] = this.interp(0, x - 0.5 - dt * U[i], y - dt * vx, z - dt * wx);
          const uy = 0.25 * (U[i] + U[i - sy] + U[i + 1] + U[i + 1 - sy]);
          const wy = 0.25 * (W[i] + W[i - sy] + W[i + sz] + W[i - sy + sz]);
          temp.u1[i] = this.interp(1, x - dt * uy, y - 0.5 - dt * V[i], z - dt * wy);
          const uz = 0.25 * (U[i] + U[i - sz] + U[i + 1] + U[i + 1 - sz]);
          const vz = 0.25 * (V[i] + V[i - sz] + V[i + sy] + V[i + sy - sz]);
          temp.u2[i] = this.interp(2, x - dt * uz, y - dt * vz, z - 0.5 - dt * W[i]);
        }
  }

  stepDiffuse(temp: Grid3D, diff: number): void {
    const { nx, ny, nz } = this;
    if (diff === 0) {
      this.u0.set(temp.u0);
      this.u1.set(temp.u1);
      this.u2.set(temp.u2);
      return;
    }
    const sy = nx,
      sz = nx * ny;
    const a = diff,
      inv = 1 / (1.0001 + 6 * a);
    for (const [dst, src] of [
      [this.u0, temp.u0],
      [this.u1, temp.u1],
      [this.u2, temp.u2],
    ] as const)
      for (let z = 1; z < nz - 1; z++)
        for (let y = 1; y < ny - 1; y++)
          for (let x = 1; x < nx - 1; x++) {
            const i = x + sy * y + sz * z;
            dst[i] = (src[i] + (src[i - 1] + src[i + 1] + src[i - sy] + src[i + sy] + src[i - sz] + src[i + sz]) * a) * inv;
          }
  }

  /** Discrete divergence of cell i. */
  divergence(i: number): number {
    const sy = this.nx,
      sz = this.nx * this.ny;
    return this.u0[i + 1] - this.u0[i] + this.u1[i + sy] - this.u1[i] + this.u2[i + sz] - this.u2[i];
  }

  stepProject(prev: Grid3D, dt: number): void {
    const { nx, ny, nz, ncell } = this;
    const sy = nx,
      sz = nx * ny;
    const ty = this.type;
    const diag = this.s0,
      b = this.s1,
      r = this.s2,
      g = this.s3,
      q = this.q;
    diag.fill(0);
    b.fill(0);
    r.fill(0);
    q.fill(0);
    const a = -1 / dt;
    let bNorm2 = 0;
    const wall = (j: number) => (ty[j] < 0 ? 1 : 0);
    for (let z = 1; z < nz - 1; z++)
      for (let y = 1; y < ny - 1; y++)
        for (let x = 1; x < nx - 1; x++) {
          const i = x + sy * y + sz * z;
          if (ty[i] <= 0) continue;
          diag[i] = 6 - wall(i - 1) - wall(i + 1) - wall(i - sy) - wall(i + sy) - wall(i - sz) - wall(i + sz);
          const bi = a * this.divergence(i);
          b[i] = bi;
          bNorm2 += bi * bi;
        }
    const p = this.pressure;
    for (let i = 0; i < ncell; i++) p[i] = ty[i] > 0 ? prev.pressure[i] : 0;
    const applyA = (s: Float64Array, i: number) => diag[i] * s[i] - s[i - 1] - s[i + 1] - s[i - sy] - s[i + sy] - s[i - sz] - s[i + sz];
    for (let i = 0; i < ncell; i++) if (diag[i] !== 0) r[i] = b[i] - applyA(p, i);
    g.set(r);
    const minErr = 0.000001 * bNorm2;
    let err = 0,
      step = 0;
    this.lastConverged = false;
    for (; step < 100; step++) {
      const errOld = err;
      err = 0;
      for (let i = 0; i < ncell; i++) err += r[i] * r[i];
      if (err <= minErr) {
        this.lastConverged = true;
        break;
      }
      if (step > 0) {
        const beta = err / errOld;
        for (let i = 0; i < ncell; i++) g[i] = g[i] * beta + r[i];
      }
      let gq = 0;
      for (let i = 0; i < ncell; i++)
        if (diag[i] !== 0) {
          const ag = applyA(g, i);
          q[i] = ag;
          gq += g[i] * ag;
        }
      const alpha = err / gq;
      for (let i = 0; i < ncell; i++) {
        p[i] += alpha * g[i];
        r[i] -= alpha * q[i];
      }
    }
    this.lastIterations = step;
    const maxSpeed = 0.5 / dt;
    const clamp = (s: number) => (s > maxSpeed ? maxSpeed : s < -maxSpeed ? -maxSpeed : s);
    for (let z = 1; z < nz - 1; z++)
      for (let y = 1; y < ny - 1; y++)
        for (let x = 1; x < nx - 1; x++) {
          const i = x + sy * y + sz * z;
          if (ty[i] < 0) continue;
          if (ty[i - 1] >= 0) this.u0[i] = clamp(this.u0[i] - dt * (p[i] - p[i - 1]));
          if (ty[i - sy] >= 0) this.u1[i] = clamp(this.u1[i] - dt * (p[i] - p[i - sy]));
          if (ty[i - sz] >= 0) this.u2[i] = clamp(this.u2[i] - dt * (p[i] - p[i - sz]));
        }
  }

  stepLevelset(prev: Grid3D, temp: Grid3D, dt: number): void {
    const { nx, ny, nz, ncell } = this;
    const sy = nx,
      sz = nx * ny;
    const ls = this.levelset,
      tls = temp.levelset;
    for (let z = 1; z < nz - 1; z++)
      for (let y = 1; y < ny - 1; y++)
        for (let x = 1; x < nx - 1; x++) {
          const i = x + sy * y + sz * z;
          if (Math.abs(prev.levelset[i]) < 5) {
            // midpoint backtrace through this step's velocity
            let ux = this.interp(0, x, y, z),
              uy = this.interp(1, x, y, z),
              uz = this.interp(2, x, y, z);
            const hx = x - ux * dt,
              hy = y - uy * dt,
              hz = z - uz * dt;
            ux = (ux + this.interp(0, hx, hy, hz)) * 0.5;
            uy = (uy + this.interp(1, hx, hy, hz)) * 0.5;
            uz = (uz + this.interp(2, hx, hy, hz)) * 0.5;
            tls[i] = prev.levelsetAt(x - ux * dt, y - uy * dt, z - uz * dt);
          } else tls[i] = prev.levelset[i];
        }
    const fmm = this.fmm;
    fmm.resize(ncell);
    fmm.key = ls;
    const st = fmm.status;
    let i = 0;
    for (let z = 0; z < nz; z++)
      for (let y = 0; y < ny; y++)
        for (let x = 0; x < nx; x++, i++) {
          st[i] = FMM_FAR;
          if (this.type[i] !== Grid3D.WALL) continue;
          let phi = 0,
            n = 0;
          for (let dz = -1; dz <= 1; dz++)
            for (let dy = -1; dy <= 1; dy++)
              for (let dx = -1; dx <= 1; dx++) {
                const xx = x + dx,
                  yy = y + dy,
                  zz = z + dz;
                if (xx < 0 || yy < 0 || zz < 0 || xx >= nx || yy >= ny || zz >= nz) continue;
                const j = xx + sy * yy + sz * zz;
                if (this.type[j] !== Grid3D.WALL) {
                  phi += tls[j];
                  n++;
                }
              }
          if (n > 0) tls[i] = phi / n;
        }
    i = 0;
    for (let z = 0; z < nz; z++)
      for (let y = 0; y < ny; y++)
        for (let x = 0; x < nx; x++, i++) {
          const p0 = tls[i];
          const known =
            (x > 0 && tls[i - 1] * p0 < 0) ||
            (x < nx - 1 && tls[i + 1] * p0 < 0) ||
            (y > 0 && tls[i - sy] * p0 < 0) ||
            (y < ny - 1 && tls[i + sy] * p0 < 0) ||
            (z > 0 && tls[i - sz] * p0 < 0) ||
            (z < nz - 1 && tls[i + sz] * p0 < 0);
          ls[i] = known ? Math.abs(p0) : 5;
          st[i] = known ? FMM_KNOWN : FMM_FAR;
        }
    for (let j = 0; j < ncell; j++) if (st[j] === FMM_KNOWN) this.relaxNeighbours(j, ls[j] + 1);
    while (fmm.size > 0) {
      const j = fmm.pop();
      const phi1 = ls[j] + 1;
      if (phi1 >= 5) break;
      this.relaxNeighbours(j, phi1);
    }
    for (let j = 0; j < ncell; j++) {
      if (tls[j] < 0) ls[j] = -ls[j];
      if (ls[j] < MARGIN) {
        if (this.type[j] === Grid3D.EMPTY) this.type[j] = Grid3D.FULL;
      } else if (this.type[j] === Grid3D.FULL) this.type[j] = Grid3D.EMPTY;
    }
  }

  private relaxNeighbours(j: number, phi1: number): void {
    const { nx, ny, nz } = this;
    const x = j % nx,
      y = Math.floor(j / nx) % ny,
      z = Math.floor(j / (nx * ny));
    const h = this.fmm,
      sz = nx * ny;
    if (x > 0) h.relax(j - 1, phi1);
    if (x < nx - 1) h.relax(j + 1, phi1);
    if (y > 0) h.relax(j - nx, phi1);
    if (y < ny - 1) h.relax(j + nx, phi1);
    if (z > 0) h.relax(j - sz, phi1);
    if (z < nz - 1) h.relax(j + sz, phi1);
  }
}

const X0 = 1,
  X1 = 2,
  Y0 = 4,
  Y1 = 8,
  Z0 = 16,
  Z1 = 32;

/**
 * SOFA's Grid3D boundary conditions on the faces f = [x0, x1, y0, y1, z0, z1] of a fluid cell
 * whose air faces are `mask`, towards x1 − x0 + y1 − y0 + z1 − z0 = 0.
 */
export function surfaceCondition(mask: number, f: number[]): void {
  const [x0, x1, y0, y1, z0, z1] = f;
  let r: number;
  switch (mask) {
    // one air face, with no, one or two opposite air pairs beside: solve for it
    case X0:
    case X0 | Y0 | Y1:
    case X0 | Z0 | Z1:
    case X0 | Y0 | Y1 | Z0 | Z1:
      f[0] = x1 + y1 - y0 + z1 - z0;
      return;
    case X1:
    case X1 | Y0 | Y1:
    case X1 | Z0 | Z1:
    case X1 | Y0 | Y1 | Z0 | Z1:
      f[1] = x0 + y0 - y1 + z0 - z1;
      return;
    case Y0:
    case Y0 | X0 | X1:
    case Y0 | Z0 | Z1:
    case X0 | X1 | Y0 | Z0 | Z1:
      f[2] = x1 - x0 + y1 + z1 - z0;
      return;
    case Y1:
    case Y1 | X0 | X1:
    case Y1 | Z0 | Z1:
    case X0 | X1 | Y1 | Z0 | Z1:
      f[3] = x0 - x1 + y0 + z0 - z1;
      return;
    case Z0:
    case Z0 | Y0 | Y1:
    case Z0 | X0 | X1:
    case X0 | X1 | Y0 | Y1 | Z0:
      f[4] = x1 - x0 + y1 - y0 + z1;
      return;
    case Z1:
    case Z1 | Y0 | Y1:
    case Z1 | X0 | X1:
    case X0 | X1 | Y0 | Y1 | Z1:
      f[5] = x0 - x1 + y0 - y1 + z0;
      return;
    // two adjacent air faces: the opposite values plus half the remaining difference
    case X0 | Y0:
      r = (z1 - z0) * 0.5;
      [f[0], f[2]] = [x1 + r, y1 + r];
      return;
    case X0 | Y1:
      r = (z1 - z0) * 0.5;
      [f[0], f[3]] = [x1 + r, y0 - r];
      return;
    case X0 | Z0:
      r = (y1 - y0) * 0.5;
      [f[0], f[4]] = [x1 + r, z1 + r];
      return;
    case X0 | Z1:
      r = (y1 - y0) * 0.5;
      [f[0], f[5]] = [x1 + r, z0 - r];
      return;
    case X1 | Y0:
      r = (z1 - z0) * 0.5;
      [f[1], f[2]] = [x0 - r, y1 + r];
      return;
    case X1 | Y1:
      r = (z1 - z0) * 0.5;
      [f[1], f[3]] = [x0 - r, y0 - r];
      return;
    case X1 | Z0:
      r = (y1 - y0) * 0.5;
      [f[1], f[4]] = [x0 - r, z1 + r];
      return;
    case X1 | Z1:
      r = (y1 - y0) * 0.5;
      [f[1], f[5]] = [x0 - r, z0 - r];
      return;
    case Y0 | Z0:
      r = (x1 - x0) * 0.5;
      [f[2], f[4]] = [y1 + r, z1 + r];
      return;
    case Y0 | Z1:
      r = (x1 - x0) * 0.5;
      [f[2], f[5]] = [y1 + r, z0 - r];
      return;
    case Y1 | Z0:
      r = (x1 - x0) * 0.5;
      [f[3], f[4]] = [y0 - r, z1 + r];
      return;
    case Y1 | Z1:
      r = (x1 - x0) * 0.5;
      [f[3], f[5]] = [y0 - r, z0 - r];
      return;
    // three air faces, no opposite pair: copy the opposite values
    case X0 | Y0 | Z0:
    case X1 | Y0 | Z0:
    case X0 | Y1 | Z0:
    case X1 | Y1 | Z0:
    case X0 | Y0 | Z1:
    case X1 | Y0 | Z1:
    case X0 | Y1 | Z1:
    case X1 | Y1 | Z1:
      if (mask & X0) f[0] = x1;
      else f[1] = x0;
      if (mask & Y0) f[2] = y1;
      else f[3] = y0;
      if (mask & Z0) f[4] = z1;
      else f[5] = z0;
      return;
    // two opposite air pairs: a quarter of the remaining difference on each
    case X0 | X1 | Y0 | Y1:
      r = (z1 - z0) * 0.25;
      [f[0], f[1], f[2], f[3]] = [r, -r, r, -r];
      return;
    case X0 | X1 | Z0 | Z1:
      r = (y1 - y0) * 0.25;
      [f[0], f[1], f[4], f[5]] = [r, -r, r, -r];
      return;
    case Y0 | Y1 | Z0 | Z1:
      r = (x1 - x0) * 0.25;
      [f[2], f[3], f[4], f[5]] = [r, -r, r, -r];
      return;
    // one opposite air pair and two others: copy the opposite values to the two, split the rest
    case X0 | X1 | Y0 | Z0:
      [f[2], f[4]] = [y1, z1];
      r = (y1 + z1) * 0.5;
      [f[0], f[1]] = [r, r];
      return;
    case X0 | X1 | Y1 | Z0:
      [f[3], f[4]] = [y0, z1];
      r = (-y0 + z1) * 0.5;
      [f[0], f[1]] = [r, r];
      return;
    case X0 | X1 | Y0 | Z1:
      [f[2], f[5]] = [y1, z0];
      r = (y1 - z0) * 0.5;
      [f[0], f[1]] = [r, r];
      return;
    case X0 | X1 | Y1 | Z1:
      [f[3], f[5]] = [y0, z0];
      r = (-y0 - z0) * 0.5;
      [f[0], f[1]] = [r, r];
      return;
    case Y0 | Y1 | X0 | Z0:
      [f[0], f[4]] = [x1, z1];
      r = (x1 + z1) * 0.5;
      [f[2], f[3]] = [r, r];
      return;
    case Y0 | Y1 | X1 | Z0:
      [f[1], f[4]] = [x0, z1];
      r = (-x0 + z1) * 0.5;
      [f[2], f[3]] = [r, r];
      return;
    case Y0 | Y1 | X0 | Z1:
      [f[0], f[5]] = [x1, z0];
      r = (x1 - z0) * 0.5;
      [f[2], f[3]] = [r, r];
      return;
    case Y0 | Y1 | X1 | Z1:
      [f[1], f[5]] = [x0, z0];
      r = (-x0 - z0) * 0.5;
      [f[2], f[3]] = [r, r];
      return;
    case Z0 | Z1 | Y0 | X0:
      [f[2], f[0]] = [y1, x1];
      r = (y1 + x1) * 0.5;
      [f[4], f[5]] = [r, r];
      return;
    case Z0 | Z1 | Y1 | X0:
      [f[3], f[0]] = [y0, x1];
      r = (-y0 + x1) * 0.5;
      [f[4], f[5]] = [r, r];
      return;
    case Z0 | Z1 | Y0 | X1:
      [f[2], f[1]] = [y1, x0];
      r = (y1 - x0) * 0.5;
      [f[4], f[5]] = [r, r];
      return;
    case Z0 | Z1 | Y1 | X1:
      [f[3], f[1]] = [y0, x0];
      r = (-y0 - x0) * 0.5;
      [f[4], f[5]] = [r, r];
      return;
    // one opposite pair, or all six: unchanged
  }
}
