import type { ConstraintProblem } from './constraint-problem.js';
import { effectiveTolerance, type GaussSeidelOptions, type SolveResult } from './gauss-seidel.js';

/** Scratch of the preconditioned conjugate residual, kept between steps (grows only). */
export class PcrWork {
  s = new Float64Array(0);
  MW = new Float64Array(0);
  r = new Float64Array(0);
  p = new Float64Array(0);
  Wp = new Float64Array(0);
  Wr = new Float64Array(0);

  ensure(n: number): void {
    if (this.s.length < n) {
      this.s = new Float64Array(n);
      this.r = new Float64Array(n);
      this.p = new Float64Array(n);
      this.Wp = new Float64Array(n);
      this.Wr = new Float64Array(n);
    }
    if (this.MW.length < n * n) this.MW = new Float64Array(n * n);
  }
}

/** out = M·v, M n × n row-major. */
function matVec(M: Float64Array, v: Float64Array, out: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) {
    let acc = 0;
    const row = i * n;
    for (let k = 0; k < n; k++) acc += M[row + k] * v[k];
    out[i] = acc;
  }
}

function dot(a: Float64Array, b: Float64Array, n: number): number {
  let acc = 0;
  for (let i = 0; i < n; i++) acc += a[i] * b[i];
  return acc;
}

/**
 * The conjugate residual method (Saad 2003, Algorithm 6.20) on W·λ = −δ_free, every row an
 * equality (SOFA's PreconditionedConjugateResidual: the constraints' resolutions are not
 * called), symmetrically Jacobi-preconditioned: with S = diag(W)^(−1/2), it iterates on
 *   M·y = −S·δ_free,  M = S·W·S,  λ = S·y;
 * r_0 = p_0 = −S·δ_free, then α = (r,Mr)/(Mp,Mp), y += α·p, r −= α·Mp, β = (r⁺,Mr⁺)/(r,Mr),
 * p = r + β·p, Mp = Mr + β·Mp. At most min(maxIterations, n) iterations; the error is Σ over
 * groups of the group's ‖r‖ (SOFA's loop reads r[i], the iteration index, where the group's rows
 * r[l] are meant; sofa-ts reads the rows); it stops when the error is below the tolerance (not at
 * the first iteration), or with allVerified when every group's ‖r‖ is below it.
 * Returns zero iterations when a diagonal entry of W is not positive (the caller reports it).
 */
export function preconditionedConjugateResidual(
  p: ConstraintProblem,
  o: GaussSeidelOptions,
  w: PcrWork,
): SolveResult & { badDiagonal: number } {
  const n = p.n;
  const { W, dfree, force } = p;
  force.fill(0);
  if (n === 0) return { iterations: 0, error: 0, converged: true, badDiagonal: -1 };
  w.ensure(n);
  const { s, MW, r, Wp, Wr } = w;
  const dir = w.p;
  for (let j = 0; j < n; j++) {
    const wjj = W[j * n + j];
    if (!(wjj > 0)) return { iterations: 0, error: Infinity, converged: false, badDiagonal: j };
    s[j] = 1 / Math.sqrt(wjj);
  }
  for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) MW[j * n + k] = W[j * n + k] * s[j] * s[k];
  for (let j = 0; j < n; j++) {
    r[j] = -dfree[j] * s[j];
    dir[j] = r[j];
  }
  matVec(MW, dir, Wp, n);
  matVec(MW, r, Wr, n);
  let rWr = dot(r, Wr, n);
  const tol = effectiveTolerance(p, o);
  const maxIt = Math.min(o.maxIterations, n);
  let error = 0;
  let converged = false;
  let it = 0;
  for (let i = 0; i < maxIt; i++) {
    it++;
    const WpWp = dot(Wp, Wp, n);
    if (!(WpWp > 0)) {
      // r = 0 exactly: the solve is done
      error = 0;
      converged = true;
      break;
    }
    const alpha = rWr / WpWp;
    for (let j = 0; j < n; j++) {
      force[j] += alpha * dir[j];
      r[j] -= alpha * Wp[j];
    }
    matVec(MW, r, Wr, n);
    const old = rWr;
    rWr = dot(r, Wr, n);
    const beta = rWr / old;
    for (let j = 0; j < n; j++) dir[j] = r[j] + beta * dir[j];
    error = 0;
    let verified = true;
    for (let j = 0; j < n;) {
      const nb = p.resolutions[j]?.nbLines ?? 1;
      let e2 = 0;
      for (let l = j; l < j + nb; l++) e2 += r[l] * r[l];
      if (!(e2 < tol * tol)) verified = false;
      error += Math.sqrt(e2);
      j += nb;
    }
    if (o.allVerified ? verified : error < tol && i > 0) {
      converged = true;
      break;
    }
    for (let j = 0; j < n; j++) Wp[j] = Wr[j] + beta * Wp[j];
  }
  for (let j = 0; j < n; j++) force[j] *= s[j];
  return { iterations: it, error, converged, badDiagonal: -1 };
}
