import type { ConstraintProblem } from './constraint-problem.js';

/** Parameters of SOFA's Gauss-Seidel constraint solvers. */
export interface GaussSeidelOptions {
  readonly maxIterations: number;
  readonly tolerance: number;
  /** Successive over-relaxation, λ ← sor·λ_new + (1 − sor)·λ_old after each sweep. */
  readonly sor: number;
  /** The tolerance is multiplied by the number of rows. */
  readonly scaleTolerance: boolean;
  /** Stop when every group's error is below the tolerance (instead of their sum). */
  readonly allVerified: boolean;
}

/** What a solve reports. */
export interface SolveResult {
  iterations: number;
  error: number;
  converged: boolean;
}

/** Scratch a Gauss-Seidel solver keeps between steps. */
export class GaussSeidelWork {
  errF = new Float64Array(8);
  temp = new Float64Array(0);
  verified = true;

  lines(nb: number): Float64Array {
    if (this.errF.length < nb) this.errF = new Float64Array(2 * nb);
    return this.errF;
  }
}

/** The tolerance SOFA compares the summed error with (scaled by the number of rows unless allVerified). */
export function effectiveTolerance(p: ConstraintProblem, o: GaussSeidelOptions): number {
  return o.scaleTolerance && !o.allVerified ? o.tolerance * p.n : o.tolerance;
}

/** Calls every group's init (SOFA does it before the first sweep; warm starts happen here). */
export function initResolutions(p: ConstraintProblem): void {
  for (let j = 0; j < p.n;) {
    const r = p.resolutions[j];
    if (!r) throw new Error(`constraint row ${j} has no resolution`);
    r.init(j, p.W, p.n, p.force);
    j += r.nbLines;
  }
}

/**
 * One projected block Gauss-Seidel sweep (SOFA's gaussSeidel_increment): for each group j,
 *   d_j = δfree_j + Σ_k W_jk·λ_k  (its own λ included),  then its resolution updates λ_j;
 * with `measure`, the error of the group is |W_jj·Δλ_j| (row norms of W_jj·Δλ_j summed for a block),
 * rescaled by the group's own tolerance when it has one. Returns the summed error and sets
 * work.verified to false when a group is above the tolerance.
 */
export function gaussSeidelSweep(p: ConstraintProblem, measure: boolean, tol: number, work: GaussSeidelWork): number {
  const { n, W, dfree, force, d } = p;
  let error = 0;
  for (let j = 0; j < n;) {
    const res = p.resolutions[j]!;
    const nb = res.nbLines;
    const errF = work.lines(nb);
    for (let l = 0; l < nb; l++) {
      errF[l] = force[j + l];
      d[j + l] = dfree[j + l];
    }
    // d_j += W_j·λ
    for (let k = 0; k < n; k++) {
      const fk = force[k];
      for (let l = 0; l < nb; l++) d[j + l] += W[(j + l) * n + k] * fk;
    }
    res.resolution(j, W, n, d, force, dfree);
    if (measure) error += blockError(W, n, j, nb, force, errF, tol, res.tolerance, work);
    j += nb;
  }
  return error;
}

/** Calls every group's store (warm starts of the next step). */
/**
 * The error of block j after its resolution, as SOFA's Gauss-Seidel measures it: per line,
 * |W_jj·(λ_j − λ_j_before)| (a norm over the block's lines when it has several); a block with its
 * own tolerance is checked against it and its error rescaled to the global one. Marks `work`
 * unverified when a line or the block exceeds its tolerance.
 */
export function blockError(
  W: Float64Array,
  n: number,
  j: number,
  nb: number,
  force: Float64Array,
  before: Float64Array,
  tol: number,
  blockTolerance: number | undefined,
  work: GaussSeidelWork,
): number {
  let constraintError = 0;
  if (nb > 1) {
    for (let l = 0; l < nb; l++) {
      let lineError = 0;
      for (let m = 0; m < nb; m++) {
        const e = W[(j + l) * n + j + m] * (force[j + m] - before[m]);
        lineError += e * e;
      }
      lineError = Math.sqrt(lineError);
      if (lineError > tol) work.verified = false;
      constraintError += lineError;
    }
  } else {
    constraintError = Math.abs(W[j * n + j] * (force[j] - before[0]));
    if (constraintError > tol) work.verified = false;
  }
  if (blockTolerance) {
    if (constraintError > blockTolerance) work.verified = false;
    constraintError *= tol / blockTolerance;
  }
  return constraintError;
}

export function storeResolutions(p: ConstraintProblem, converged: boolean): void {
  for (let j = 0; j < p.n;) {
    const r = p.resolutions[j]!;
    r.store(j, p.force, converged);
    j += r.nbLines;
  }
}

/**
 * SOFA's BlockGaussSeidelConstraintSolver::doSolve: sweeps until the summed error is below the
 * (scaled) tolerance, or every group is verified with allVerified, or maxIterations; with sor ≠ 1
 * the forces are relaxed after each sweep.
 */
export function blockGaussSeidel(p: ConstraintProblem, o: GaussSeidelOptions, work: GaussSeidelWork): SolveResult {
  if (p.n === 0) return { iterations: 0, error: 0, converged: true };
  const tol = effectiveTolerance(p, o);
  initResolutions(p);
  if (o.sor !== 1 && work.temp.length < p.n) work.temp = new Float64Array(p.n);
  let error = 0;
  let iterations = 0;
  let converged = false;
  for (let i = 0; i < o.maxIterations; i++) {
    iterations++;
    work.verified = true;
    if (o.sor !== 1) work.temp.set(p.force);
    error = gaussSeidelSweep(p, true, tol, work);
    if (o.sor !== 1) relax(p.force, work.temp, o.sor);
    if (o.allVerified ? work.verified : error < tol) {
      converged = true;
      break;
    }
  }
  storeResolutions(p, converged);
  return { iterations, error, converged };
}

/** λ = sor·λ + (1 − sor)·λ_old. */
export function relax(force: Float64Array, old: Float64Array, sor: number): void {
  for (let j = 0; j < force.length; j++) force[j] = sor * force[j] + (1 - sor) * old[j];
}
