import { FMM_FAR, FMM_KNOWN, FastMarchingHeap } from './fast-marching-heap.js';

/**
 * The stable-fluids grid of SOFA's SofaEulerianFluid (Grid2D): a MAC grid of nx × ny cells of
 * unit width, the border cells walls. Cell (x, y) holds
 *   u0  the x velocity on its face x − ½,  u1 the y velocity on its face y − ½,
 *   type  wall (−1), empty (0) or fluid (1), pressure, and levelset φ (< 0 inside the fluid,
 *         the signed distance, reinitialised to the city-block distance up to 5 cells).
 * One step (step), from the previous grid `prev`, with `temp` as scratch:
 *   init      the border cells are walls;
 *   levelset  φ advected semi-Lagrangian with a midpoint backtrace x − dt·(u(x) + u(x − dt·u))/2,
 *             walls given the mean of their neighbours, then a fast-marching reinitialisation
 *             (cells beside a sign change keep |φ|, the others the distance +1 per cell); cells
 *             with φ < 0 become fluid;
 *   forces    faces between two non-wall cells of which one is fluid keep the previous velocity,
 *             plus gravity·dt (SOFA's 2D grid: (0, −5·dt)), other faces 0; the source (a disc of
 *             radius ny/8 at (ny/4, 3ny/4) pushing (4, 0)) while 0 < t < tend;
 *   surface   faces between fluid and air set so that the fluid cell's divergence vanishes
 *             (SOFA's 16 cases of air faces);
 *   advect    each face velocity traced back along the velocity at the face (semi-Lagrangian,
 *             bilinear interpolation: a constant field is kept exactly);
 *   diffuse   u = (ũ + a·Σ neighbours ũ)/(1.0001 + 4a), a = diff;
 *   project   pressure from A p = −div(u)/dt, A = (non-wall neighbours)·p − Σ neighbours p (air
 *             at p = 0), by conjugate gradients from the previous pressure until ‖r‖² ≤ 1e-4‖b‖²
 *             (at most 100 iterations), then u −= dt·∇p on the faces of non-wall cells, clamped
 *             to ±0.5/dt.
 * Values are doubles (SOFA's grid uses floats). Backtraced points are clamped into the grid
 * (SOFA reads outside it there).
 */
export class Grid2D {
  nx = 0;
  ny = 0;
  ncell = 0;
  u0 = new Float64Array(0);
  u1 = new Float64Array(0);
  type = new Int32Array(0);
  pressure = new Float64Array(0);
  levelset = new Float64Array(0);
  /** Scratch of the projection (diag, b, r, g) and of the fast marching. */
  private s0 = new Float64Array(0);
  private s1 = new Float64Array(0);
  private s2 = new Float64Array(0);
  private s3 = new Float64Array(0);
  private q = new Float64Array(0);
  private readonly fmm = new FastMarchingHeap();
  t = 0;
  tend = 60;
  /** Gravity added to the velocities, per unit time (SOFA's Grid2D: (0, −5)). */
  gravity = Float64Array.of(0, -5);
  /** Iterations of the last projection and whether it reached ‖r‖² ≤ 1e-4‖b‖². */
  lastIterations = 0;
  lastConverged = true;

  static readonly WALL = -1;
  static readonly EMPTY = 0;
  static readonly FULL = 1;

  clear(nx: number, ny: number): void {
    this.t = 0;
    this.tend = 40;
    this.nx = nx;
    this.ny = ny;
    const n = (this.ncell = nx * ny);
    if (this.u0.length !== n) {
      this.u0 = new Float64Array(n);
      this.u1 = new Float64Array(n);
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
      for (const a of [this.u0, this.u1, this.pressure, this.levelset]) a.fill(0);
      this.type.fill(0);
    }
  }

  index(x: number, y: number): number {
    return x + y * this.nx;
  }

  /** φ = (x, y)·n̂ − height: the fluid fills the half plane below the line. */
  seed(height: number, nx: number, ny: number): void {
    const l = Math.hypot(nx, ny);
    const a = nx / l,
      b = ny / l;
    for (let y = 0, i = 0; y < this.ny; y++) for (let x = 0; x < this.nx; x++, i++) this.levelset[i] = x * a + y * b - height;
  }

  /** The bilinear interpolation of component c (its faces are at −½ along c) at (px, py). */
  interp(c: 0 | 1, px: number, py: number): number {
    const u = c === 0 ? this.u0 : this.u1;
    if (c === 0) px += 0.5;
    else py += 0.5;
    return this.bilinear(u, px, py);
  }

  /** The level set at (px, py), bilinear. */
  levelsetAt(px: number, py: number): number {
    return this.bilinear(this.levelset, px, py);
  }

  private bilinear(f: Float64Array, px: number, py: number): number {
    const nx = this.nx;
    px = Math.min(Math.max(px, 0), nx - 1);
    py = Math.min(Math.max(py, 0), this.ny - 1);
    const ix = Math.min(Math.floor(px), nx - 2),
      iy = Math.min(Math.floor(py), this.ny - 2);
    const fx = px - ix,
      fy = py - iy;
    const i = ix + iy * nx;
    const a = f[i] + (f[i + 1] - f[i]) * fx;
    const b = f[i + nx] + (f[i + nx + 1] - f[i + nx]) * fx;
    return a + (b - a) * fy;
  }

  /** One step of the fluid from prev into this grid (temp: scratch). */
  step(prev: Grid2D, temp: Grid2D, dt: number, diff = 0.00001): void {
    this.t = prev.t + dt;
    this.tend = prev.tend;
    this.stepInit();
    this.stepLevelset(prev, temp, dt);
    this.stepForces(prev, dt);
    this.stepSurface();
    this.stepAdvect(temp, dt);
    this.stepDiffuse(temp, diff);
    this.stepProject(prev, dt);
  }

  /** The border cells are walls, the others empty; φ = 5 until the level set step. */
  stepInit(): void {
    const { nx, ny } = this;
    for (let y = 0, i = 0; y < ny; y++)
      for (let x = 0; x < nx; x++, i++) {
        this.type[i] = x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1 ? Grid2D.WALL : Grid2D.EMPTY;
        this.levelset[i] = 5;
      }
  }

  stepLevelset(prev: Grid2D, temp: Grid2D, dt: number): void {
    const { nx, ny } = this;
    const ls = this.levelset,
      tls = temp.levelset;
    for (let y = 1; y < ny - 1; y++)
      for (let x = 1; x < nx - 1; x++) {
        const i = x + y * nx;
        if (Math.abs(prev.levelset[i]) < 5) {
          // midpoint backtrace through prev's velocity
          let ux = prev.interp(0, x, y),
            uy = prev.interp(1, x, y);
          const hx = x - ux * dt,
            hy = y - uy * dt;
          ux = (ux + prev.interp(0, hx, hy)) * 0.5;
          uy = (uy + prev.interp(1, hx, hy)) * 0.5;
          tls[i] = prev.levelsetAt(x - ux * dt, y - uy * dt);
        } else tls[i] = prev.levelset[i];
      }
    // walls: the mean of their non-wall neighbours
    const fmm = this.fmm;
    fmm.resize(this.ncell);
    fmm.key = ls;
    const st = fmm.status;
    for (let y = 0, i = 0; y < ny; y++)
      for (let x = 0; x < nx; x++, i++) {
        st[i] = FMM_FAR;
        if (this.type[i] !== Grid2D.WALL) continue;
        let phi = 0,
          n = 0;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const xx = x + dx,
              yy = y + dy;
            if (xx < 0 || yy < 0 || xx >= nx || yy >= ny) continue;
            const j = xx + yy * nx;
            if (this.type[j] !== Grid2D.WALL) {
              phi += tls[j];
              n++;
            }
          }
        tls[i] = n > 0 ? phi / n : tls[i];
      }
    // reinitialisation: cells beside a sign change are known, at |φ|
    for (let y = 0, i = 0; y < ny; y++)
      for (let x = 0; x < nx; x++, i++) {
        const p0 = tls[i];
        const known =
          (x > 0 && tls[i - 1] * p0 < 0) ||
          (x < nx - 1 && tls[i + 1] * p0 < 0) ||
          (y > 0 && tls[i - nx] * p0 < 0) ||
          (y < ny - 1 && tls[i + nx] * p0 < 0);
        ls[i] = known ? Math.abs(p0) : 5;
        st[i] = known ? FMM_KNOWN : FMM_FAR;
      }
    for (let y = 0, i = 0; y < ny; y++) for (let x = 0; x < nx; x++, i++) if (st[i] === FMM_KNOWN) this.relaxNeighbours(i, x, y, ls[i] + 1);
    while (fmm.size > 0) {
      const i = fmm.pop();
      const phi1 = ls[i] + 1;
      if (phi1 >= 5) break;
      this.relaxNeighbours(i, i % nx, Math.floor(i / nx), phi1);
    }
    for (let i = 0; i < this.ncell; i++)
      if (tls[i] < 0) {
        ls[i] = -ls[i];
        if (this.type[i] === Grid2D.EMPTY) this.type[i] = Grid2D.FULL;
      }
  }

  private relaxNeighbours(i: number, x: number, y: number, phi1: number): void {
    const { nx, ny } = this;
    const h = this.fmm;
    if (x > 0) h.relax(i - 1, phi1);
    if (x < nx - 1) h.relax(i + 1, phi1);
    if (y > 0) h.relax(i - nx, phi1);
    if (y < ny - 1) h.relax(i + nx, phi1);
  }

  stepForces(prev: Grid2D, dt: number): void {
    const { nx, ny } = this;
    const fx = this.gravity[0] * dt,
      fy = this.gravity[1] * dt;
    const ty = this.type;
    for (let y = 1; y < ny - 1; y++)
      for (let x = 1; x < nx - 1; x++) {
        const i = x + y * nx;
        const p0 = ty[i];
        if (p0 < 0) {
          this.u0[i] = 0;
          this.u1[i] = 0;
          continue;
        }
        // a face between two non-wall cells, one of them fluid, keeps its velocity
        let p1 = ty[i - 1];
        this.u0[i] = p1 >= 0 && p0 + p1 > 0 ? fx + prev.u0[i] : 0;
        p1 = ty[i - nx];
        this.u1[i] = p1 >= 0 && p0 + p1 > 0 ? fy + prev.u1[i] : 0;
      }
    if (this.t > 0 && this.t < this.tend) {
      const cx = Math.floor(ny / 4),
        cy = Math.floor((3 * ny) / 4);
      let r = ny / 8;
      if (this.t < 1) r *= this.t;
      else if (this.t > this.tend - 1) r *= this.tend - this.t;
      const ir = Math.ceil(r) + 5;
      for (let y = cy - ir; y <= cy + ir; y++) {
        if (y < 0 || y >= ny) continue;
        for (let x = cx - ir; x <= cx + ir; x++) {
          if (x < 0 || x >= nx) continue;
          const d = Math.sqrt((y - cy) * (y - cy) + (x - cx) * (x - cx)) - r;
          const i = x + y * nx;
          if (d < 0) {
            this.u0[i] = 4;
            this.u1[i] = 0;
            if (ty[i] === Grid2D.EMPTY) ty[i] = Grid2D.FULL;
          }
          if (d < this.levelset[i]) this.levelset[i] = d;
        }
      }
    }
  }

  /** Air faces of fluid cells: x1 − x0 + y1 − y0 = 0 where it can be had (SOFA's cases). */
  stepSurface(): void {
    const { nx, ny } = this;
    const ty = this.type,
      u = this.u0,
      v = this.u1;
    for (let y = 1; y < ny - 1; y++)
      for (let x = 1; x < nx - 1; x++) {
        const i = x + y * nx;
        if (ty[i] <= 0) continue;
        const mask = (ty[i - 1] === 0 ? X0 : 0) | (ty[i + 1] === 0 ? X1 : 0) | (ty[i - nx] === 0 ? Y0 : 0) | (ty[i + nx] === 0 ? Y1 : 0);
        if (mask === 0) continue;
        const x0 = u[i],
          x1 = u[i + 1],
          y0 = v[i],
          y1 = v[i + nx];
        switch (mask) {
          case X0:
          case X0 | Y0 | Y1:
            u[i] = x1 + y1 - y0;
            break;
          case X1:
          case X1 | Y0 | Y1:
            u[i + 1] = x0 + y0 - y1;
            break;
          case Y0:
          case Y0 | X0 | X1:
            v[i] = x1 - x0 + y1;
            break;
          case Y1:
          case Y1 | X0 | X1:
            v[i + nx] = x0 - x1 + y0;
            break;
          case X0 | Y0:
            u[i] = x1;
            v[i] = y1;
            break;
          case X0 | Y1:
            u[i] = x1;
            v[i + nx] = y0;
            break;
          case X1 | Y0:
            u[i + 1] = x0;
            v[i] = y1;
            break;
          case X1 | Y1:
            u[i + 1] = x0;
            v[i + nx] = y0;
            break;
          // opposite pairs and all four: unchanged
        }
      }
  }

  /** Semi-Lagrangian advection of the face velocities into temp. */
  stepAdvect(temp: Grid2D, dt: number): void {
    const { nx, ny } = this;
    const u = this.u0,
      v = this.u1;
    temp.u0.fill(0);
    temp.u1.fill(0);
    for (let y = 1; y < ny - 1; y++)
      for (let x = 1; x < nx - 1; x++) {
        const i = x + y * nx;
        // face x − ½: its own u, the mean of the four v around it
        const vx = 0.25 * (v[i] + v[i - 1] + v[i + nx] + v[i - 1 + nx]);
        temp.u0[i] = this.interp(0, x - 0.5 - dt * u[i], y - dt * vx);
        // face y − ½
        const uy = 0.25 * (u[i] + u[i - nx] + u[i + 1] + u[i + 1 - nx]);
        temp.u1[i] = this.interp(1, x - dt * uy, y - 0.5 - dt * v[i]);
      }
  }

  stepDiffuse(temp: Grid2D, diff: number): void {
    const { nx, ny } = this;
    if (diff === 0) {
      this.u0.set(temp.u0);
      this.u1.set(temp.u1);
      return;
    }
    const a = diff,
      inv = 1 / (1.0001 + 4 * a);
    for (const [dst, src] of [
      [this.u0, temp.u0],
      [this.u1, temp.u1],
    ] as const)
      for (let y = 1; y < ny - 1; y++)
        for (let x = 1; x < nx - 1; x++) {
          const i = x + y * nx;
          dst[i] = (src[i] + (src[i - 1] + src[i + 1] + src[i - nx] + src[i + nx]) * a) * inv;
        }
  }

  /** The discrete divergence of fluid cell i: u0(i+1) − u0(i) + u1(i+nx) − u1(i). */
  divergence(i: number): number {
    return this.u0[i + 1] - this.u0[i] + this.u1[i + this.nx] - this.u1[i];
  }

  stepProject(prev: Grid2D, dt: number): void {
    const { nx, ny, ncell } = this;
    const ty = this.type;
    const diag = this.s0,
      b = this.s1,
      r = this.s2,
      g = this.s3;
    const q = this.q;
    diag.fill(0);
    b.fill(0);
    r.fill(0);
    q.fill(0);
    const a = -1 / dt;
    let bNorm2 = 0;
    for (let y = 1; y < ny - 1; y++)
      for (let x = 1; x < nx - 1; x++) {
        const i = x + y * nx;
        if (ty[i] <= 0) continue;
        diag[i] = 4 - (ty[i - 1] < 0 ? 1 : 0) - (ty[i + 1] < 0 ? 1 : 0) - (ty[i - nx] < 0 ? 1 : 0) - (ty[i + nx] < 0 ? 1 : 0);
        const bi = a * this.divergence(i);
        b[i] = bi;
        bNorm2 += bi * bi;
      }
    const p = this.pressure;
    for (let i = 0; i < ncell; i++) p[i] = ty[i] > 0 ? prev.pressure[i] : 0;
    const applyA = (src: Float64Array, i: number) => diag[i] * src[i] - src[i - 1] - src[i - nx] - src[i + 1] - src[i + nx];
    for (let y = 1; y < ny - 1; y++)
      for (let x = 1; x < nx - 1; x++) {
        const i = x + y * nx;
        if (diag[i] !== 0) r[i] = b[i] - applyA(p, i);
      }
    g.set(r);
    const minErr = 0.0001 * bNorm2;
    let err = 0,
      step = 0;
    this.lastConverged = false;
    for (; step < 100; step++) {
      const errOld = err;
      err = 0;
      for (let y = 1; y < ny - 1; y++) for (let x = 1; x < nx - 1; x++) err += r[x + y * nx] ** 2;
      if (err <= minErr) {
        this.lastConverged = true;
        break;
      }
      if (step > 0) {
        const beta = err / errOld;
        for (let i = 0; i < ncell; i++) g[i] = g[i] * beta + r[i];
      }
      let gq = 0;
      for (let y = 1; y < ny - 1; y++)
        for (let x = 1; x < nx - 1; x++) {
          const i = x + y * nx;
          if (diag[i] !== 0) {
            const ag = applyA(g, i);
            q[i] = ag;
            gq += g[i] * ag;
          }
        }
      const alpha = err / gq;
      for (let i = 0; i < ncell; i++) {
        p[i] += alpha * g[i];
        r[i] -= alpha * q[i];
      }
    }
    this.lastIterations = step;
    // u −= dt ∇p on the faces between non-wall cells, clamped to ±0.5/dt
    const maxSpeed = 0.5 / dt;
    const clamp = (s: number) => (s > maxSpeed ? maxSpeed : s < -maxSpeed ? -maxSpeed : s);
    for (let y = 1; y < ny - 1; y++)
      for (let x = 1; x < nx - 1; x++) {
        const i = x + y * nx;
        if (ty[i] < 0) continue;
        if (ty[i - 1] >= 0) this.u0[i] = clamp(this.u0[i] - dt * (p[i] - p[i - 1]));
        if (ty[i - nx] >= 0) this.u1[i] = clamp(this.u1[i] - dt * (p[i] - p[i - nx]));
      }
  }
}

const X0 = 1,
  X1 = 2,
  Y0 = 4,
  Y1 = 8;
