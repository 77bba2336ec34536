import type { ConstraintProblem } from './constraint-problem.js';
import {
  effectiveTolerance,
  gaussSeidelSweep,
  initResolutions,
  storeResolutions,
  type GaussSeidelOptions,
  type GaussSeidelWork,
  type SolveResult,
} from './gauss-seidel.js';

/** Scratch of the NNCG solver: λ before a sweep, the sweep's step Δ and the direction p (n each). */
export class NncgWork {
  lam = new Float64Array(0);
  delta = new Float64Array(0);
  deltaNew = new Float64Array(0);
  p = new Float64Array(0);

  size(n: number): void {
    if (this.lam.length >= n) {
      this.lam.fill(0);
      this.delta.fill(0);
      this.deltaNew.fill(0);
      this.p.fill(0);
      return;
    }
    this.lam = new Float64Array(n);
    this.delta = new Float64Array(n);
    this.deltaNew = new Float64Array(n);
    this.p = new Float64Array(n);
  }
}

/**
 * SOFA's NNCGConstraintSolver (non-smooth non-linear conjugate gradient, Silcowitz et al.): a first
 * block Gauss-Seidel sweep gives the step Δ₀ = λ₁ − λ₀ and the direction p = Δ₀; then each sweep
 * gives Δ_k, β = ‖Δ_k‖²/‖Δ_{k−1}‖², and unless β > 1 (restart, p = 0) the forces move on along the
 * direction: λ += β·p, p = β·p + Δ_k. It stops on the Gauss-Seidel error (as the block solver) or
 * when ‖Δ_k‖ < tolerance.
 */
export function nncg(p: ConstraintProblem, o: GaussSeidelOptions, gs: GaussSeidelWork, w: NncgWork): SolveResult {
  const n = p.n;
  if (n === 0) return { iterations: 0, error: 0, converged: true };
  w.size(n);
  const tol = effectiveTolerance(p, o);
  initResolutions(p);
  const force = p.force;
  // first sweep: initial direction
  w.lam.set(force.subarray(0, n));
  gaussSeidelSweep(p, false, tol, gs);
  for (let j = 0; j < n; j++) {
    w.delta[j] = -(force[j] - w.lam[j]);
    w.p[j] = -w.delta[j];
  }
  let error = 0;
  let iterations = 0;
  let converged = false;
  for (let i = 1; i < o.maxIterations; i++) {
    iterations++;
    gs.verified = true;
    w.lam.set(force.subarray(0, n));
    error = gaussSeidelSweep(p, true, tol, gs);
    if (o.allVerified ? gs.verified : error < tol) {
      converged = true;
      break;
    }
    let num = 0,
      den = 0;
    for (let j = 0; j < n; j++) {
      w.deltaNew[j] = -(force[j] - w.lam[j]);
      num += w.deltaNew[j] * w.deltaNew[j];
      den += w.delta[j] * w.delta[j];
    }
    const beta = num / den;
    w.delta.set(w.deltaNew);
    if (beta > 1) w.p.fill(0);
    else {
      for (let j = 0; j < n; j++) {
        force[j] += beta * w.p[j];
        w.p[j] = beta * w.p[j] - w.delta[j];
      }
    }
    if (Math.sqrt(num) < tol) break;
  }
  storeResolutions(p, converged);
  return { iterations, error, converged };
}
