import type { ConstraintProblem } from './constraint-problem.js';
import { effectiveTolerance, initResolutions, storeResolutions, type GaussSeidelOptions, type SolveResult } from './gauss-seidel.js';
import { asymmetry, symmetricSpectralRadius } from './spectral-radius.js';

/** The Data of SOFA's ImprovedJacobiConstraintSolver on top of the Gauss-Seidel ones. */
export interface ImprovedJacobiOptions {
  /** Scale the violations by ρ = spectralCorrectionFactor·min(1, 1.8 / r(W)) before each resolution. */
  readonly useSpectralCorrection: boolean;
  readonly spectralCorrectionFactor: number;
  /** Add β_i·Δλ of the previous iteration to each new λ (a momentum), β_i = min(1, (i/maxIterations)^speed). */
  readonly useConjugateResidue: boolean;
  readonly conjugateResidueSpeedFactor: number;
}

/** Scratch of the Jacobi solver (n each, grown, kept between steps; n² for the spectral radius). */
export class ImprovedJacobiWork {
  lastF = new Float64Array(0);
  deltaF = new Float64Array(0);
  correctedD = new Float64Array(0);
  eigen = new Float64Array(0);
  /** ρ of the last solve (1 without spectral correction). */
  rho = 1;
  /** r(W) the last spectral correction used (0 when none). */
  radius = 0;
  /** Relative asymmetry of W seen by the last spectral correction (its symmetric part was used). */
  asymmetry = 0;
  /** The last solve did not converge and its error grew past the first iteration's (or is not finite). */
  diverged = false;

  size(n: number): void {
    if (this.lastF.length < n) {
      this.lastF = new Float64Array(n);
      this.deltaF = new Float64Array(n);
      this.correctedD = new Float64Array(n);
    } else {
      this.lastF.fill(0, 0, n);
      this.deltaF.fill(0, 0, n);
      this.correctedD.fill(0, 0, n);
    }
  }
}

/**
 * The relaxation ρ of SOFA's spectral correction: factor·min(1, 0.9·2 / r) where r is what SOFA
 * takes for the spectral radius of W — the largest std::norm of its eigenvalues, i.e. the largest
 * SQUARED modulus |eig|² (SOFA's help speaks of spr(W); its code squares it, and sofa-ts follows
 * the code so that the iterations match). W is symmetric (J·A⁻¹·Jᵀ); its symmetric part is used.
 */
export function spectralCorrection(p: ConstraintProblem, factor: number, work: ImprovedJacobiWork): number {
  const n = p.n;
  if (work.eigen.length < n * n + 3 * n) work.eigen = new Float64Array(n * n + 3 * n);
  work.asymmetry = asymmetry(p.W, n);
  const spr = symmetricSpectralRadius(p.W, n, work.eigen);
  work.radius = spr * spr;
  return factor * Math.min(1, (0.9 * 2) / work.radius);
}

/**
 * SOFA's ImprovedJacobiConstraintSolver::doSolve (after Francu & Moldoveanu, "An Improved Jacobi
 * Solver for Particle Simulation", VRPHYS 2014) on the built problem δ = δ_free + W·λ:
 *
 *   λ = 0 (then the resolutions' init, which may warm-start λ), d = δ_free, Δλ = λ_prev = 0;
 *   iteration i:  d += W·Δλ (so d = δ_free + W·λ_prev),  d̃ = ρ·d;
 *                 each group j: resolution(j) on d̃ (a Jacobi step: d̃ is not updated within the
 *                 sweep), then λ_j += β_i·Δλ_j, Δλ_j = λ_j − λ_prev,j, λ_prev,j = λ_j,
 *                 e_j = sqrt(Σ_{l∈j} Σ_k (W_lk·Δλ_k)²)  — Δλ_k of the groups after j still the
 *                 previous iteration's, as in SOFA;
 *   stop (converged) when Σ_j e_j < tol and i > 0, or with allVerified when every partial
 *   Σ (W_lk·Δλ_k)² of a group stays below tol²; else after maxIterations.
 *
 * tol is tolerance·n with scaleTolerance (and not allVerified). ρ = 1 without useSpectralCorrection,
 * β = 0 without useConjugateResidue. `sor` is not used (SOFA's Jacobi ignores it). λ ends in p.force,
 * p.d holds δ_free + W·λ of the last-but-one iterate.
 */
export function improvedJacobi(
  p: ConstraintProblem,
  o: GaussSeidelOptions,
  jo: ImprovedJacobiOptions,
  work: ImprovedJacobiWork,
): SolveResult {
  const n = p.n;
  work.rho = 1;
  work.radius = 0;
  work.asymmetry = 0;
  work.diverged = false;
  if (n === 0) return { iterations: 0, error: 0, converged: true };
  const { W, dfree, force, d } = p;
  work.size(n);
  const { lastF, deltaF, correctedD } = work;
  d.set(dfree);
  force.fill(0);
  const tol = effectiveTolerance(p, o);
  initResolutions(p);
  const rho = jo.useSpectralCorrection ? spectralCorrection(p, jo.spectralCorrectionFactor, work) : 1;
  work.rho = rho;
  const tol2 = tol * tol;
  let error = 0;
  let firstError = 0;
  let iterations = 0;
  let converged = false;
  for (let i = 0; i < o.maxIterations; i++) {
    iterations++;
    let verified = true;
    error = 0;
    const beta = jo.useConjugateResidue ? Math.min(1, Math.pow(i / o.maxIterations, jo.conjugateResidueSpeedFactor)) : 0;
    // d += W·Δλ (the whole previous iterate), d̃ = ρ·d
    for (let l = 0; l < n; l++) {
      let s = d[l];
      const row = l * n;
      for (let k = 0; k < n; k++) s += W[row + k] * deltaF[k];
      d[l] = s;
      correctedD[l] = rho * s;
    }
    for (let j = 0; j < n;) {
      const res = p.resolutions[j]!;
      const nb = res.nbLines;
      res.resolution(j, W, n, correctedD, force, dfree);
      for (let l = j; l < j + nb; l++) {
        force[l] += beta * deltaF[l];
        deltaF[l] = force[l] - lastF[l];
        lastF[l] = force[l];
      }
      // the group's error: the squares of every term W_lk·Δλ_k of its rows
      let cstError = 0;
      for (let l = j; l < j + nb; l++) {
        const row = l * n;
        for (let k = 0; k < n; k++) {
          const e = W[row + k] * deltaF[k];
          cstError += e * e;
        }
        verified = verified && cstError < tol2;
      }
      error += Math.sqrt(cstError);
      j += nb;
    }
    if (i === 0) firstError = error;
    if (o.allVerified ? verified : error < tol && i > 0) {
      converged = true;
      break;
    }
  }
  work.diverged = !converged && !(error <= firstError);
  storeResolutions(p, converged);
  return { iterations, error, converged };
}
