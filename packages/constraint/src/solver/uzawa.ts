import type { ConstraintResolution } from '@sofa-ts/core';
import type { ConstraintProblem } from './constraint-problem.js';
import { gaussSeidelSweep, initResolutions, storeResolutions, type GaussSeidelWork, type SolveResult } from './gauss-seidel.js';

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
 * when sliding. ρ is a stiffness, below the smallest local stiffness 1/W_αα (paper: ρ = 0.3/W_αα,max).
 *
 * - local Uzawa: non-linear Gauss-Seidel over the contacts; each contact runs an inner Uzawa loop
 *   (predictor/corrector, u_α updated with W_αα) from r_α = 0 until ‖Δr_α‖/ρ < ε2; the sweeps stop
 *   when ‖r^{k+1} − r^k‖/ρ < ε1 (a displacement, "the Uzawa error" of the paper);
 * - global Uzawa: one predictor/corrector per contact per sweep (with the latest forces of the other
 *   contacts), until ‖r^{k+1} − r^k‖/‖r^{k+1}‖ < ε3.
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
  /** ρ; 0: rhoFactor / max over the contacts of the diagonal of W_αα. */
  readonly rho: number;
  readonly rhoFactor: number;
}

/** A frictional (3 rows) or frictionless (1 row) contact among the groups of the problem. */
interface ContactGroup {
  readonly line: number;
  readonly nb: 1 | 3;
  readonly mu: number;
}

/** Scratch of the Uzawa solvers. */
export class UzawaWork {
  contacts: ContactGroup[] = [];
  others: number[] = [];
  prev = new Float64Array(0);
  readonly u = new Float64Array(3);
  readonly ut = new Float64Array(3);
  readonly r = new Float64Array(3);
  readonly rs = new Float64Array(3);
  /** ρ used by the last solve. */
  rho = 0;
}

/** The friction coefficient of a contact resolution, or undefined when the group is not a contact. */
export function contactMu(res: ConstraintResolution): number | undefined {
  const mu = (res as { mu?: unknown }).mu;
  if (typeof mu !== 'number') return undefined;
  if (res.nbLines === 3 || (res.nbLines === 1 && mu === 0)) return mu;
  return undefined;
}

/** r = Proj_Kμ(r*) for a contact (3 rows: n, t, s; 1 row: r_n ≥ 0). */
export function projectOnCone(out: Float64Array, rs: Float64Array, nb: number, mu: number): void {
  if (nb === 1 || mu === 0) {
    out[0] = rs[0]! > 0 ? rs[0]! : 0;
    out[1] = 0;
    out[2] = 0;
    return;
  }
  const rn = rs[0]!, rt = rs[1]!, rsv = rs[2]!;
  const nt = Math.sqrt(rt * rt + rsv * rsv);
  if (nt <= mu * rn) {
    out[0] = rn;
    out[1] = rt;
    out[2] = rsv;
  } else if (mu * nt <= -rn) {
    out[0] = 0;
    out[1] = 0;
    out[2] = 0;
  } else {
    const n = (rn + mu * nt) / (1 + mu * mu);
    out[0] = n;
    out[1] = (mu * n * rt) / nt;
    out[2] = (mu * n * rsv) / nt;
  }
}

/** r* = r − ρ·(u + μ‖u_t‖·n). */
function predictor(rs: Float64Array, r: Float64Array, u: Float64Array, nb: number, mu: number, rho: number): void {
  if (nb === 1) {
    rs[0] = r[0]! - rho * u[0]!;
    return;
  }
  const ut = Math.sqrt(u[1]! * u[1]! + u[2]! * u[2]!);
  rs[0] = r[0]! - rho * (u[0]! + mu * ut);
  rs[1] = r[1]! - rho * u[1]!;
  rs[2] = r[2]! - rho * u[2]!;
}

/** Sorts the groups into contacts and others; ρ from the options or W. */
function classify(p: ConstraintProblem, o: UzawaOptions, w: UzawaWork): void {
  w.contacts.length = 0;
  w.others.length = 0;
  let wmax = 0;
  for (let j = 0; j < p.n; ) {
    const res = p.resolutions[j]!;
    const mu = contactMu(res);
    if (mu === undefined) w.others.push(j);
    else {
      w.contacts.push({ line: j, nb: res.nbLines as 1 | 3, mu });
      for (let l = 0; l < res.nbLines; l++) wmax = Math.max(wmax, p.W[(j + l) * p.n + j + l]!);
    }
    j += res.nbLines;
  }
  w.rho = o.rho > 0 ? o.rho : wmax > 0 ? o.rhoFactor / wmax : 1;
}

/** u_α = δfree_α + W_α·r (all rows, its own included). */
function contactViolation(p: ConstraintProblem, c: ContactGroup, u: Float64Array): void {
  const { n, W, dfree, force } = p;
  for (let l = 0; l < c.nb; l++) {
    let s = dfree[c.line + l]!;
    const row = (c.line + l) * n;
    for (let k = 0; k < n; k++) s += W[row + k]! * force[k]!;
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
      let s = dfree[j + l]!;
      for (let k = 0; k < n; k++) s += W[(j + l) * n + k]! * force[k]!;
      d[j + l] = s;
    }
    res.resolution(j, W, n, d, force, dfree);
  }
}

/**
 * Solves the problem with the local or global Uzawa method (see the file doc); forces in p.force
 * (initial values from the groups' init, contacts starting at their current force).
 */
export function bipotentialUzawa(p: ConstraintProblem, o: UzawaOptions, w: UzawaWork, gs: GaussSeidelWork): SolveResult {
  const n = p.n;
  if (n === 0) return { iterations: 0, error: 0, converged: true };
  initResolutions(p);
  classify(p, o, w);
  if (w.contacts.length === 0) {
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
  if (w.prev.length < n) w.prev = new Float64Array(n);
  const rho = w.rho;
  const force = p.force;
  const { u, r, rs, ut } = w;
  let error = 0;
  let iterations = 0;
  let converged = false;
  for (let k = 0; k < o.maxIterations; k++) {
    iterations = k + 1;
    w.prev.set(force.subarray(0, n));
    otherGroups(p, w);
    for (const c of w.contacts) {
      const line = c.line, nb = c.nb;
      contactViolation(p, c, u);
      if (o.method === 'global') {
        for (let l = 0; l < nb; l++) r[l] = force[line + l]!;
        predictor(rs, r, u, nb, c.mu, rho);
        projectOnCone(r, rs, nb, c.mu);
        for (let l = 0; l < nb; l++) force[line + l] = r[l]!;
        continue;
      }
      // local: ũ = u − W_αα·r_α, inner Uzawa from r = 0
      for (let l = 0; l < nb; l++) {
        let s = u[l]!;
        for (let m = 0; m < nb; m++) s -= p.W[(line + l) * n + line + m]! * force[line + m]!;
        ut[l] = s;
        u[l] = s;
        r[l] = 0;
      }
      for (let j = 0; j < o.maxLocalIterations; j++) {
        predictor(rs, r, u, nb, c.mu, rho);
        projectOnCone(rs, rs, nb, c.mu);
        let dr = 0;
        for (let l = 0; l < nb; l++) {
          const e = rs[l]! - r[l]!;
          dr += e * e;
          r[l] = rs[l]!;
        }
        for (let l = 0; l < nb; l++) {
          let s = ut[l]!;
          for (let m = 0; m < nb; m++) s += p.W[(line + l) * n + line + m]! * r[m]!;
          u[l] = s;
        }
        if (Math.sqrt(dr) / rho < o.localTolerance) break;
      }
      for (let l = 0; l < nb; l++) force[line + l] = r[l]!;
    }
    let dr = 0, rr = 0;
    for (let j = 0; j < n; j++) {
      const e = force[j]! - w.prev[j]!;
      dr += e * e;
      rr += force[j]! * force[j]!;
    }
    error = o.method === 'local' ? Math.sqrt(dr) / rho : rr > 0 ? Math.sqrt(dr / rr) : Math.sqrt(dr);
    if (error < o.tolerance) {
      converged = true;
      break;
    }
  }
  storeResolutions(p, converged);
  return { iterations, error, converged };
}
