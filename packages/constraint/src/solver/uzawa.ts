import type { ConstraintProblem } from './constraint-problem.js';
import { contactBlockMaxEigenvalue, contactMu, frictionResidual, FrictionResidualWork, projectOnCone } from './friction-residual.js';
import { gaussSeidelSweep, initResolutions, storeResolutions, type GaussSeidelWork, type SolveResult } from './gauss-seidel.js';

export * from './friction-residual.js';

/**
 * The bi-potential friction solvers of Talbi, Joli, Feng and Kheddar (HapCo, GRAPP 2008), on the
 * constraint problem u = u_free + W·r of a step (u: δ, r: λ; a contact α has rows (n, t, s),
 * u_α = ũ_α + W_αα·r_α with ũ_α = u_free,α + Σ_{β≠α} W_αβ·r_β).
 *
 * Contact law (Signorini + Coulomb) as one projection (De Saxcé and Feng's bi-potential):
 *   r*_α = r_α − ρ·(u_α + μ‖u_t,α‖·n)                 (predictor)
 *   r_α  = Proj_Kμ(r*_α)                               (corrector, Coulomb cone Kμ = {‖r_t‖ ≤ μ·r_n})
 *     stick: ‖r*_t‖ ≤ μ·r*_n → r*;  separation: μ‖r*_t‖ ≤ −r*_n → 0;
 *     slip:  r_n = (r*_n + μ‖r*_t‖)/(1 + μ²), r_t = μ·r_n·r*_t/‖r*_t‖.
 * A fixed point satisfies u_n ≥ 0, r_n ≥ 0, u_n·r_n = 0, ‖r_t‖ ≤ μ·r_n and r_t = −μ·r_n·u_t/‖u_t‖
 * when sliding. ρ is a stiffness, below the smallest local stiffness 1/W_αα (paper: ρ = 0.3/W_αα,max);
 * with rhoPerContact each contact has its own ρ_α = rhoFactor/λ_max(W_αα), below its own stiffness
 * (the stop tests then divide each contact's Δr_α by its ρ_α).
 *
 * - local Uzawa: non-linear Gauss-Seidel over the contacts; each contact runs an inner Uzawa loop
 *   (predictor/corrector, u_α updated with W_αα) from r_α = 0 until ‖Δr_α‖/ρ < ε2; the sweeps stop
 *   when ‖r^{k+1} − r^k‖/ρ < ε1 (a displacement, "the Uzawa error" of the paper);
 * - global Uzawa: one predictor/corrector per contact per sweep (with the latest forces of the other
 *   contacts), until ‖r^{k+1} − r^k‖/‖r^{k+1}‖ < ε3.
 * With residualTolerance > 0 the sweeps stop instead on the solver-independent residual of
 * friction-residual.ts (e_rel < residualTolerance), to compare solvers at equal accuracy.
 * Rows that are not contacts (bilateral constraints, stoppers...) keep their own resolution, one
 * Gauss-Seidel step per sweep.
 */

export type UzawaMethod = 'local' | 'global';

export interface UzawaOptions {
  readonly method: UzawaMethod;
  /** Outer sweeps (k). */
  readonly maxIterations: number;
  /** ε1 (local: on ‖Δr‖/ρ) or ε3 (global: on ‖Δr‖/‖r‖). */
  readonly tolerance: number;
  /** ε2: inner loop of the local method, on ‖Δr_α‖/ρ. */
  readonly localTolerance: number;
  readonly maxLocalIterations: number;
  /** ρ; 0: rhoFactor / max over the contacts of the diagonal of W_αα (or per contact, see rhoPerContact). */
  readonly rho: number;
  readonly rhoFactor: number;
  /** With rho = 0: ρ_α = rhoFactor / λ_max(W_αα) for each contact α instead of one ρ for all. */
  readonly rhoPerContact?: boolean;
  /** > 0: stop when the common residual e_rel (friction-residual.ts) is below it, instead of ε1/ε3. */
  readonly residualTolerance?: number;
}

/** A frictional (3 rows) or frictionless (1 row) contact among the groups of the problem. */
interface ContactGroup {
  readonly line: number;
  readonly nb: 1 | 3;
  readonly mu: number;
  /** ρ_α. */
  readonly rho: number;
}

/** Scratch of the Uzawa solvers. */
export class UzawaWork {
  contacts: ContactGroup[] = [];
  others: number[] = [];
  prev = new Float64Array(0);
  /** ρ of each row (contact rows: their ρ_α; other rows: the global ρ), scales the stop tests. */
  rowRho = new Float64Array(0);
  readonly u = new Float64Array(3);
  readonly ut = new Float64Array(3);
  readonly r = new Float64Array(3);
  readonly rs = new Float64Array(3);
  readonly residual = new FrictionResidualWork();
  /** ρ used by the last solve (per contact: the smallest ρ_α). */
  rho = 0;
  /** Largest ρ_α of the last solve (= rho with one ρ for all). */
  rhoMax = 0;
  /** Inner Uzawa iterations of the local method, summed over the contacts and sweeps of the last solve. */
  innerIterations = 0;
  /** Inner loops of the last solve stopped by maxLocalIterations before reaching localTolerance. */
  innerTruncations = 0;
}

/** r* = r − ρ·(u + μ‖u_t‖·n). */
function predictor(rs: Float64Array, r: Float64Array, u: Float64Array, nb: number, mu: number, rho: number): void {
  if (nb === 1) {
    rs[0] = r[0] - rho * u[0];
    return;
  }
  const ut = Math.sqrt(u[1] * u[1] + u[2] * u[2]);
  rs[0] = r[0] - rho * (u[0] + mu * ut);
  rs[1] = r[1] - rho * u[1];
  rs[2] = r[2] - rho * u[2];
}

/** Sorts the groups into contacts and others; ρ (global or per contact) from the options or W. */
function classify(p: ConstraintProblem, o: UzawaOptions, w: UzawaWork): void {
  w.contacts.length = 0;
  w.others.length = 0;
  let wmax = 0;
  for (let j = 0; j < p.n;) {
    const res = p.resolutions[j]!;
    if (contactMu(res) !== undefined) for (let l = 0; l < res.nbLines; l++) wmax = Math.max(wmax, p.W[(j + l) * p.n + j + l]);
    j += res.nbLines;
  }
  const rho = o.rho > 0 ? o.rho : wmax > 0 ? o.rhoFactor / wmax : 1;
  const perContact = o.rho <= 0 && o.rhoPerContact === true;
  if (w.rowRho.length < p.n) w.rowRho = new Float64Array(Math.max(p.n, 2 * w.rowRho.length));
  w.rowRho.fill(rho, 0, p.n);
  let rmin = Infinity,
    rmax = 0;
  for (let j = 0; j < p.n;) {
    const res = p.resolutions[j]!;
    const mu = contactMu(res);
    const nb = res.nbLines;
    if (mu === undefined) w.others.push(j);
    else {
      let r = rho;
      if (perContact) {
        const lmax = contactBlockMaxEigenvalue(p.W, p.n, j, nb);
        r = lmax > 0 ? o.rhoFactor / lmax : rho;
      }
      w.contacts.push({ line: j, nb: nb as 1 | 3, mu, rho: r });
      w.rowRho.fill(r, j, j + nb);
      rmin = Math.min(rmin, r);
      rmax = Math.max(rmax, r);
    }
    j += nb;
  }
  w.rho = perContact && w.contacts.length > 0 ? rmin : rho;
  w.rhoMax = perContact && w.contacts.length > 0 ? rmax : rho;
}

/** u_α = δfree_α + W_α·r (all rows, its own included). */
function contactViolation(p: ConstraintProblem, c: ContactGroup, u: Float64Array): void {
  const { n, W, dfree, force } = p;
  for (let l = 0; l < c.nb; l++) {
    let s = dfree[c.line + l];
    const row = (c.line + l) * n;
    for (let k = 0; k < n; k++) s += W[row + k] * force[k];
    u[l] = s;
  }
}

/** One Gauss-Seidel step of every group that is not a contact. */
function otherGroups(p: ConstraintProblem, w: UzawaWork): void {
  const { n, W, dfree, force, d } = p;
  for (const j of w.others) {
    const res = p.resolutions[j]!;
    const nb = res.nbLines;
    for (let l = 0; l < nb; l++) {
      let s = dfree[j + l];
      for (let k = 0; k < n; k++) s += W[(j + l) * n + k] * force[k];
      d[j + l] = s;
    }
    res.resolution(j, W, n, d, force, dfree);
  }
}

/**
 * Prepares a solve: the groups' init, contacts and ρ. Returns false when the problem has no
 * contact (nothing for the sweeps of uzawaSweep to do).
 */
export function uzawaStart(p: ConstraintProblem, o: UzawaOptions, w: UzawaWork): boolean {
  initResolutions(p);
  classify(p, o, w);
  w.innerIterations = 0;
  w.innerTruncations = 0;
  if (w.prev.length < p.n) w.prev = new Float64Array(Math.max(p.n, 2 * w.prev.length));
  return w.contacts.length > 0;
}

/**
 * One outer sweep k → k + 1 of the local or global method (after uzawaStart); returns its own
 * error: local ‖(r^{k+1} − r^k)/ρ‖ (ε1's measure, per row ρ), global ‖r^{k+1} − r^k‖/‖r^{k+1}‖ (ε3's).
 */
export function uzawaSweep(p: ConstraintProblem, o: UzawaOptions, w: UzawaWork): number {
  const n = p.n;
  const force = p.force;
  const { u, r, rs, ut } = w;
  w.prev.set(force.subarray(0, n));
  otherGroups(p, w);
  for (const c of w.contacts) {
    const line = c.line,
      nb = c.nb,
      rho = c.rho;
    contactViolation(p, c, u);
    if (o.method === 'global') {
      for (let l = 0; l < nb; l++) r[l] = force[line + l];
      predictor(rs, r, u, nb, c.mu, rho);
      projectOnCone(r, rs, nb, c.mu);
      for (let l = 0; l < nb; l++) force[line + l] = r[l];
      continue;
    }
    // local: ũ = u − W_αα·r_α, inner Uzawa from r = 0
    for (let l = 0; l < nb; l++) {
      let s = u[l];
      for (let m = 0; m < nb; m++) s -= p.W[(line + l) * n + line + m] * force[line + m];
      ut[l] = s;
      u[l] = s;
      r[l] = 0;
    }
    let converged = false;
    for (let j = 0; j < o.maxLocalIterations && !converged; j++) {
      w.innerIterations++;
      predictor(rs, r, u, nb, c.mu, rho);
      projectOnCone(rs, rs, nb, c.mu);
      let dr = 0;
      for (let l = 0; l < nb; l++) {
        const e = rs[l] - r[l];
        dr += e * e;
        r[l] = rs[l];
      }
      for (let l = 0; l < nb; l++) {
        let s = ut[l];
        for (let m = 0; m < nb; m++) s += p.W[(line + l) * n + line + m] * r[m];
        u[l] = s;
      }
      if (Math.sqrt(dr) / rho < o.localTolerance) converged = true;
    }
    if (!converged) w.innerTruncations++;
    for (let l = 0; l < nb; l++) force[line + l] = r[l];
  }
  let dr = 0,
    rr = 0,
    drs = 0;
  const rowRho = w.rowRho;
  for (let j = 0; j < n; j++) {
    const e = force[j] - w.prev[j];
    dr += e * e;
    const es = e / rowRho[j];
    drs += es * es;
    rr += force[j] * force[j];
  }
  return o.method === 'local' ? Math.sqrt(drs) : rr > 0 ? Math.sqrt(dr / rr) : Math.sqrt(dr);
}

/**
 * Solves the problem with the local or global Uzawa method (see the file doc); forces in p.force
 * (initial values from the groups' init, contacts starting at their current force). With
 * residualTolerance > 0 the error reported is the common residual e_rel.
 */
export function bipotentialUzawa(p: ConstraintProblem, o: UzawaOptions, w: UzawaWork, gs: GaussSeidelWork): SolveResult {
  const n = p.n;
  if (n === 0) return { iterations: 0, error: 0, converged: true };
  if (!uzawaStart(p, o, w)) {
    // nothing but other groups: plain Gauss-Seidel
    let error = 0;
    let it = 0;
    for (; it < o.maxIterations; it++) {
      error = gaussSeidelSweep(p, true, o.tolerance, gs);
      if (error < o.tolerance) {
        storeResolutions(p, true);
        return { iterations: it + 1, error, converged: true };
      }
    }
    storeResolutions(p, false);
    return { iterations: it, error, converged: false };
  }
  const onResidual = (o.residualTolerance ?? 0) > 0;
  let error = 0;
  let iterations = 0;
  let converged = false;
  for (let k = 0; k < o.maxIterations; k++) {
    iterations = k + 1;
    error = uzawaSweep(p, o, w);
    if (onResidual) error = frictionResidual(p, w.residual);
    if (error < (onResidual ? o.residualTolerance! : o.tolerance)) {
      converged = true;
      break;
    }
  }
  storeResolutions(p, converged);
  return { iterations, error, converged };
}
