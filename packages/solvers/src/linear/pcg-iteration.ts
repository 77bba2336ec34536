import type { LinearOperator, Preconditioner } from '@sofa-ts/linalg';

/** A dot product aᵀ·b (flat, or summed the way the state vectors group their entries). */
export type DotProduct = (a: Float64Array, b: Float64Array) => number;

/** Plain dot product in index order (SOFA's FullVector). */
export function flatDot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/**
 * Dot product summed as SOFA's MechanicalObject sums a vector of points: per state, per point the
 * products of its `derivSize` components, then the points in order, then the states in order.
 * `groups` lists (offset, length, derivSize) of each state in the global vector.
 */
export function groupedDot(groups: ReadonlyArray<{ offset: number; length: number; derivSize: number }>): DotProduct {
  return (a, b) => {
    let total = 0;
    for (const g of groups) {
      let s = 0;
      const end = g.offset + g.length;
      const d = g.derivSize;
      for (let i = g.offset; i < end; i += d) {
        let p = a[i] * b[i];
        for (let k = 1; k < d; k++) p += a[i + k] * b[i + k];
        s += p;
      }
      total += s;
    }
    return total;
  };
}

/** Scratch vectors of {@link sofaPcg}, kept by the solver and reused across solves. */
export class PcgWorkspace {
  n: number;
  /** (n) residual r = b − A·x */
  r: Float64Array;
  /** (n) search direction w */
  w: Float64Array;
  /** (n) s = A·w, then the preconditioned residual */
  s: Float64Array;
  constructor(n: number) {
    this.n = n;
    this.r = new Float64Array(n);
    this.w = new Float64Array(n);
    this.s = new Float64Array(n);
  }
}

/** Outcome of {@link sofaPcg}. */
export interface PcgResult {
  /** Number of updates of x made (loop passes). */
  iterations: number;
  /** √(rᵀ·z / bᵀ·b) at exit (z = M⁻¹r, or r without preconditioner); 0 when b = 0 and x = 0. */
  residual: number;
}

/**
 * The preconditioned conjugate gradient of SOFA's PCGLinearSolver, step for step:
 *   r = b − A·x   (x is the caller's vector: the previous solution is the initial guess)
 *   w = M⁻¹·r;  δ = rᵀ·w;  tol = tolerance·bᵀ·b
 *   it = 1; while it <= maxIterations and δ > tol:
 *       s = A·w;  α = δ / wᵀ·s;  x += α·w;  r −= α·s
 *       s = M⁻¹·r;  δ_old = δ;  δ = rᵀ·s;  w = s + (δ/δ_old)·w;  it++
 * The tolerance is on the squared, preconditioned ratio rᵀM⁻¹r / bᵀb (SOFA's). There is no guard
 * on wᵀ·s (SOFA has none). `precond` undefined means M = I. No allocation.
 */
export function sofaPcg(
  apply: LinearOperator,
  precond: Preconditioner | undefined,
  b: Float64Array,
  x: Float64Array,
  maxIterations: number,
  tolerance: number,
  ws: PcgWorkspace,
  result: PcgResult,
  dot: DotProduct = flatDot,
): PcgResult {
  const n = b.length;
  const { r, w, s } = ws;
  const bNorm = dot(b, b);
  const tol = tolerance * bNorm;
  // r = b − A·x
  apply(r, x);
  for (let i = 0; i < n; i++) r[i] = b[i] - r[i];
  if (precond) precond(w, r);
  else w.set(r);
  let delta = dot(r, w);
  let it = 1;
  while (it <= maxIterations && delta > tol) {
    apply(s, w);
    const alpha = delta / dot(w, s);
    for (let i = 0; i < n; i++) {
      x[i] = x[i] + alpha * w[i];
      r[i] = r[i] - alpha * s[i];
    }
    if (precond) precond(s, r);
    else s.set(r);
    const deltaOld = delta;
    delta = dot(r, s);
    const beta = delta / deltaOld;
    for (let i = 0; i < n; i++) w[i] = s[i] + beta * w[i];
    it++;
  }
  result.iterations = it - 1;
  result.residual = bNorm > 0 ? Math.sqrt(Math.abs(delta) / bNorm) : Math.sqrt(Math.abs(delta));
  return result;
}
