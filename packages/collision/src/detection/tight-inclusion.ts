/**
 * Tight-Inclusion continuous collision detection (Wang, Ferguson, Schneider, Jiang, Attene, Panozzo,
 * "A Large-Scale Benchmark and an Inclusion-Based Algorithm for Continuous Collision Detection",
 * ACM TOG 40(5), 2021), written from the paper's equations.
 *
 * Four points move on straight lines over the step, x(t) = x⁰ + t·(x¹ − x⁰), t ∈ [0, t_max].
 *   vertex–face:  F(t, u, v) = p(t) − (a(t) + u·(b(t) − a(t)) + v·(c(t) − a(t))),  u, v ≥ 0, u + v ≤ 1
 *   edge–edge:    F(t, u, v) = a₀(t) + u·(a₁(t) − a₀(t)) − (b₀(t) + v·(b₁(t) − b₀(t))),  u, v ∈ [0, 1]
 * The primitives come within the minimum separation ms (in the ∞-norm, as in the paper) at some
 * time iff F has a root of |F|∞ ≤ ms in the domain. F is linear in each of t, u, v, so over a box
 * I = [t]×[u]×[v] its exact range per axis is spanned by its values at the box's 8 corners: that is
 * the (tightest) inclusion function B(I). A box can hold a root only when B(I) meets the ε-box
 * C = [−ms − ε, ms + ε]³, ε being the paper's bound on the floating-point error of F:
 *   ε_k = c·γ_k³,  γ_k = max(1, max |x_k| over the 8 input points),
 *   c = 6.661338147750939e-15 (vertex–face), 6.217248937900877e-15 (edge–edge); with ms > 0,
 *   7.549516567451064e-15 and 7.105427357601002e-15.
 *
 * Root finding (the paper's breadth-first inclusion bisection): boxes are taken level by level
 * (a level = a number of bisections), earliest t first within a level. A box whose B misses C is
 * dropped. The first box of a level that meets C is remembered; when it is small (each width within
 * its tolerance) or B ⊆ C, its lower time is the time of impact: every box still to examine starts
 * later, so the answer is conservative (never after the true earliest contact). Otherwise the box is
 * split in two along the variable whose width is the largest multiple of its tolerance (vertex–face:
 * halves with u_min + v_min > 1 lie outside the triangle and are dropped). The tolerances of t, u, v
 * turn the distance tolerance δ into parameter widths: δ/D_t, δ/D_u, δ/D_v with
 *   D_t = 3·max over the corners (u, v) of |F(1, u, v) − F(0, u, v)|∞,  D_u, D_v likewise along u, v.
 * After maxIterations boxes the answer is "collision" at the lower time of the current level's first
 * box (the conservative bound of the paper); maxIterations ≤ 0 means no limit.
 *
 * Inputs: 24 numbers, the 4 points at t = 0 (x, y, z each) then the same 4 points at t = 1; in the
 * order (p, a, b, c) for vertex–face, (a₀, a₁, b₀, b₁) for edge–edge. Storage is reused from query to
 * query (no allocation once the box pool has grown).
 */

const VF_FILTER = 6.661338147750939e-15;
const EE_FILTER = 6.217248937900877e-15;
const VF_FILTER_MS = 7.549516567451064e-15;
const EE_FILTER_MS = 7.105427357601002e-15;

/** Numbers per box in the pool: t_lo, t_hi, u_lo, u_hi, v_lo, v_hi, level. */
const BOX = 7;

export class TightInclusionCCD {
  /** Time of impact of the last query that found a collision (in [0, t_max]), else Infinity. */
  toi = Infinity;
  /** Width in t of the box the last time of impact came from (how far the true time may be later). */
  outputTolerance = 0;
  /** Boxes examined by the last query. */
  iterations = 0;
  /** Whether the last query stopped at maxIterations. */
  hitMaxIterations = false;

  private pool = new Float64Array(BOX * 64);
  private free = new Int32Array(64);
  private nFree = 0;
  private poolUsed = 0;
  private heap = new Int32Array(64);
  private heapSize = 0;
  private readonly eps = new Float64Array(3);
  private readonly tol = new Float64Array(3);
  private readonly range = new Float64Array(6);
  /** The 4 points at the two times of a box, per axis: [t_lo: P0..P3, t_hi: P0..P3] × 3 axes. */
  private readonly pts = new Float64Array(24);
  private vertexFace = true;
  private q: ArrayLike<number> = new Float64Array(24);

  /**
   * Vertex p against face (a, b, c): true when they come within ms before t_max (then toi is the
   * conservative earliest time).
   */
  vertexFaceCCD(q: ArrayLike<number>, ms: number, tolerance: number, tMax: number, maxIterations: number): boolean {
    return this.solve(q, true, ms, tolerance, tMax, maxIterations);
  }

  /** Edge (a₀, a₁) against edge (b₀, b₁): as vertexFaceCCD. */
  edgeEdgeCCD(q: ArrayLike<number>, ms: number, tolerance: number, tMax: number, maxIterations: number): boolean {
    return this.solve(q, false, ms, tolerance, tMax, maxIterations);
  }

  private solve(q: ArrayLike<number>, vf: boolean, ms: number, tolerance: number, tMax: number, maxIterations: number): boolean {
    this.q = q;
    this.vertexFace = vf;
    this.toi = Infinity;
    this.outputTolerance = 0;
    this.iterations = 0;
    this.hitMaxIterations = false;
    this.errorBound(ms > 0);
    this.tolerances(tolerance);
    const eps = this.eps,
      tol = this.tol,
      r = this.range;
    this.heapSize = 0;
    this.poolUsed = 0;
    this.nFree = 0;
    this.pushBox(0, tMax, 0, 1, 0, 1, 0);
    let n = 0;
    let level = -1;
    let firstTlo = 0,
      firstThi = 0;
    while (this.heapSize > 0) {
      const b = this.popBox();
      const pool = this.pool; // (grows while boxes are pushed)
      const o = BOX * b;
      n++;
      this.inclusion(pool[o], pool[o + 1], pool[o + 2], pool[o + 3], pool[o + 4], pool[o + 5]);
      let meets = true,
        inside = true;
      for (let k = 0; k < 3; k++) {
        const lim = ms + eps[k];
        const lo = r[k],
          hi = r[3 + k];
        if (lo > lim || hi < -lim) meets = false;
        if (lo < -lim || hi > lim) inside = false;
      }
      if (!meets) {
        this.release(b);
        continue;
      }
      const boxLevel = pool[o + 6];
      const first = boxLevel !== level;
      if (first) {
        level = boxLevel;
        firstTlo = pool[o];
        firstThi = pool[o + 1];
      }
      if (maxIterations > 0 && n >= maxIterations) {
        this.iterations = n;
        this.hitMaxIterations = true;
        this.toi = firstTlo;
        this.outputTolerance = firstThi - firstTlo;
        return true;
      }
      const wt = pool[o + 1] - pool[o],
        wu = pool[o + 3] - pool[o + 2],
        wv = pool[o + 5] - pool[o + 4];
      const small = wt <= tol[0] && wu <= tol[1] && wv <= tol[2];
      if (small || inside) {
        if (first) {
          this.iterations = n;
          this.toi = pool[o];
          this.outputTolerance = wt;
          return true;
        }
        // Not the earliest box of its level: examined again at the next level, unchanged.
        pool[o + 6] = boxLevel + 1;
        this.heapPush(b);
        continue;
      }
      this.split(b, wt / tol[0], wu / tol[1], wv / tol[2]);
    }
    this.iterations = n;
    return false;
  }

  /** ε per axis from the largest coordinate of the inputs (the paper's filters). */
  private errorBound(withMs: boolean): void {
    const q = this.q;
    const c = this.vertexFace ? (withMs ? VF_FILTER_MS : VF_FILTER) : withMs ? EE_FILTER_MS : EE_FILTER;
    for (let k = 0; k < 3; k++) {
      let m = 1;
      for (let i = 0; i < 8; i++) {
        const a = Math.abs(q[3 * i + k]);
        if (a > m) m = a;
      }
      this.eps[k] = c * m * m * m;
    }
  }

  /**
   * Tolerances of t, u, v: a box of these widths moves F by at most δ/3 per variable. D_t from the
   * displacement of F at the domain's corners, D_u and D_v from the lengths of the edges (b − a,
   * c − a for a face; a₁ − a₀, b₁ − b₀ for two edges) at both times; a variable F does not depend on
   * has an infinite tolerance.
   */
  private tolerances(delta: number): void {
    const q = this.q;
    let dt = 0,
      du = 0,
      dv = 0;
    for (let k = 0; k < 3; k++) {
      for (let s = 0; s < 2; s++) {
        const o = 12 * s + k;
        const p0 = q[o],
          p1 = q[o + 3],
          p2 = q[o + 6],
          p3 = q[o + 9];
        du = Math.max(du, Math.abs(this.vertexFace ? p2 - p1 : p1 - p0));
        dv = Math.max(dv, Math.abs(this.vertexFace ? p3 - p1 : p3 - p2));
      }
      // displacement of F at the 4 corners (u, v) ∈ {0, 1}²
      for (let cu = 0; cu < 2; cu++) {
        for (let cv = 0; cv < 2; cv++) {
          const f0 = this.corner(k, 0, cu, cv),
            f1 = this.corner(k, 12, cu, cv);
          dt = Math.max(dt, Math.abs(f1 - f0));
        }
      }
    }
    this.tol[0] = dt > 0 ? delta / (3 * dt) : Infinity;
    this.tol[1] = du > 0 ? delta / (3 * du) : Infinity;
    this.tol[2] = dv > 0 ? delta / (3 * dv) : Infinity;
  }

  /** F_k at the inputs' time `off` (0: start, 12: end) and corner (u, v). */
  private corner(k: number, off: number, u: number, v: number): number {
    const q = this.q;
    const p0 = q[off + k],
      p1 = q[off + 3 + k],
      p2 = q[off + 6 + k],
      p3 = q[off + 9 + k];
    return this.vertexFace ? p0 - (p1 + u * (p2 - p1) + v * (p3 - p1)) : p0 + u * (p1 - p0) - (p2 + v * (p3 - p2));
  }

  /** range = (min xyz, max xyz) of F over the box: its values at the 8 corners. */
  private inclusion(t0: number, t1: number, u0: number, u1: number, v0: number, v1: number): void {
    const q = this.q,
      pts = this.pts,
      r = this.range;
    for (let k = 0; k < 3; k++) {
      for (let i = 0; i < 4; i++) {
        const s = q[3 * i + k],
          e = q[12 + 3 * i + k];
        pts[8 * k + i] = s + t0 * (e - s);
        pts[8 * k + 4 + i] = s + t1 * (e - s);
      }
    }
    const vf = this.vertexFace;
    for (let k = 0; k < 3; k++) {
      let lo = Infinity,
        hi = -Infinity;
      for (let s = 0; s < 2; s++) {
        const o = 8 * k + 4 * s;
        const p0 = pts[o],
          p1 = pts[o + 1],
          p2 = pts[o + 2],
          p3 = pts[o + 3];
        for (let cu = 0; cu < 2; cu++) {
          const u = cu === 0 ? u0 : u1;
          for (let cv = 0; cv < 2; cv++) {
            const v = cv === 0 ? v0 : v1;
            const f = vf ? p0 - (p1 + u * (p2 - p1) + v * (p3 - p1)) : p0 + u * (p1 - p0) - (p2 + v * (p3 - p2));
            if (f < lo) lo = f;
            if (f > hi) hi = f;
          }
        }
      }
      r[k] = lo;
      r[3 + k] = hi;
    }
  }

  /** Bisects box b along the variable with the largest width/tolerance ratio (t first on ties). */
  private split(b: number, rt: number, ru: number, rv: number): void {
    const pool = this.pool;
    const o = BOX * b;
    const dim = rt >= ru && rt >= rv ? 0 : ru >= rv ? 1 : 2;
    const lo = pool[o + 2 * dim],
      hi = pool[o + 2 * dim + 1];
    const mid = 0.5 * (lo + hi);
    const level = pool[o + 6] + 1;
    const t0 = pool[o],
      t1 = pool[o + 1],
      u0 = pool[o + 2],
      u1 = pool[o + 3],
      v0 = pool[o + 4],
      v1 = pool[o + 5];
    this.release(b);
    if (dim === 0) {
      this.pushBox(t0, mid, u0, u1, v0, v1, level);
      this.pushBox(mid, t1, u0, u1, v0, v1, level);
    } else if (dim === 1) {
      this.pushBox(t0, t1, u0, mid, v0, v1, level);
      if (!this.vertexFace || mid + v0 <= 1) this.pushBox(t0, t1, mid, u1, v0, v1, level);
    } else {
      this.pushBox(t0, t1, u0, u1, v0, mid, level);
      if (!this.vertexFace || u0 + mid <= 1) this.pushBox(t0, t1, u0, u1, mid, v1, level);
    }
  }

  private pushBox(t0: number, t1: number, u0: number, u1: number, v0: number, v1: number, level: number): void {
    let b: number;
    if (this.nFree > 0) b = this.free[--this.nFree];
    else {
      b = this.poolUsed++;
      if (BOX * this.poolUsed > this.pool.length) {
        const p = new Float64Array(2 * this.pool.length);
        p.set(this.pool);
        this.pool = p;
      }
    }
    const p = this.pool,
      o = BOX * b;
    p[o] = t0;
    p[o + 1] = t1;
    p[o + 2] = u0;
    p[o + 3] = u1;
    p[o + 4] = v0;
    p[o + 5] = v1;
    p[o + 6] = level;
    this.heapPush(b);
  }

  private release(b: number): void {
    if (this.nFree === this.free.length) {
      const f = new Int32Array(2 * this.free.length);
      f.set(this.free);
      this.free = f;
    }
    this.free[this.nFree++] = b;
  }

  /** Heap order: lower level first, then earlier t_lo. */
  private before(a: number, b: number): boolean {
    const p = this.pool;
    const la = p[BOX * a + 6],
      lb = p[BOX * b + 6];
    if (la !== lb) return la < lb;
    return p[BOX * a] < p[BOX * b];
  }

  private heapPush(b: number): void {
    if (this.heapSize === this.heap.length) {
      const h = new Int32Array(2 * this.heap.length);
      h.set(this.heap);
      this.heap = h;
    }
    const h = this.heap;
    let i = this.heapSize++;
    h[i] = b;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(h[i], h[parent])) break;
      const tmp = h[i];
      h[i] = h[parent];
      h[parent] = tmp;
      i = parent;
    }
  }

  private popBox(): number {
    const h = this.heap;
    const top = h[0];
    const last = h[--this.heapSize];
    if (this.heapSize > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1,
          r = l + 1;
        let m = i;
        if (l < this.heapSize && this.before(h[l], h[m])) m = l;
        if (r < this.heapSize && this.before(h[r], h[m])) m = r;
        if (m === i) break;
        const tmp = h[i];
        h[i] = h[m];
        h[m] = tmp;
        i = m;
      }
    }
    return top;
  }
}
