/**
 * Dense convex quadratic programs, small and solved again every time step:
 *
 *   min ½ xᵀQx + cᵀx   s.t.   A_eq x = b_eq,   l ≤ A_in x ≤ u,   lb ≤ x ≤ ub
 *
 * Q (n × n) symmetric positive semi-definite; any entry of l, u, lb, ub may be ±Infinity; a row or
 * bound with equal finite ends is an equality.
 *
 * Method: a primal active-set method in null-space form (Nocedal & Wright, Numerical Optimization,
 * §16.5), chosen over ADMM because it ends on an exact vertex of the working set (KKT residuals at
 * round-off, no polish step), is finite, and restarts in one iteration from the previous time step's
 * working set. The working set's normals are kept as N = J [R; 0] (see {@link WorkingSetQR}); its
 * last n − q columns Z span the moves that keep working constraints active. Each iteration:
 *
 *   1. reduced Hessian H = ZᵀQZ, factorised by Cholesky with diagonal pivoting, which stops at the
 *      numerical rank r (pivot ≤ rankTolerance·max Q_ii). H = P [L₁₁; L₂₁][L₁₁; L₂₁]ᵀ Pᵀ + O(tol).
 *   2. reduced gradient z = Zᵀ(Qx + c). If H is singular, the null space of H is spanned by the columns
 *      of P [−L₁₁⁻ᵀL₂₁ᵀ; I]; the part of z in that null space is a direction of zero curvature:
 *      - if it is not zero, p = −Z·(projection of z on null H), a descent ray. The objective along it is
 *        linear (pᵀQp ≤ 10·rankTolerance·max Q_ii·‖p‖²; a larger leftover curvature, from round-off,
 *        stops the step at the exact minimiser along p); if no constraint blocks it, the problem is
 *        UNBOUNDED and p is returned as the ray. (A curvature that small but real is taken as zero.)
 *      - else the Newton step p = Z v, H v = −z (any solution; the null coordinates are set to 0).
 *   3. ratio test over the constraints outside the working set; the first blocking one joins it.
 *   4. at a minimiser of the working set (full Newton step), x is first moved back onto the working
 *      constraints (x += J₁R⁻ᵀ(β − Nᵀx), removing the round-off drift of long steps), then the
 *      multipliers R λ = J₁ᵀ g; if every
 *      inequality multiplier has the right sign the point is OPTIMAL, else the most negative one
 *      (scaled by its normal's length) leaves. After a run of zero-length steps the choices switch to
 *      Bland's smallest-index rule, which stops cycling at degenerate vertices.
 *
 * The starting point comes from one of:
 *   - warm start: the previous working set (or one the caller wrote into activeIn/activeBound) and x.
 *     x is moved to the nearest point of the working set's affine set, the working set's minimiser is
 *     computed, and if it is feasible the solve starts there (typically ending after that one
 *     factorisation, when the active set did not change between time steps).
 *   - otherwise (or if that minimiser is infeasible), phase 1: Goldfarb & Idnani's dual method
 *     (Math. Programming 27, 1983) applied to the projection problem min ½‖x − x̂‖² under all the
 *     constraints (x̂ = previous x, the failed warm minimiser, or 0). With Q = I, their J and R are the
 *     same QR of the active normals, so phase 2 starts from phase 1's active set without refactorising.
 *     The dual method detects INFEASIBLE cleanly: a violated constraint that can be reached neither by
 *     a primal step nor by dropping active constraints.
 *
 * Sign convention of the multipliers (the one OSQP uses):
 *   Qx + c + A_eqᵀ y_eq + A_inᵀ y_in + y_bound = 0,
 * y_in[i] ≥ 0 when row i is at its upper end, ≤ 0 at its lower end, 0 when inactive (same for y_bound);
 * y_eq has either sign.
 *
 * Cost: from phase 2 on, M = JᵀQJ is kept up to date by the same rotations as J (O(n) each), so
 * the reduced Hessian is M's trailing block and an iteration costs O(n²) plus the (n−q)³/3 of its
 * factorisation; a warm start that ends at once forms ZᵀQZ directly instead.
 *
 * A Q that is not positive semi-definite (a reduced-Hessian Schur complement with entries beyond
 * 1e-6·max Q_ii once the pivots run out) ends the solve with status 'non-convex'.
 *
 * No allocation per solve: the solver is built for one shape (n, m_eq, m_in) and owns every buffer;
 * results are fields of the solver, overwritten by the next solve. (V8 may still box a few doubles:
 * measured ≈ 60 bytes of short-lived garbage per warm solve at n = 40.)
 *
 * Long file: one algorithm whose phases share the solver's buffers and working set (phase 1's dual
 * steps hand their QR to phase 2); the QR of the working set is already apart (working-set-qr.ts).
 */
import { WorkingSetQR } from './working-set-qr.js';

/** How a solve ended. */
export type DenseQpStatus = 'optimal' | 'infeasible' | 'unbounded' | 'iteration-limit' | 'non-convex';

/** Problem data; read during a solve, never written. Row-major matrices. */
export interface DenseQpProblem {
  /** (n × n) symmetric positive semi-definite; both triangles are read. */
  readonly Q: Float64Array;
  /** (n) linear cost. */
  readonly c: Float64Array;
  /** (m_eq × n) equality rows; required when m_eq > 0. */
  readonly Aeq?: Float64Array;
  /** (m_eq) equality right-hand sides. */
  readonly beq?: Float64Array;
  /** (m_in × n) inequality rows; required when m_in > 0. */
  readonly Ain?: Float64Array;
  /** (m_in) lower ends of the inequality rows (−Infinity: none); omitted = all −Infinity. */
  readonly lin?: Float64Array;
  /** (m_in) upper ends of the inequality rows (+Infinity: none); omitted = all +Infinity. */
  readonly uin?: Float64Array;
  /** (n) lower bounds on x; omitted = −Infinity. */
  readonly lb?: Float64Array;
  /** (n) upper bounds on x; omitted = +Infinity. */
  readonly ub?: Float64Array;
}

// Constraint kinds.
const FREE = 0; // both ends infinite: never active
const INEQ = 1;
const EQ = 2;
// Working-set membership (side[k]); also the public activeIn/activeBound codes.
const OUT = 0;
const LOWER = -1; // n_k = +a_k, a_kᵀx ≥ l_k active
const UPPER = 1; // n_k = −a_k, −a_kᵀx ≥ −u_k active
const EQUAL = 2; // equality in the working set, n_k = +a_k, multiplier of either sign

// Step kinds.
const NEWTON = 0;
const RAY = 1;
const NONCONVEX = 2;

/** |n_kᵀp| below this fraction of ‖n_k‖‖p‖ counts as parallel (the constraint cannot block p). */
const SLOPE_TOL = 1e-11;
/** A normal whose part outside the working normals' span is below this fraction of its length is dependent. */
const DEPENDENCE_TOL = 1e-12;
/** Zero-length steps in a row before switching to Bland's rule. */
const BLAND_AFTER = 4;

export class DenseQpSolver {
  /** Number of variables. */
  readonly n: number;
  /** Number of equality rows. */
  readonly meq: number;
  /** Number of inequality rows. */
  readonly mIn: number;

  // ---- options (may be changed between solves) ----
  /** Allowed violation of a constraint: feasibilityTolerance·(1 + |bound|). */
  feasibilityTolerance = 1e-10;
  /** Multiplier sign and reduced-gradient threshold, relative to 1 + ‖Qx + c‖∞. */
  optimalityTolerance = 1e-10;
  /** Reduced-Hessian pivots below rankTolerance·max Q_ii count as zero curvature. */
  rankTolerance = 1e-10;
  /** Iteration cap (phase 1 and 2 together). */
  maxIterations: number;

  // ---- results of the last solve ----
  status: DenseQpStatus = 'optimal';
  /** (n) solution (or last iterate); read as the starting point by a warm start. */
  readonly x: Float64Array;
  /** (m_eq) multipliers of the equality rows. */
  readonly yEq: Float64Array;
  /** (m_in) multipliers of the inequality rows. */
  readonly yIn: Float64Array;
  /** (n) multipliers of the bounds. */
  readonly yBound: Float64Array;
  /** (n) when status is 'unbounded': a unit direction along which the objective decreases without end. */
  readonly ray: Float64Array;
  /** ½xᵀQx + cᵀx at x. */
  objective = 0;
  /** Iterations of the last solve (phase 1 + phase 2; a warm start's first factorisation counts as one). */
  iterations = 0;
  /** Of which phase 1 (dual method, feasibility). */
  phase1Iterations = 0;
  /** (m_in) working set of the rows after the solve: −1 lower end, +1 upper end, 2 equality, 0 inactive. A warm start reads it. */
  readonly activeIn: Int8Array;
  /** (n) same for the bounds. */
  readonly activeBound: Int8Array;

  // ---- constraint table: k ∈ [0, meq) equality rows, [meq, meq+mIn) inequality rows, then the n bounds ----
  private readonly m: number;
  private readonly lo: Float64Array; // (m)
  private readonly hi: Float64Array; // (m)
  private readonly nrm: Float64Array; // (m) ‖a_k‖
  private readonly kind: Uint8Array; // (m)
  private readonly side: Int8Array; // (m) working-set membership
  private readonly warmSide: Int8Array; // (m) copy of side taken at the start of a warm solve
  private readonly ax: Float64Array; // (m) a_kᵀx
  private readonly ap: Float64Array; // (m) a_kᵀp
  private readonly qr: WorkingSetQR;
  private readonly ws: Int32Array; // (n) constraint id of each working-set column
  private readonly lam: Float64Array; // (n) multipliers in working-set order (oriented: g = Σ λ n_k)
  private Q!: Float64Array;
  private c!: Float64Array;
  private Aeq: Float64Array | undefined;
  private Ain: Float64Array | undefined;
  private qScale = 0; // max Q_ii
  private rank = 0;
  private factorValid = false;

  // ---- scratch ----
  private readonly g: Float64Array; // (n) Qx + c
  private readonly p: Float64Array; // (n) step
  private readonly qp: Float64Array; // (n) Q p
  private readonly tmp: Float64Array; // (n)
  private readonly zr: Float64Array; // (n) reduced gradient, pivoted order
  private readonly dr: Float64Array; // (n) reduced step, Z coordinates
  private readonly w: Float64Array; // (n)
  private readonly s: Float64Array; // (n)
  private readonly QZ: Float64Array; // (n × n) Q·Z, columns 0..nz
  private readonly H: Float64Array; // (n × n) ZᵀQZ, then its pivoted Cholesky factor
  private readonly T: Float64Array; // (n × n) L₁₁⁻ᵀL₂₁ᵀ (r × k)
  private readonly G: Float64Array; // (n × n) I + TᵀT (k × k), then its Cholesky factor
  private readonly piv: Int32Array; // (n) pivot order of H

  constructor(n: number, meq = 0, mIn = 0) {
    if (!(n >= 1) || !(meq >= 0) || !(mIn >= 0))
      throw new Error(`DenseQpSolver: expected n ≥ 1, meq ≥ 0, mIn ≥ 0, got ${n}, ${meq}, ${mIn}`);
    this.n = n;
    this.meq = meq;
    this.mIn = mIn;
    const m = (this.m = meq + mIn + n);
    this.maxIterations = 100 + 10 * (n + m);
    this.x = new Float64Array(n);
    this.yEq = new Float64Array(meq);
    this.yIn = new Float64Array(mIn);
    this.yBound = new Float64Array(n);
    this.ray = new Float64Array(n);
    this.lo = new Float64Array(m);
    this.hi = new Float64Array(m);
    this.nrm = new Float64Array(m);
    this.kind = new Uint8Array(m);
    this.side = new Int8Array(m);
    this.warmSide = new Int8Array(m);
    this.activeIn = this.side.subarray(meq, meq + mIn);
    this.activeBound = this.side.subarray(meq + mIn);
    this.ax = new Float64Array(m);
    this.ap = new Float64Array(m);
    this.qr = new WorkingSetQR(n);
    this.ws = new Int32Array(n);
    this.lam = new Float64Array(n);
    this.g = new Float64Array(n);
    this.p = new Float64Array(n);
    this.qp = new Float64Array(n);
    this.tmp = new Float64Array(n);
    this.zr = new Float64Array(n);
    this.dr = new Float64Array(n);
    this.w = new Float64Array(n);
    this.s = new Float64Array(n);
    this.QZ = new Float64Array(n * n);
    this.H = new Float64Array(n * n);
    this.T = new Float64Array(n * n);
    this.G = new Float64Array(n * n);
    this.piv = new Int32Array(n);
  }

  /**
   * Solves `problem`. With `warmStart`, starts from this solver's x and working set (those of the
   * previous solve, or values the caller wrote into x / activeIn / activeBound). Returns the status;
   * the solution and multipliers are in this object's fields.
   */
  solve(problem: DenseQpProblem, warmStart = false): DenseQpStatus {
    this.load(problem);
    this.iterations = 0;
    this.phase1Iterations = 0;
    this.yEq.fill(0);
    this.yIn.fill(0);
    this.yBound.fill(0);
    this.ray.fill(0);
    const { m, lo, hi, side, warmSide, x } = this;
    const warm = warmStart; // a fresh solver starts from the x and working set its caller wrote (zero: x = 0, none)
    if (warm) warmSide.set(side);
    side.fill(OUT);
    for (let k = 0; k < m; k++) {
      if (lo[k] > hi[k] + this.tol(lo[k])) return this.finish('infeasible');
    }
    if (!warm) x.fill(0);
    let atMinimiser = false;
    if (warm) {
      const r = this.crash();
      if (r === NONCONVEX) return this.finish('non-convex');
      atMinimiser = r === NEWTON;
    }
    if (!atMinimiser) {
      const st = this.phaseOne();
      if (st !== 'optimal') return this.finish(st);
    }
    return this.finish(this.phaseTwo(atMinimiser));
  }

  // ------------------------------------------------------------------------------------------
  // Problem data

  private load(pb: DenseQpProblem): void {
    const { n, meq, mIn, lo, hi, nrm, kind } = this;
    checkLength(this, pb.Q, n * n, 'Q');
    checkLength(this, pb.c, n, 'c');
    checkLength(this, pb.Aeq, meq * n, 'Aeq');
    checkLength(this, pb.beq, meq, 'beq');
    checkLength(this, pb.Ain, mIn * n, 'Ain');
    if (pb.lin) checkLength(this, pb.lin, mIn, 'lin');
    if (pb.uin) checkLength(this, pb.uin, mIn, 'uin');
    if (pb.lb) checkLength(this, pb.lb, n, 'lb');
    if (pb.ub) checkLength(this, pb.ub, n, 'ub');
    this.Q = pb.Q;
    this.c = pb.c;
    this.Aeq = pb.Aeq;
    this.Ain = pb.Ain;
    let qs = 0;
    for (let i = 0; i < n; i++) qs = Math.max(qs, Math.abs(pb.Q[i * n + i]));
    this.qScale = qs;
    for (let k = 0; k < meq; k++) {
      lo[k] = hi[k] = pb.beq![k];
      nrm[k] = rowNorm(pb.Aeq!, k, n);
    }
    for (let i = 0; i < mIn; i++) {
      const k = meq + i;
      lo[k] = pb.lin ? pb.lin[i] : -Infinity;
      hi[k] = pb.uin ? pb.uin[i] : Infinity;
      nrm[k] = rowNorm(pb.Ain!, i, n);
    }
    for (let j = 0; j < n; j++) {
      const k = meq + mIn + j;
      lo[k] = pb.lb ? pb.lb[j] : -Infinity;
      hi[k] = pb.ub ? pb.ub[j] : Infinity;
      nrm[k] = 1;
    }
    for (let k = 0; k < this.m; k++) {
      kind[k] = lo[k] === hi[k] ? EQ : lo[k] === -Infinity && hi[k] === Infinity ? FREE : INEQ;
      if (nrm[k] === 0) nrm[k] = 1;
    }
  }

  /** Allowed violation of a constraint whose bound is b. */
  private tol(b: number): number {
    return this.feasibilityTolerance * (1 + (Number.isFinite(b) ? Math.abs(b) : 0));
  }

  /** a_kᵀv (unoriented). */
  private dot(k: number, v: Float64Array): number {
    const { n, meq, mIn } = this;
    if (k >= meq + mIn) return v[k - meq - mIn];
    const A = k < meq ? this.Aeq! : this.Ain!;
    const o = (k < meq ? k : k - meq) * n;
    let s = 0;
    for (let i = 0; i < n; i++) s += A[o + i] * v[i];
    return s;
  }

  /** out[k] = a_kᵀv for every constraint. */
  private dotAll(out: Float64Array, v: Float64Array): void {
    for (let k = 0; k < this.m; k++) out[k] = this.dot(k, v);
  }

  /** qr.d = Jᵀ(σ a_k); returns the squared length of its part outside the working normals' span. */
  private project(k: number, sigma: number): number {
    const { meq, mIn } = this;
    if (k >= meq + mIn) this.qr.projectUnit(k - meq - mIn, sigma);
    else if (k < meq) this.qr.projectRow(this.Aeq!, k, sigma);
    else this.qr.projectRow(this.Ain!, k - meq, sigma);
    return this.qr.tail2;
  }

  /** True when the projected normal's tail (squared length t2) is numerically zero. */
  private dependent(k: number, t2: number): boolean {
    const e = DEPENDENCE_TOL * this.nrm[k];
    return t2 <= e * e;
  }

  /** Appends constraint k (already projected) to the working set with membership `sd`. */
  private appendWorking(k: number, sd: number, multiplier: number): void {
    const q = this.qr.q;
    this.qr.append();
    this.ws[q] = k;
    this.lam[q] = multiplier;
    this.side[k] = sd;
    this.factorValid = false;
  }

  /** Removes working-set column j. */
  private removeWorking(j: number): void {
    const { ws, lam } = this;
    const q = this.qr.q;
    this.side[ws[j]] = OUT;
    this.qr.remove(j);
    for (let i = j; i < q - 1; i++) {
      ws[i] = ws[i + 1];
      lam[i] = lam[i + 1];
    }
    this.factorValid = false;
  }

  /** g = Qx + c. */
  private gradient(): void {
    const { n, Q, c, x, g } = this;
    for (let i = 0; i < n; i++) {
      const o = i * n;
      let s = c[i];
      for (let j = 0; j < n; j++) s += Q[o + j] * x[j];
      g[i] = s;
    }
  }

  /** Moves x by the smallest change that satisfies the projected constraint k (σ a_kᵀx = β), within the working set's affine set. */
  private moveOnto(k: number, sigma: number, beta: number, t2: number): void {
    const { n, x, tmp } = this;
    const t = (beta - sigma * this.dot(k, x)) / t2;
    this.qr.nullComponent(tmp);
    for (let i = 0; i < n; i++) x[i] += t * tmp[i];
  }

  // ------------------------------------------------------------------------------------------
  // Warm start

  /**
   * Rebuilds the previous working set (independent normals only), moves x to the nearest point
   * where they all hold, and takes the working set's minimiser if it is feasible (NEWTON: phase 2
   * starts there). Otherwise leaves x at that minimiser (or at the projected point when the
   * working set has a descent ray) as phase 1's target and returns RAY.
   */
  private crash(): number {
    const { m, kind, warmSide, lo, hi, qr, x, p, n, meq, mIn } = this;
    qr.reset();
    // Equalities, then bounds (cheap while J is still a permutation), then rows.
    for (let t = 0; t < m; t++) {
      const k = t < meq ? t : t < meq + n ? t + mIn : t - n;
      let sd = OUT;
      if (kind[k] === EQ) sd = EQUAL;
      else if (kind[k] === INEQ) {
        const w = warmSide[k];
        if (w === LOWER && lo[k] > -Infinity) sd = LOWER;
        else if (w === UPPER && hi[k] < Infinity) sd = UPPER;
      }
      if (sd === OUT || qr.q === n) continue;
      const sigma = sd === UPPER ? -1 : 1;
      const t2 = this.project(k, sigma);
      if (this.dependent(k, t2)) continue;
      this.moveOnto(k, sigma, sd === UPPER ? -hi[k] : lo[k], t2);
      this.appendWorking(k, sd, 0);
    }
    this.iterations++;
    this.factorReduced();
    if (this.rank < 0) return NONCONVEX;
    this.gradient();
    if (this.reducedStep() !== NEWTON) return RAY;
    for (let i = 0; i < n; i++) x[i] += p[i];
    for (let k = 0; k < m; k++) {
      if (kind[k] === FREE) continue;
      const v = this.dot(k, x);
      if (v < lo[k] - this.tol(lo[k]) || v > hi[k] + this.tol(hi[k])) return RAY;
    }
    return NEWTON;
  }

  // ------------------------------------------------------------------------------------------
  // Phase 1: Goldfarb–Idnani dual method on min ½‖x − x̂‖², x̂ = x on entry

  private phaseOne(): DenseQpStatus {
    const { m, n, kind, lo, hi, side, qr, x, lam, ws, tmp, w } = this;
    qr.reset();
    side.fill(OUT);
    this.factorValid = false;
    // Equalities first: each one a full primal step (its multiplier is free, never dropped).
    for (let k = 0; k < m; k++) {
      if (kind[k] !== EQ) continue;
      const t2 = this.project(k, 1);
      if (this.dependent(k, t2)) {
        if (Math.abs(this.dot(k, x) - lo[k]) > this.tol(lo[k])) return 'infeasible';
        continue; // redundant: implied by the equalities already in
      }
      this.moveOnto(k, 1, lo[k], t2);
      this.appendWorking(k, EQUAL, 0);
    }
    for (;;) {
      // The most violated inequality (distance to its half-space).
      let best = -1,
        bestSigma = 0,
        bestViol = 0;
      for (let k = 0; k < m; k++) {
        if (kind[k] !== INEQ || side[k] !== OUT) continue;
        const v = this.dot(k, x);
        const dl = lo[k] - v;
        if (dl > this.tol(lo[k]) && dl / this.nrm[k] > bestViol) {
          best = k;
          bestSigma = 1;
          bestViol = dl / this.nrm[k];
        }
        const du = v - hi[k];
        if (du > this.tol(hi[k]) && du / this.nrm[k] > bestViol) {
          best = k;
          bestSigma = -1;
          bestViol = du / this.nrm[k];
        }
      }
      if (best < 0) return 'optimal';
      const beta = bestSigma > 0 ? lo[best] : -hi[best];
      let uPlus = 0;
      for (;;) {
        if (this.iterations >= this.maxIterations) return 'iteration-limit';
        this.iterations++;
        this.phase1Iterations++;
        // Primal direction z = Z Zᵀ n⁺ (tmp), dual direction r = R⁻¹ J₁ᵀ n⁺ (w).
        const t2 = this.project(best, bestSigma);
        const dep = this.dependent(best, t2);
        const q = qr.q;
        qr.solveR(w, qr.d);
        // Partial step: the first active inequality whose multiplier reaches zero.
        let t1 = Infinity,
          drop = -1;
        for (let j = 0; j < q; j++) {
          if (side[ws[j]] === EQUAL || !(w[j] > 0)) continue;
          const t = lam[j] / w[j];
          if (t < t1) {
            t1 = t;
            drop = j;
          }
        }
        // Full step: the violated constraint becomes active.
        const slack = bestSigma * this.dot(best, x) - beta;
        const tFull = dep ? Infinity : -slack / t2;
        const t = Math.min(t1, tFull);
        if (t === Infinity) return 'infeasible';
        for (let j = 0; j < q; j++) lam[j] -= t * w[j];
        uPlus += t;
        if (!dep) {
          qr.nullComponent(tmp);
          for (let i = 0; i < n; i++) x[i] += t * tmp[i];
        }
        if (tFull <= t1) {
          this.appendWorking(best, bestSigma > 0 ? LOWER : UPPER, uPlus);
          break;
        }
        this.removeWorking(drop);
      }
    }
  }

  // ------------------------------------------------------------------------------------------
  // Phase 2: primal active set

  private phaseTwo(atMinimiser: boolean): DenseQpStatus {
    const { n, x, p, g, qp, lam, ws, side, ax, ap, nrm, tmp, qr, Q } = this;
    let degenerate = 0;
    // Unless the warm start ends at once, keep JᵀQJ up to date from here on (the reduced Hessian
    // then costs a copy instead of a product per iteration).
    if (!atMinimiser) qr.track(Q);
    for (;;) {
      this.gradient();
      if (!atMinimiser) {
        if (this.iterations >= this.maxIterations) return 'iteration-limit';
        this.iterations++;
        if (!this.factorValid) {
          this.factorReduced();
          if (this.rank < 0) return 'non-convex';
        }
        const kindOfStep = this.reducedStep();
        this.dotAll(ax, x);
        this.dotAll(ap, p);
        let alphaMax = 1;
        if (kindOfStep === RAY) {
          // Curvature along p is zero up to the rank tolerance; if what is left is more than
          // round-off, stop at the exact minimiser along p instead of treating it as a ray.
          let curv = 0,
            slope = 0,
            pp = 0;
          for (let i = 0; i < n; i++) {
            const o = i * n;
            let s = 0;
            for (let j = 0; j < n; j++) s += Q[o + j] * p[j];
            qp[i] = s;
          }
          for (let i = 0; i < n; i++) {
            curv += p[i] * qp[i];
            slope += p[i] * g[i];
            pp += p[i] * p[i];
          }
          alphaMax = curv > 10 * this.rankTolerance * this.qScale * pp ? -slope / curv : Infinity;
        }
        const blocking = this.ratioTest(alphaMax, degenerate > BLAND_AFTER);
        const alpha = blocking >= 0 ? this.alpha : alphaMax;
        if (alpha === Infinity) {
          let pn = 0;
          for (let i = 0; i < n; i++) pn += p[i] * p[i];
          pn = Math.sqrt(pn);
          for (let i = 0; i < n; i++) this.ray[i] = p[i] / pn;
          return 'unbounded';
        }
        for (let i = 0; i < n; i++) x[i] += alpha * p[i];
        if (blocking >= 0) {
          degenerate = alpha === 0 ? degenerate + 1 : 0;
          const sd = this.blockingSide;
          const t2 = this.project(blocking, sd === UPPER ? -1 : 1);
          if (!this.dependent(blocking, t2)) this.appendWorking(blocking, sd, 0);
          continue;
        }
        degenerate = 0;
        if (kindOfStep === RAY) continue; // line-search minimum inside the feasible set; same working set
      }
      atMinimiser = false;
      this.snapToWorkingSet();
      this.gradient();
      // Multipliers of the working set: R λ = J₁ᵀ g.
      const q = qr.q;
      qr.rangeCoordinates(tmp, g);
      qr.solveR(lam, tmp);
      let gmax = 0;
      for (let i = 0; i < n; i++) gmax = Math.max(gmax, Math.abs(g[i]));
      const thr = -this.optimalityTolerance * (1 + gmax);
      const bland = degenerate > BLAND_AFTER;
      let drop = -1,
        worst = thr;
      for (let j = 0; j < q; j++) {
        const k = ws[j];
        if (side[k] === EQUAL) continue;
        const sc = lam[j] * nrm[k];
        if (bland) {
          if (sc < thr && (drop < 0 || k < ws[drop])) drop = j;
        } else if (sc < worst) {
          worst = sc;
          drop = j;
        }
      }
      if (drop < 0) {
        this.writeMultipliers();
        return 'optimal';
      }
      if (!qr.tracking) qr.track(Q);
      this.removeWorking(drop);
    }
  }

  private alpha = 0;
  private blockingSide = OUT;

  /**
   * Longest step α ≤ alphaMax along p keeping every constraint outside the working set feasible.
   * Returns the blocking constraint (α in this.alpha, its side in this.blockingSide) or −1 when
   * alphaMax is reached first. Ties go to the constraint most inclined to p (best conditioned), or
   * to the smallest index under Bland's rule.
   */
  private ratioTest(alphaMax: number, bland: boolean): number {
    const { m, kind, side, lo, hi, ax, ap, nrm, p, n } = this;
    let pn = 0;
    for (let i = 0; i < n; i++) pn += p[i] * p[i];
    pn = Math.sqrt(pn);
    let best = alphaMax,
      blk = -1,
      bestSlope = 0,
      blkSide = OUT;
    for (let k = 0; k < m; k++) {
      if (kind[k] !== INEQ || side[k] !== OUT) continue;
      const s = ap[k];
      const thr = SLOPE_TOL * nrm[k] * pn;
      let a: number, sd: number;
      if (s < -thr && lo[k] > -Infinity) {
        a = Math.max(0, (ax[k] - lo[k]) / -s);
        sd = LOWER;
      } else if (s > thr && hi[k] < Infinity) {
        a = Math.max(0, (hi[k] - ax[k]) / s);
        sd = UPPER;
      } else continue;
      if (a >= alphaMax) continue;
      const ns = Math.abs(s) / nrm[k];
      const tie = 1e-12 * (1 + a);
      if (blk < 0 || a < best - tie || (!bland && a <= best + tie && ns > bestSlope)) {
        if (a < best) best = a;
        blk = k;
        bestSlope = ns;
        blkSide = sd;
      }
    }
    this.alpha = best;
    this.blockingSide = blkSide;
    return blk;
  }

  /**
   * H = ZᵀQZ with Z = J(:, q..n), then Cholesky with diagonal pivoting in place (full symmetric
   * storage so rows and columns can be swapped), stopping at the first pivot below the rank
   * tolerance. Sets this.rank, or −1 when what is left is not (numerically) positive semi-definite.
   */
  private factorReduced(): void {
    const { n, H } = this;
    const q = this.qr.q;
    const nz = n - q;
    if (this.qr.tracking) {
      // H = trailing block of M = JᵀQJ, kept by the QR's rotations.
      const M = this.qr.M;
      for (let a = 0; a < nz; a++) {
        const om = (q + a) * n + q,
          oh = a * n;
        for (let b = 0; b < nz; b++) H[oh + b] = M[om + b];
      }
    } else this.reducedHessianDirect(nz, q);
    this.factorPivoted(nz);
  }

  /** H = ZᵀQZ by products, O(n² (n − q)): for a working set built once (warm start). */
  private reducedHessianDirect(nz: number, q: number): void {
    const { n, Q, QZ, H } = this;
    const J = this.qr.J;
    // QZ(i, a) = Σ_j Q(i, j) Z(j, a)
    for (let i = 0; i < n; i++) {
      const oi = i * n;
      for (let a = 0; a < nz; a++) QZ[oi + a] = 0;
      for (let j = 0; j < n; j++) {
        const qij = Q[oi + j];
        if (qij === 0) continue;
        const oj = j * n + q;
        for (let a = 0; a < nz; a++) QZ[oi + a] += qij * J[oj + a];
      }
    }
    // H(a, b) = Σ_i Z(i, a) QZ(i, b), symmetric
    for (let a = 0; a < nz; a++) for (let b = a; b < nz; b++) H[a * n + b] = 0;
    for (let i = 0; i < n; i++) {
      const oz = i * n + q,
        oq = i * n;
      for (let a = 0; a < nz; a++) {
        const za = J[oz + a];
        if (za === 0) continue;
        const oh = a * n;
        for (let b = a; b < nz; b++) H[oh + b] += za * QZ[oq + b];
      }
    }
    for (let a = 0; a < nz; a++) for (let b = a + 1; b < nz; b++) H[b * n + a] = H[a * n + b];
  }

  /** Pivoted Cholesky of H (nz × nz) in place; sets rank (−1: not positive semi-definite). */
  private factorPivoted(nz: number): void {
    const { n, H, piv } = this;
    for (let a = 0; a < nz; a++) piv[a] = a;
    const tol = this.rankTolerance * this.qScale;
    let r = 0;
    for (; r < nz; r++) {
      let pk = r,
        dmax = H[r * n + r];
      for (let i = r + 1; i < nz; i++) {
        if (H[i * n + i] > dmax) {
          dmax = H[i * n + i];
          pk = i;
        }
      }
      if (!(dmax > tol)) break;
      if (pk !== r) {
        for (let j = 0; j < nz; j++) swap(H, r * n + j, pk * n + j);
        for (let i = 0; i < nz; i++) swap(H, i * n + r, i * n + pk);
        const t = piv[r];
        piv[r] = piv[pk];
        piv[pk] = t;
      }
      const lrr = Math.sqrt(dmax);
      H[r * n + r] = lrr;
      for (let i = r + 1; i < nz; i++) H[i * n + r] /= lrr;
      for (let i = r + 1; i < nz; i++) {
        const lir = H[i * n + r];
        if (lir === 0) continue;
        for (let j = r + 1; j <= i; j++) H[i * n + j] -= lir * H[j * n + r];
      }
      for (let i = r + 1; i < nz; i++) for (let j = i + 1; j < nz; j++) H[i * n + j] = H[j * n + i];
    }
    // What is left (Schur complement) must be ≈ 0 for a positive semi-definite Q.
    const big = 1e-6 * Math.max(this.qScale, 1e-300);
    for (let i = r; i < nz; i++) {
      for (let j = r; j < nz; j++) {
        if (Math.abs(H[i * n + j]) > big) {
          this.rank = -1;
          return;
        }
      }
    }
    this.rank = r;
    this.factorValid = true;
  }

  /**
   * The step p on the working set from the factorised reduced Hessian and the gradient g:
   * a descent ray of zero curvature (RAY) when the reduced gradient has a part in H's null space,
   * else the Newton step to the working set's minimiser (NEWTON).
   */
  private reducedStep(): number {
    const { n, g, p, zr, dr, w, s, H, T, G, piv } = this;
    const J = this.qr.J;
    const q = this.qr.q;
    const nz = n - q;
    const r = this.rank;
    const k = nz - r;
    // zr (pivoted) = Zᵀ g
    for (let a = 0; a < nz; a++) zr[a] = 0;
    for (let i = 0; i < n; i++) {
      const gi = g[i];
      if (gi === 0) continue;
      const o = i * n + q;
      for (let a = 0; a < nz; a++) zr[a] += J[o + a] * gi;
    }
    for (let a = 0; a < nz; a++) w[a] = zr[a];
    for (let a = 0; a < nz; a++) zr[a] = w[piv[a]];
    let kindOfStep = NEWTON;
    if (k > 0) {
      // T = L₁₁⁻ᵀ L₂₁ᵀ (r × k), column by column; w = N ᵀ zr = zr₂ − Tᵀ zr₁.
      let gmax = 0;
      for (let i = 0; i < n; i++) gmax = Math.max(gmax, Math.abs(g[i]));
      let wmax = 0;
      for (let t = 0; t < k; t++) {
        for (let i = r - 1; i >= 0; i--) {
          let v = H[(r + t) * n + i];
          for (let j = i + 1; j < r; j++) v -= H[j * n + i] * T[j * n + t];
          T[i * n + t] = v / H[i * n + i];
        }
        let v = zr[r + t];
        for (let i = 0; i < r; i++) v -= T[i * n + t] * zr[i];
        w[t] = v;
        wmax = Math.max(wmax, Math.abs(v));
      }
      if (wmax > this.optimalityTolerance * (1 + gmax)) {
        // G = I + TᵀT, s = G⁻¹ w; the direction −(projection of zr on null H) = [T s; −s] (pivoted).
        for (let t = 0; t < k; t++) {
          for (let u = 0; u <= t; u++) {
            let v = t === u ? 1 : 0;
            for (let i = 0; i < r; i++) v += T[i * n + t] * T[i * n + u];
            G[t * n + u] = v;
          }
        }
        choleskyInPlace(G, n, k);
        choleskySolveInPlace(s, G, n, k, w);
        for (let i = 0; i < r; i++) {
          let v = 0;
          for (let t = 0; t < k; t++) v += T[i * n + t] * s[t];
          dr[piv[i]] = v;
        }
        for (let t = 0; t < k; t++) dr[piv[r + t]] = -s[t];
        kindOfStep = RAY;
      }
    }
    if (kindOfStep === NEWTON) {
      // L₁₁ L₁₁ᵀ y = −zr₁ (pivoted), null coordinates 0.
      for (let i = 0; i < r; i++) {
        let v = -zr[i];
        for (let j = 0; j < i; j++) v -= H[i * n + j] * s[j];
        s[i] = v / H[i * n + i];
      }
      for (let i = r - 1; i >= 0; i--) {
        let v = s[i];
        for (let j = i + 1; j < r; j++) v -= H[j * n + i] * s[j];
        s[i] = v / H[i * n + i];
      }
      for (let i = 0; i < r; i++) dr[piv[i]] = s[i];
      for (let i = r; i < nz; i++) dr[piv[i]] = 0;
    }
    // p = Z dr
    for (let i = 0; i < n; i++) {
      const o = i * n + q;
      let v = 0;
      for (let a = 0; a < nz; a++) v += J[o + a] * dr[a];
      p[i] = v;
    }
    return kindOfStep;
  }

  /**
   * Removes the round-off drift of the working constraints (steps along Z keep them only to
   * ε·‖p‖, and long rays add up): x += N (NᵀN)⁻¹ (β − Nᵀx) = J₁ R⁻ᵀ (β − Nᵀx), O(n q).
   */
  private snapToWorkingSet(): void {
    const { ws, side, lo, hi, x, tmp, qr } = this;
    const q = qr.q;
    for (let j = 0; j < q; j++) {
      const k = ws[j];
      tmp[j] = side[k] === UPPER ? this.dot(k, x) - hi[k] : lo[k] - this.dot(k, x);
    }
    qr.solveRT(tmp, tmp);
    qr.addRange(x, tmp);
  }

  /** y from the working set's λ: y_k = −σ_k λ_k (σ = −1 at an upper end). */
  private writeMultipliers(): void {
    const { ws, lam, side, meq, mIn, yEq, yIn, yBound } = this;
    for (let j = 0; j < this.qr.q; j++) {
      const k = ws[j];
      const y = side[k] === UPPER ? lam[j] : -lam[j];
      if (k < meq) yEq[k] = y;
      else if (k < meq + mIn) yIn[k - meq] = y;
      else yBound[k - meq - mIn] = y;
    }
  }

  private finish(st: DenseQpStatus): DenseQpStatus {
    const { n, Q, c, x } = this;
    this.status = st;
    let f = 0;
    for (let i = 0; i < n; i++) {
      const o = i * n;
      let s = 0;
      for (let j = 0; j < n; j++) s += Q[o + j] * x[j];
      f += x[i] * (0.5 * s + c[i]);
    }
    this.objective = f;
    return st;
  }
}

function checkLength(solver: DenseQpSolver, a: ArrayLike<number> | undefined, len: number, what: string): void {
  if (len > 0 && (a === undefined || a.length < len)) {
    throw new Error(`DenseQpSolver: ${what} must have ${len} entries (shape n=${solver.n}, meq=${solver.meq}, mIn=${solver.mIn})`);
  }
}

function rowNorm(A: Float64Array, row: number, n: number): number {
  let s = 0;
  const o = row * n;
  for (let i = 0; i < n; i++) s += A[o + i] * A[o + i];
  return Math.sqrt(s);
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/** Cholesky of the leading k × k block (stride ld) of an SPD matrix; lower triangle overwritten by L. */
function choleskyInPlace(a: Float64Array, ld: number, k: number): void {
  for (let j = 0; j < k; j++) {
    let d = a[j * ld + j];
    for (let t = 0; t < j; t++) d -= a[j * ld + t] * a[j * ld + t];
    const ljj = Math.sqrt(d);
    a[j * ld + j] = ljj;
    for (let i = j + 1; i < k; i++) {
      let v = a[i * ld + j];
      for (let t = 0; t < j; t++) v -= a[i * ld + t] * a[j * ld + t];
      a[i * ld + j] = v / ljj;
    }
  }
}

/** out = (L Lᵀ)⁻¹ b for the factor of {@link choleskyInPlace}. */
function choleskySolveInPlace(out: Float64Array, L: Float64Array, ld: number, k: number, b: Float64Array): void {
  for (let i = 0; i < k; i++) {
    let v = b[i];
    for (let t = 0; t < i; t++) v -= L[i * ld + t] * out[t];
    out[i] = v / L[i * ld + i];
  }
  for (let i = k - 1; i >= 0; i--) {
    let v = out[i];
    for (let t = i + 1; t < k; t++) v -= L[t * ld + i] * out[t];
    out[i] = v / L[i * ld + i];
  }
}
