import type { LinearOperator } from '@sofa-ts/linalg';

/** Scratch vectors of {@link minres} for systems of size n (allocated once per size). */
export class MinresWorkspace {
  readonly r1: Float64Array;
  readonly r2: Float64Array;
  readonly y: Float64Array;
  readonly v: Float64Array;
  readonly w: Float64Array;
  readonly w1: Float64Array;
  readonly w2: Float64Array;
  constructor(readonly n: number) {
    this.r1 = new Float64Array(n);
    this.r2 = new Float64Array(n);
    this.y = new Float64Array(n);
    this.v = new Float64Array(n);
    this.w = new Float64Array(n);
    this.w1 = new Float64Array(n);
    this.w2 = new Float64Array(n);
  }
}

export interface MinresResult {
  iterations: number;
  /** Estimate of |b − A·x| at exit. */
  residual: number;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/**
 * MINRES (Paige & Saunders 1975) for a symmetric, possibly indefinite A: the Lanczos process builds
 * an orthonormal basis v_k of the Krylov space of r₀ = b − A·x₀ with the tridiagonal T_k = Vᵀ·A·V,
 * and x_k minimises |b − A·x| over x₀ + span(v_1..v_k) through a QR factorisation of T_k by Givens
 * rotations, updated one column per iteration (three-term recurrences, no stored basis).
 * x holds the initial guess on entry and the solution on exit. Stops, as SOFA's MinResLinearSolver
 * does, when |r|/(|A|·|x|) <= tol or |A·r|/(|A|·|r|) <= tol (|A| estimated by the Frobenius norm
 * of T_k), when the condition estimate reaches 0.1/ε, when |A|·ε·|x| >= |r₀|, or after maxIter.
 */
export function minres(
  A: LinearOperator,
  b: Float64Array,
  x: Float64Array,
  maxIter: number,
  tol: number,
  ws: MinresWorkspace,
  out: MinresResult,
): MinresResult {
  const eps = Number.EPSILON;
  const n = b.length;
  let { r1, r2 } = ws;
  let { w1, w2 } = ws;
  const { y, v } = ws;
  let w = ws.w;
  // r1 = b − A·x
  A(r1, x);
  for (let i = 0; i < n; i++) r1[i] = b[i] - r1[i];
  let beta1 = dot(r1, r1);
  out.iterations = 0;
  out.residual = Math.sqrt(beta1);
  if (!(beta1 > 0)) return out;
  beta1 = Math.sqrt(beta1);
  y.set(r1);
  let oldb = 0;
  let beta = beta1;
  let dbar = 0;
  let epsln = 0;
  let phibar = beta1;
  let tnorm2 = 0;
  let cs = -1;
  let sn = 0;
  let gmax = 0;
  let gmin = Number.MAX_VALUE;
  w1.fill(0);
  w2.fill(0);
  let itn = 0;
  for (; itn < maxIter; itn++) {
    // Lanczos: v = y/β_k;  y = A·v − (β_k/β_{k−1})·r1 − (α_k/β_k)·r2
    r2.set(y);
    const s = 1 / beta;
    for (let i = 0; i < n; i++) v[i] = s * y[i];
    A(y, v);
    if (itn > 0) {
      const c = beta / oldb;
      for (let i = 0; i < n; i++) y[i] = y[i] - c * r1[i];
    }
    const alpha = dot(v, y);
    const c2 = alpha / beta;
    for (let i = 0; i < n; i++) y[i] = y[i] - c2 * r2[i];
    const t = r1;
    r1 = r2;
    r2 = t;
    oldb = beta;
    beta = dot(y, y);
    if (beta < 0) break;
    beta = Math.sqrt(beta);
    tnorm2 += alpha * alpha + oldb * oldb + beta * beta;
    // Previous rotation on the new column of T: [δ ε_{k+1}; γ̄ δ̄_{k+1}]
    const oldeps = epsln;
    const delta = cs * dbar + sn * alpha;
    const gbar = sn * dbar - cs * alpha;
    epsln = sn * beta;
    dbar = -cs * beta;
    const root = Math.hypot(gbar, dbar);
    // New rotation Q_k annihilating β_{k+1}
    const gamma = Math.max(Math.hypot(gbar, beta), eps);
    cs = gbar / gamma;
    sn = beta / gamma;
    const phi = cs * phibar;
    phibar = sn * phibar;
    // w_k = (v_k − ε_k·w_{k−2} − δ_k·w_{k−1}) / γ_k;  x += φ_k·w_k
    const ig = 1 / gamma;
    for (let i = 0; i < n; i++) w[i] = (v[i] - oldeps * w2[i] - delta * w1[i]) * ig;
    for (let i = 0; i < n; i++) x[i] = x[i] + phi * w[i];
    const tw = w2;
    w2 = w1;
    w1 = w;
    w = tw;
    if (itn === 0 && beta / beta1 < 10 * eps) {
      itn++;
      break;
    }
    const Anorm = Math.sqrt(tnorm2);
    const ynorm = Math.sqrt(dot(x, x));
    const test1 = phibar / (Anorm * ynorm);
    const test2 = root / Anorm;
    gmax = Math.max(gmax, gamma);
    gmin = Math.min(gmin, gamma);
    if (
      test1 <= 0 ||
      test2 <= 0 ||
      itn >= maxIter - 1 ||
      gmax / gmin >= 0.1 / eps ||
      Anorm * eps * ynorm >= beta1 ||
      test2 <= tol ||
      test1 <= tol
    ) {
      itn++;
      break;
    }
  }
  out.iterations = itn;
  out.residual = phibar;
  return out;
}
