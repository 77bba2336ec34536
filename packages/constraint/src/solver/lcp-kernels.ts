/**
 * The contact kernels of SOFA's LCPConstraintSolver (its helper LCPcalc), on a problem
 * δ = δ_free + W·f with W dense (n × n, row-major):
 * - `nlcpGaussSeidel`: frictional contacts, 3 rows each (n, t, s), Gauss-Seidel over contacts;
 *   each contact solves its normal row (f_n ≥ 0) then its tangential rows with one Jacobi step on
 *   the mean tangential compliance, scaled back onto the cone ‖f_t‖ ≤ μ·f_n (`LocalBlock33.gsState`);
 *   stops when Σ_contacts ‖Δδ_c‖ < tol·(contacts + 1);
 * - `gaussSeidelLcp1`: frictionless contacts, one row each, f = max(0, −(δ_free + Σ_{j≠i} W_ij f_j)/W_ii),
 *   stops when Σ |W_ii·Δf_i| < tol.
 */

/** A contact's 3×3 block of W (symmetric: w11 w12 w13 w22 w23 w33) and its inverse (SOFA's LocalBlock33). */
export class LocalBlock33 {
  readonly w = new Float64Array(6);
  readonly wInv = new Float64Array(6);
  computed = false;
  private readonly f1 = new Float64Array(3);

  compute(w11: number, w12: number, w13: number, w22: number, w23: number, w33: number): void {
    const w = this.w;
    w[0] = w11;
    w[1] = w12;
    w[2] = w13;
    w[3] = w22;
    w[4] = w23;
    w[5] = w33;
    const det = w11 * w22 * w33 - w11 * w23 * w23 - w12 * w12 * w33 + 2 * w12 * w13 * w23 - w13 * w13 * w22;
    const inv = this.wInv;
    inv[0] = (w22 * w33 - w23 * w23) / det;
    inv[1] = -(w12 * w33 - w13 * w23) / det;
    inv[2] = (w12 * w23 - w13 * w22) / det;
    inv[3] = (w11 * w33 - w13 * w13) / det;
    inv[4] = -(w11 * w23 - w12 * w13) / det;
    inv[5] = (w11 * w22 - w12 * w12) / det;
    this.computed = true;
  }

  /**
   * SOFA's GS_State: d = (dn, dt, ds) is the violation due to the other contacts; f = (fn, ft, fs)
   * the contact's force on entry. On return f is the new force and d the violation including it.
   */
  gsState(mu: number, d: Float64Array, f: Float64Array): void {
    const w = this.w;
    let fn = f[0],
      ft = f[1],
      fs = f[2];
    const dn = d[0],
      dt = d[1],
      ds = d[2];
    const d0 = w[0] * fn + w[1] * ft + w[2] * fs + dn;
    fn -= d0 / w[0];
    if (fn < 0) {
      f[0] = 0;
      f[1] = 0;
      f[2] = 0;
      return;
    }
    const d1 = w[1] * fn + w[3] * ft + w[4] * fs + dt;
    const d2 = w[2] * fn + w[4] * ft + w[5] * fs + ds;
    ft -= (2 * d1) / (w[3] + w[5]);
    fs -= (2 * d2) / (w[3] + w[5]);
    const normFt = Math.sqrt(ft * ft + fs * fs);
    if (normFt > mu * fn) {
      ft *= (mu * fn) / normFt;
      fs *= (mu * fn) / normFt;
    }
    d[0] = dn + w[0] * fn + w[1] * ft + w[2] * fs;
    d[1] = dt + w[1] * fn + w[3] * ft + w[4] * fs;
    d[2] = ds + w[2] * fn + w[4] * ft + w[5] * fs;
    f[0] = fn;
    f[1] = ft;
    f[2] = fs;
  }

  /**
   * SOFA's New_GS_State (unbuilt resolution): d = (dn, dt, ds) already includes the contact's current
   * force f; on return f is the new force and d the violation with it.
   */
  newGsState(mu: number, d: Float64Array, f: Float64Array): void {
    const w = this.w;
    const f1 = this.f1;
    f1[0] = f[0];
    f1[1] = f[1];
    f1[2] = f[2];
    let fn = f[0],
      ft = f[1],
      fs = f[2];
    fn -= d[0] / w[0];
    if (fn <= 0) {
      fn = 0;
      ft = 0;
      fs = 0;
      if (f1[0] > 0) {
        const df0 = fn - f1[0],
          df1 = ft - f1[1],
          df2 = fs - f1[2];
        d[0] += w[0] * df0 + w[1] * df1 + w[2] * df2;
        d[1] += w[1] * df0 + w[3] * df1 + w[4] * df2;
        d[2] += w[2] * df0 + w[4] * df1 + w[5] * df2;
      }
      f[0] = 0;
      f[1] = 0;
      f[2] = 0;
      return;
    }
    const d1 = w[1] * (fn - f1[0]) + d[1];
    const d2 = w[2] * (fn - f1[0]) + d[2];
    ft -= (2 * d1) / (w[3] + w[5]);
    fs -= (2 * d2) / (w[3] + w[5]);
    const normFt = Math.sqrt(ft * ft + fs * fs);
    if (normFt > mu * fn) {
      ft *= (mu * fn) / normFt;
      fs *= (mu * fn) / normFt;
    }
    const df0 = fn - f1[0],
      df1 = ft - f1[1],
      df2 = fs - f1[2];
    d[0] += w[0] * df0 + w[1] * df1 + w[2] * df2;
    d[1] += w[1] * df0 + w[3] * df1 + w[4] * df2;
    d[2] += w[2] * df0 + w[4] * df1 + w[5] * df2;
    f[0] = fn;
    f[1] = ft;
    f[2] = fs;
  }
}

/** What the LCP kernels report. */
export interface LcpResult {
  iterations: number;
  error: number;
  converged: boolean;
}

/** Scratch of the kernels (kept by the solver). */
export class LcpWork {
  blocks: LocalBlock33[] = [];
  readonly d = new Float64Array(3);
  readonly f = new Float64Array(3);
  u = new Float64Array(0);

  block(c: number): LocalBlock33 {
    while (this.blocks.length <= c) this.blocks.push(new LocalBlock33());
    return this.blocks[c];
  }
}

/**
 * SOFA's nlcp_gaussseidel. `f` holds the initial guess when `useInitialF`, else starts at 0.
 * minW: contacts whose W_nn ≤ minW get no force; maxF: after convergence, contacts with
 * f_n ≥ maxF lose their force (both off at 0).
 */
export function nlcpGaussSeidel(
  n: number,
  dfree: Float64Array,
  W: Float64Array,
  f: Float64Array,
  mu: number,
  tol: number,
  maxIt: number,
  useInitialF: boolean,
  work: LcpWork,
  minW = 0,
  maxF = 0,
): LcpResult {
  if (n % 3 !== 0) throw new Error(`a frictional contact problem has 3 rows per contact (got ${n} rows)`);
  const numContacts = n / 3;
  if (!useInitialF) f.fill(0, 0, n);
  for (let c = 0; c < numContacts; c++) work.block(c).computed = false;
  const d = work.d,
    fc = work.f;
  let error = 0;
  let it = 0;
  for (; it < maxIt; it++) {
    error = 0;
    for (let c = 0; c < numContacts; c++) {
      const r = 3 * c;
      const f0 = f[r],
        f1 = f[r + 1],
        f2 = f[r + 2];
      f[r] = 0;
      f[r + 1] = 0;
      f[r + 2] = 0;
      // violation due to the other contacts
      let dn = dfree[r],
        dt = dfree[r + 1],
        ds = dfree[r + 2];
      for (let i = 0; i < n; i++) {
        const fi = f[i];
        dn += W[r * n + i] * fi;
        dt += W[(r + 1) * n + i] * fi;
        ds += W[(r + 2) * n + i] * fi;
      }
      const p0 = dn + W[r * n + r] * f0 + W[r * n + r + 1] * f1 + W[r * n + r + 2] * f2;
      const p1 = dt + W[(r + 1) * n + r] * f0 + W[(r + 1) * n + r + 1] * f1 + W[(r + 1) * n + r + 2] * f2;
      const p2 = ds + W[(r + 2) * n + r] * f0 + W[(r + 2) * n + r + 1] * f1 + W[(r + 2) * n + r + 2] * f2;
      if (minW !== 0 && Math.abs(W[r * n + r]) <= minW) {
        fc[0] = 0;
        fc[1] = 0;
        fc[2] = 0;
      } else {
        const b = work.blocks[c];
        if (!b.computed)
          b.compute(
            W[r * n + r],
            W[r * n + r + 1],
            W[r * n + r + 2],
            W[(r + 1) * n + r + 1],
            W[(r + 1) * n + r + 2],
            W[(r + 2) * n + r + 2],
          );
        d[0] = dn;
        d[1] = dt;
        d[2] = ds;
        fc[0] = f0;
        fc[1] = f1;
        fc[2] = f2;
        b.gsState(mu, d, fc);
        dn = d[0];
        dt = d[1];
        ds = d[2];
      }
      error += Math.sqrt((p0 - dn) * (p0 - dn) + (p1 - dt) * (p1 - dt) + (p2 - ds) * (p2 - ds));
      f[r] = fc[0];
      f[r + 1] = fc[1];
      f[r + 2] = fc[2];
    }
    if (error < tol * (numContacts + 1)) {
      if (maxF !== 0) {
        for (let c = 0; c < numContacts; c++) {
          if (Math.abs(f[3 * c]) >= maxF) f.fill(0, 3 * c, 3 * c + 3);
        }
      }
      return { iterations: it + 1, error, converged: true };
    }
  }
  return { iterations: it, error, converged: false };
}

/**
 * SOFA's gaussSeidelLCP1 (frictionless contacts): the forces start at 0 (SOFA keeps them in the
 * second half of its result vector, which its initial guess does not reach).
 */
export function gaussSeidelLcp1(
  n: number,
  dfree: Float64Array,
  W: Float64Array,
  f: Float64Array,
  tol: number,
  maxIt: number,
  work: LcpWork,
  minW = 0,
  maxF = 0,
): LcpResult {
  if (work.u.length < n) work.u = new Float64Array(n);
  f.fill(0, 0, n);
  let error = 0;
  let it = 0;
  let converged = false;
  for (; it < maxIt; it++) {
    error = 0;
    for (let i = 0; i < n; i++) {
      let u = dfree[i];
      for (let j = 0; j < n; j++) u += W[i * n + j] * f[j];
      u -= W[i * n + i] * f[i];
      const f1 = f[i];
      if (minW !== 0 && Math.abs(W[i * n + i]) <= minW) f[i] = 0;
      else if (u < 0) f[i] = -u / W[i * n + i];
      else f[i] = 0;
      error += Math.abs(W[i * n + i] * (f[i] - f1));
    }
    if (error < tol) {
      converged = true;
      break;
    }
  }
  if (maxF !== 0) for (let i = 0; i < n; i++) if (Math.abs(f[i]) >= maxF) f[i] = 0;
  return { iterations: converged ? it + 1 : it, error, converged };
}
