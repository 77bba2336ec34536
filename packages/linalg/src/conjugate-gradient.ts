import { axpy, aypx, copy, dot, fill, sub } from './vector-ops.js';

/** out = A p: the operator of the system (an assembled spmv or a matrix-free product). */
export type LinearOperator = (out: Float64Array, p: Float64Array) => void;

/** out = M⁻¹ r: a preconditioner application. */
export type Preconditioner = (out: Float64Array, r: Float64Array) => void;

/** Parameters of {@link conjugateGradient} (names follow SOFA's CGLinearSolver data). */
export interface CgParams {
  /** Maximum number of iterations (SOFA `iterations`). */
  maxIterations: number;
  /** Stop when |r|/|b| <= tolerance (SOFA `tolerance`). */
  tolerance: number;
  /** Stop when |pᵀAp| <= threshold (SOFA `threshold`, the small-denominator threshold). */
  threshold: number;
  /** Start from the given x (r = b − A x) instead of x = 0 (SOFA `warmStart`). */
  warmStart: boolean;
  /**
   * True for the very first solve of this solver instance (SOFA `timeStepCount == 0`). On that
   * solve, meeting the tolerance or the threshold at iteration 1 does not stop the iteration
   * (SOFA only warns that the parameter may be too loose). Ignored by the preconditioned variant.
   */
  firstSolve: boolean;
  /**
   * The scalar product of two vectors of the system, when its summation order matters (SOFA's
   * matrix-free vectors sum each node's components first, then the nodes: see
   * MechanicalSystem.dot). Default: the plain sum in index order, as SOFA's assembled vectors.
   * Truncated CG (a threshold or iteration cap stopping it well before convergence) can turn the
   * last-bit difference of another order into visible differences after many steps.
   */
  dot?: (a: Float64Array, b: Float64Array) => number;
  /**
   * Vectors and operations of the iterations in a kernel (a WebAssembly one over its memory), used
   * instead of the workspace and `apply` inside the loop: the same operations in the same order, so
   * the same iterates bit for bit. Its dots sum as `dot` does when `dot` is given (in index order
   * otherwise); `dot` and `apply` still compute |b| and the warm start's residual.
   */
  kernel?: CgKernel;
}

/** The iteration vectors and operations of a conjugate gradient run elsewhere (conjugateGradient's `kernel`). */
export interface CgKernel {
  /** (n) the iterate x, the residual r, the direction p and its product q. */
  readonly x: Float64Array;
  readonly r: Float64Array;
  readonly p: Float64Array;
  readonly q: Float64Array;
  /** p = p·β + r */
  direction(beta: number): void;
  /** q = A·p; returns p·q (summed as conjugateGradient's `dot`, or in index order) */
  productDot(): number;
  /** x += p·α, r += q·(−α); returns r·r (summed likewise) */
  update(alpha: number): number;
  /**
   * The whole loop of kernelIterations with these operations, run by the kernel itself (one call
   * per solve): returns the iteration counter at exit and sets result.residual and result.reason.
   */
  iterate?(rho0: number, normb: number, params: CgParams, result: CgResult): number;
  /** r·r summed as productDot's dots (optional: the loop's first ρ and, without warm start, |b|²). */
  residualDot?(): number;
}

/** Why the iteration stopped. */
export type CgStopReason = 'tolerance' | 'threshold' | 'iterations' | 'zero-rhs' | 'zero-denominator';

/** Outcome of a CG solve. */
export interface CgResult {
  /** SOFA's iteration counter at exit (maxIterations when the loop ran to completion; 0 for b = 0). */
  iterations: number;
  /** Last relative residual |r|/|b| computed (at the start of the last iteration); 0 for b = 0. */
  residual: number;
  reason: CgStopReason;
}

/** Scratch vectors of the CG solvers, kept by the caller and reused across solves. */
export class CgWorkspace {
  /** System size. */
  n: number;
  /** (n) residual r */
  r: Float64Array;
  /** (n) search direction p */
  p: Float64Array;
  /** (n) q = A p */
  q: Float64Array;
  /** (n) preconditioned residual z = M⁻¹ r (PCG only) */
  z: Float64Array;
  /** Result object reused by the solvers (overwritten by every solve). */
  readonly result: CgResult = { iterations: 0, residual: 0, reason: 'iterations' };

  constructor(n: number) {
    this.n = n;
    this.r = new Float64Array(n);
    this.p = new Float64Array(n);
    this.q = new Float64Array(n);
    this.z = new Float64Array(n);
  }

  /** Resizes the buffers if n changed (allocates only then). */
  ensureSize(n: number): this {
    if (n !== this.n) {
      this.n = n;
      this.r = new Float64Array(n);
      this.p = new Float64Array(n);
      this.q = new Float64Array(n);
      this.z = new Float64Array(n);
    }
    return this;
  }
}

/**
 * Conjugate gradient for A x = b with A symmetric positive definite, reproducing SOFA's
 * CGLinearSolver step for step (same operation order, same stopping rules, same counters):
 *
 *  1. Initial residual: with warm start r = b − A x; otherwise x is cleared and r = b.
 *  2. If |b| = 0 nothing is iterated (x is 0, or the warm-start x is kept); iterations = 0.
 *  3. For it = 1, 2, …, maxIterations:
 *     - ρ = r·r and err = √ρ / |b|. If err <= tolerance, stop ("tolerance"), except at it = 1 of
 *       the first solve, where the iteration carries on.
 *     - Direction: p = r at it = 1, otherwise p = p·(ρ/ρ_prev) + r.
 *     - q = A p and den = p·q. If den = 0, stop ("zero-denominator"). If |den| <= threshold, stop
 *       ("threshold"), with the same first-solve exception at it = 1.
 *     - α = ρ/den; x += α p; r −= α q; ρ_prev = ρ.
 *  4. `iterations` is the loop counter at exit (a stop during iteration k reports k, having made
 *     k − 1 updates of x); when the loop runs out it reports maxIterations. `residual` is the last
 *     err computed.
 *
 * `x` (n) is read (warm start) and overwritten; `b` (n) is not modified. b and x must not alias.
 * Returns `result` (by default the workspace's reused object, overwritten by the next solve).
 * No allocation. Dot products sum in index order unless `params.dot` gives SOFA's order (its
 * matrix-free vectors sum each node's components first): then the products match SOFA's bit for bit.
 */
export function conjugateGradient(
  apply: LinearOperator,
  b: Float64Array,
  x: Float64Array,
  params: CgParams,
  ws: CgWorkspace,
  result: CgResult = ws.result,
): CgResult {
  const n = b.length;
  if (ws.n !== n || x.length !== n) throw new Error(`conjugateGradient: size mismatch (b ${n}, x ${x.length}, workspace ${ws.n})`);
  const vdot = params.dot;
  const kernel = params.kernel;
  if (kernel && kernel.r.length !== n) throw new Error(`conjugateGradient: size mismatch (b ${n}, kernel ${kernel.r.length})`);
  const { r, p, q } = kernel ?? ws;
  const xs = kernel?.x ?? x;
  const { maxIterations, tolerance, threshold, firstSolve } = params;

  if (params.warmStart) {
    apply(r, x);
    sub(r, b, r); // r = b − A x
    if (kernel) xs.set(x);
  } else {
    fill(x, 0);
    fill(xs, 0);
    copy(r, b);
  }
  // |b|² and r·r: the same vector unless warm-started (the kernel's dot sums as `dot` does)
  const rr = kernel?.residualDot && !params.warmStart ? kernel.residualDot() : undefined;
  const normb = Math.sqrt(rr ?? (vdot ? vdot(b, b) : dot(b, b)));
  result.iterations = 0;
  result.residual = 0;
  result.reason = 'zero-rhs';
  if (normb === 0) return result;

  result.reason = 'iterations';
  let rhoPrev = 0;
  // r·r of the current r: computed with the update of r below (same products, same order)
  let rhoNext = rr ?? (vdot ? vdot(r, r) : dot(r, r));
  if (kernel) {
    const it = kernel.iterate ? kernel.iterate(rhoNext, normb, params, result) : kernelIterations(kernel, rhoNext, normb, params, result);
    x.set(xs);
    result.iterations = it > maxIterations ? maxIterations : it;
    return result;
  }
  let it = 1;
  for (; it <= maxIterations; it++) {
    const rho = rhoNext;
    const err = Math.sqrt(rho) / normb;
    result.residual = err;
    if (err <= tolerance && !(it === 1 && firstSolve)) {
      result.reason = 'tolerance';
      break;
    }
    if (it === 1) copy(p, r);
    else aypx(p, rho / rhoPrev, r); // p = p β + r
    apply(q, p);
    const den = vdot ? vdot(p, q) : dot(p, q);
    if (den === 0) {
      result.reason = 'zero-denominator';
      break;
    }
    if (Math.abs(den) <= threshold && !(it === 1 && firstSolve)) {
      result.reason = 'threshold';
      break;
    }
    const alpha = rho / den;
    // x += α p; r −= α q; and r·r for the next iteration, in one pass
    const nalpha = -alpha;
    if (vdot) {
      for (let i = 0; i < n; i++) {
        x[i] += p[i] * alpha;
        r[i] += q[i] * nalpha;
      }
      rhoNext = vdot(r, r);
    } else {
      let rr = 0;
      for (let i = 0; i < n; i++) {
        x[i] += p[i] * alpha;
        const ri = (r[i] += q[i] * nalpha);
        rr += ri * ri;
      }
      rhoNext = rr;
    }
    rhoPrev = rho;
  }
  result.iterations = it > maxIterations ? maxIterations : it;
  return result;
}

/** The loop of conjugateGradient with the kernel's vectors and operations; returns the iteration counter at exit. */
function kernelIterations(k: CgKernel, rho0: number, normb: number, params: CgParams, result: CgResult): number {
  const { maxIterations, tolerance, threshold, firstSolve } = params;
  let rhoPrev = 0;
  let rhoNext = rho0;
  let it = 1;
  for (; it <= maxIterations; it++) {
    const rho = rhoNext;
    const err = Math.sqrt(rho) / normb;
    result.residual = err;
    if (err <= tolerance && !(it === 1 && firstSolve)) {
      result.reason = 'tolerance';
      break;
    }
    if (it === 1) copy(k.p, k.r);
    else k.direction(rho / rhoPrev); // p = p β + r
    const den = k.productDot();
    if (den === 0) {
      result.reason = 'zero-denominator';
      break;
    }
    if (Math.abs(den) <= threshold && !(it === 1 && firstSolve)) {
      result.reason = 'threshold';
      break;
    }
    rhoNext = k.update(rho / den); // x += α p; r −= α q; r·r
    rhoPrev = rho;
  }
  return it;
}

/** Parameters of {@link preconditionedConjugateGradient}. */
export type PcgParams = Omit<CgParams, 'firstSolve'>;

/**
 * Preconditioned conjugate gradient (textbook PCG) for SPD A and SPD preconditioner M:
 *  r = b − A x (warm start) or x = 0, r = b; stop at once if |b| = 0.
 *  For it = 1..maxIterations: err = |r|/|b|, stop if err <= tolerance; z = M⁻¹ r; ρ = r·z;
 *  p = z (it = 1) or p = p·(ρ/ρ_prev) + z; q = A p; den = p·q; stop if den = 0 or |den| <= threshold;
 *  α = ρ/den; x += α p; r −= α q.
 * Same result conventions as {@link conjugateGradient}. Uses ws.z as well. No allocation.
 */
export function preconditionedConjugateGradient(
  apply: LinearOperator,
  applyPreconditioner: Preconditioner,
  b: Float64Array,
  x: Float64Array,
  params: PcgParams,
  ws: CgWorkspace,
  result: CgResult = ws.result,
): CgResult {
  const n = b.length;
  if (ws.n !== n || x.length !== n)
    throw new Error(`preconditionedConjugateGradient: size mismatch (b ${n}, x ${x.length}, workspace ${ws.n})`);
  const { r, p, q, z } = ws;
  const { maxIterations, tolerance, threshold } = params;

  if (params.warmStart) {
    apply(r, x);
    sub(r, b, r);
  } else {
    fill(x, 0);
    copy(r, b);
  }
  const normb = Math.sqrt(dot(b, b));
  result.iterations = 0;
  result.residual = 0;
  result.reason = 'zero-rhs';
  if (normb === 0) return result;

  result.reason = 'iterations';
  let rhoPrev = 0;
  let it = 1;
  for (; it <= maxIterations; it++) {
    const err = Math.sqrt(dot(r, r)) / normb;
    result.residual = err;
    if (err <= tolerance) {
      result.reason = 'tolerance';
      break;
    }
    applyPreconditioner(z, r);
    const rho = dot(r, z);
    if (it === 1) copy(p, z);
    else aypx(p, rho / rhoPrev, z);
    apply(q, p);
    const den = dot(p, q);
    if (den === 0) {
      result.reason = 'zero-denominator';
      break;
    }
    if (Math.abs(den) <= threshold) {
      result.reason = 'threshold';
      break;
    }
    const alpha = rho / den;
    axpy(x, alpha, p);
    axpy(r, -alpha, q);
    rhoPrev = rho;
  }
  result.iterations = it > maxIterations ? maxIterations : it;
  return result;
}
