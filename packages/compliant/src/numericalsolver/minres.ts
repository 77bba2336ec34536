import type { LinearOperator } from '@sofa-ts/linalg';

/** Scratch vectors of MINRES, kept by the solver and reused. */
export class MinresWorkspace {
  n = 0;
  r = new Float64Array(0);
  vPrev = new Float64Array(0);
  v = new Float64Array(0);
  p = new Float64Array(0);
  w2 = new Float64Array(0);
  w1 = new Float64Array(0);
  w = new Float64Array(0);

  ensure(n: number): this {
    if (this.n !== n) {
      this.n = n;
      for (const k of ['r', 'vPrev', 'v', 'p', 'w2', 'w1', 'w'] as const) this[k] = new Float64Array(n);
    }
    return this;
  }
}

export interface KrylovResult {
  iterations: number;
  /** Residual norm |b − A·x| (estimated by the recurrence for MINRES). */
  residual: number;
}

/**
 * MINRES (Paige & Saunders, "Solution of sparse indefinite systems of linear equations", SIAM J.
 * Numer. Anal. 12(4), 1975) for a symmetric, possibly indefinite, operator A: x minimizes |b − A·x|
 * over x₀ + K_k(A, r₀). Lanczos builds the basis v_k (A·v_k = β_k·v_{k−1} + α_k·v_k + β_{k+1}·v_{k+1}),
 * Givens rotations (γ, σ) keep the QR factorization of the tridiagonal matrix, and the search
 * directions w_k = (v_k − ρ₃·w_{k−2} − ρ₂·w_{k−1})/ρ₁ update x += γ·η·w_k; |η| is the residual norm.
 * x (n) holds the initial guess and receives the solution. Stops when |η| ≤ tolerance (absolute)
 * or after maxIterations. No allocation.
 */
export function minres(
  apply: LinearOperator,
  b: Float64Array,
  x: Float64Array,
  maxIterations: number,
  tolerance: number,
  ws: MinresWorkspace,
  out: KrylovResult,
): KrylovResult {
  const n = b.length;
  ws.ensure(n);
  let { vPrev, v, p, w2, w1, w } = ws;
  const r = ws.r;
  apply(r, x);
  let beta = 0;
  for (let i = 0; i < n; i++) {
    r[i] = b[i] - r[i];
    beta += r[i] * r[i];
  }
  beta = Math.sqrt(beta);
  out.iterations = 0;
  out.residual = beta;
  if (beta <= tolerance || beta === 0) return out;
  vPrev.fill(0);
  w2.fill(0);
  w1.fill(0);
  for (let i = 0; i < n; i++) v[i] = r[i] / beta;
  let eta = beta;
  let cPrev = 1,
    c = 1,
    sPrev = 0,
    s = 0;
  for (let k = 1; k <= maxIterations; k++) {
    // Lanczos step: p = A·v − α·v − β·v_prev
    apply(p, v);
    let alpha = 0;
    for (let i = 0; i < n; i++) alpha += v[i] * p[i];
    let betaNext = 0;
    for (let i = 0; i < n; i++) {
      const pi = p[i] - alpha * v[i] - beta * vPrev[i];
      p[i] = pi;
      betaNext += pi * pi;
    }
    betaNext = Math.sqrt(betaNext);
    // QR of the new tridiagonal column: previous rotations, then a new one
    const delta = c * alpha - cPrev * s * beta;
    const rho1 = Math.hypot(delta, betaNext);
    const rho2 = s * alpha + cPrev * c * beta;
    const rho3 = sPrev * beta;
    out.iterations = k;
    if (rho1 === 0) break;
    const cNew = delta / rho1;
    const sNew = betaNext / rho1;
    for (let i = 0; i < n; i++) {
      const wi = (v[i] - rho3 * w2[i] - rho2 * w1[i]) / rho1;
      w[i] = wi;
      x[i] += cNew * eta * wi;
    }
    eta = -sNew * eta;
    out.residual = Math.abs(eta);
    // shift the recurrences
    [w2, w1, w] = [w1, w, w2];
    [vPrev, v, p] = [v, p, vPrev];
    if (betaNext > 0) for (let i = 0; i < n; i++) v[i] /= betaNext;
    beta = betaNext;
    cPrev = c;
    sPrev = s;
    c = cNew;
    s = sNew;
    if (out.residual <= tolerance || betaNext === 0) break;
  }
  Object.assign(ws, { vPrev, v, p, w2, w1, w });
  return out;
}
