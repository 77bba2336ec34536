import type { ConstraintResolution } from '@sofa-ts/core';
import type { ConstraintProblem } from './constraint-problem.js';

/**
 * A residual of the friction contact problem that does not belong to any solver, to compare them
 * at equal accuracy. On λ (p.force) and δ = δ_free + W·λ, for each contact α (rows n, t, s; or one
 * row n for a frictionless contact):
 *   ŭ_α = δ_α + μ‖δ_t,α‖·n                             (De Saxcé's modified displacement)
 *   R_α = λ_α − Proj_Kμ(λ_α − ρ_α·ŭ_α),   ρ_α = 1 / λ_max(W_αα)
 * R_α = 0 exactly when the contact law holds (Signorini: δ_n ≥ 0, λ_n ≥ 0, δ_n·λ_n = 0; Coulomb:
 * ‖λ_t‖ ≤ μ·λ_n, and λ_t = −μ·λ_n·δ_t/‖δ_t‖ when sliding), for any ρ_α > 0 (the bi-potential
 * fixed point). ρ_α is fixed by W alone (the local stiffness along the stiffest direction of the
 * contact), so that R_α/ρ_α is a displacement and the residual is the same quantity whatever the
 * solver and its own ρ:
 *   e = sqrt(Σ_α ‖R_α‖²/ρ_α²)                          (absolute, a length)
 *   e_rel = e / sqrt(Σ_α ‖δ_free,α‖²)                  (relative to the free violation, like ‖b − Ax‖/‖b‖)
 * Rows that are not contacts (bilateral, stoppers...) are not measured.
 */

/** The friction coefficient of a contact resolution, or undefined when the group is not a contact. */
export function contactMu(res: ConstraintResolution): number | undefined {
  const mu = (res as { mu?: unknown }).mu;
  if (typeof mu !== 'number') return undefined;
  if (res.nbLines === 3 || (res.nbLines === 1 && mu === 0)) return mu;
  return undefined;
}

/** r = Proj_Kμ(r*) for a contact (3 rows: n, t, s; 1 row: r_n ≥ 0); out may be rs. */
export function projectOnCone(out: Float64Array, rs: Float64Array, nb: number, mu: number): void {
  if (nb === 1 || mu === 0) {
    out[0] = rs[0] > 0 ? rs[0] : 0;
    out[1] = 0;
    out[2] = 0;
    return;
  }
  const rn = rs[0],
    rt = rs[1],
    rsv = rs[2];
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

/**
 * Largest eigenvalue of the symmetric 3×3 matrix [[a, b, c], [b, d, e], [c, e, f]]: the roots of
 * the characteristic polynomial in trigonometric form (q = trace/3, p² = ‖A − qI‖²_F/6,
 * λ_max = q + 2p·cos(φ), 3φ = acos(det((A − qI)/p)/2)).
 */
export function maxEigenvalueSym3(a: number, b: number, c: number, d: number, e: number, f: number): number {
  const off = b * b + c * c + e * e;
  const q = (a + d + f) / 3;
  const p2 = ((a - q) ** 2 + (d - q) ** 2 + (f - q) ** 2 + 2 * off) / 6;
  if (p2 <= 1e-30 * q * q) return q;
  const p = Math.sqrt(p2);
  const A = (a - q) / p,
    D = (d - q) / p,
    F = (f - q) / p,
    B = b / p,
    C = c / p,
    E = e / p;
  const det = A * (D * F - E * E) - B * (B * F - E * C) + C * (B * E - D * C);
  const h = Math.min(1, Math.max(-1, det / 2));
  return q + 2 * p * Math.cos(Math.acos(h) / 3);
}

/** λ_max of the diagonal block W_αα of the contact at `line` (nb rows). */
export function contactBlockMaxEigenvalue(W: Float64Array, n: number, line: number, nb: number): number {
  const at = (i: number, j: number): number => W[(line + i) * n + line + j];
  if (nb === 1) return at(0, 0);
  return maxEigenvalueSym3(
    at(0, 0),
    0.5 * (at(0, 1) + at(1, 0)),
    0.5 * (at(0, 2) + at(2, 0)),
    at(1, 1),
    0.5 * (at(1, 2) + at(2, 1)),
    at(2, 2),
  );
}

/** Scratch and results of frictionResidual (nothing allocated per call). */
export class FrictionResidualWork {
  readonly u = new Float64Array(3);
  readonly rs = new Float64Array(3);
  readonly pr = new Float64Array(3);
  /** e of the last call, a length. */
  absolute = 0;
  /** e / ‖δ_free‖ over the contact rows (e itself when δ_free is zero there). */
  relative = 0;
  /** Number of contacts measured by the last call. */
  contacts = 0;
}

/** The common relative residual e_rel of λ = p.force on the problem p (see the file doc); e and the contact count in work. */
export function frictionResidual(p: ConstraintProblem, work = new FrictionResidualWork()): number {
  const { n, W, dfree, force } = p;
  const { u, rs, pr } = work;
  let e2 = 0,
    f2 = 0,
    contacts = 0;
  for (let j = 0; j < n;) {
    const res = p.resolutions[j];
    if (!res) break;
    const nb = res.nbLines;
    const mu = contactMu(res);
    if (mu !== undefined) {
      contacts++;
      for (let l = 0; l < nb; l++) {
        let s = dfree[j + l];
        const row = (j + l) * n;
        for (let k = 0; k < n; k++) s += W[row + k] * force[k];
        u[l] = s;
        f2 += dfree[j + l] * dfree[j + l];
      }
      const lmax = contactBlockMaxEigenvalue(W, n, j, nb);
      const rho = lmax > 0 ? 1 / lmax : 1;
      if (nb === 1) {
        rs[0] = force[j] - rho * u[0];
        rs[1] = 0;
        rs[2] = 0;
      } else {
        const ut = Math.sqrt(u[1] * u[1] + u[2] * u[2]);
        rs[0] = force[j] - rho * (u[0] + mu * ut);
        rs[1] = force[j + 1] - rho * u[1];
        rs[2] = force[j + 2] - rho * u[2];
      }
      projectOnCone(pr, rs, nb, mu);
      for (let l = 0; l < nb; l++) {
        const r = (force[j + l] - pr[l]) / rho;
        e2 += r * r;
      }
    }
    j += nb;
  }
  work.absolute = Math.sqrt(e2);
  work.relative = f2 > 0 ? work.absolute / Math.sqrt(f2) : work.absolute;
  work.contacts = contacts;
  return work.relative;
}
