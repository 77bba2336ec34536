/**
 * Helpers for the QP specs (not exported from the package): random problems that are feasible by
 * construction, and the KKT residuals of a claimed solution, measured from the problem data alone.
 */
import type { DenseQpProblem } from './dense-qp.js';

export interface QpShape {
  n: number;
  meq: number;
  mIn: number;
}

export interface RandomQpOptions {
  /** Rank of the B in Q = BᵀB + mu·I (n: full). */
  rank?: number;
  /** Added multiple of the identity (0: semi-definite when rank < n). */
  mu?: number;
  /** Fraction of finite bounds on x (each side drawn separately). */
  boundFraction?: number;
  /** Scale of the linear cost (large: the optimum sits on many constraints). */
  costScale?: number;
}

/** A random problem of the given shape whose constraints all hold at a random point x_feas. */
export function randomQp(r: () => number, shape: QpShape, opts: RandomQpOptions = {}): DenseQpProblem {
  const { n, meq, mIn } = shape;
  const rank = opts.rank ?? n;
  const mu = opts.mu ?? 0.1;
  const boundFraction = opts.boundFraction ?? 0.7;
  const costScale = opts.costScale ?? 3;
  const s = () => 2 * r() - 1;
  const B = Array.from({ length: rank * n }, s);
  const Q = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let v = i === j ? mu : 0;
      for (let k = 0; k < rank; k++) v += B[k * n + i] * B[k * n + j];
      Q[i * n + j] = v;
    }
  }
  const c = Float64Array.from({ length: n }, () => costScale * s());
  const xf = Float64Array.from({ length: n }, s);
  const Aeq = Float64Array.from({ length: meq * n }, s);
  const beq = new Float64Array(meq);
  for (let i = 0; i < meq; i++) beq[i] = dotRow(Aeq, i, n, xf);
  const Ain = Float64Array.from({ length: mIn * n }, s);
  const lin = new Float64Array(mIn);
  const uin = new Float64Array(mIn);
  for (let i = 0; i < mIn; i++) {
    const v = dotRow(Ain, i, n, xf);
    const t = r();
    lin[i] = t < 0.35 ? v - r() : t < 0.7 ? -Infinity : v - 0.5 * r();
    uin[i] = t < 0.35 ? Infinity : t < 0.7 ? v + r() : v + 0.5 * r();
  }
  const lb = new Float64Array(n);
  const ub = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    lb[j] = r() < boundFraction ? xf[j] - 1.5 * r() : -Infinity;
    ub[j] = r() < boundFraction ? xf[j] + 1.5 * r() : Infinity;
  }
  return { Q, c, Aeq, beq, Ain, lin, uin, lb, ub };
}

export function dotRow(A: ArrayLike<number>, row: number, n: number, x: ArrayLike<number>): number {
  let s = 0;
  for (let j = 0; j < n; j++) s += A[row * n + j] * x[j];
  return s;
}

export function objectiveOf(pb: DenseQpProblem, n: number, x: ArrayLike<number>): number {
  let f = 0;
  for (let i = 0; i < n; i++) f += pb.c[i] * x[i] + 0.5 * x[i] * dotRow(pb.Q, i, n, x);
  return f;
}

export interface KktResiduals {
  /** ‖Qx + c + A_eqᵀy_eq + A_inᵀy_in + y_bound‖∞ / (1 + ‖c‖∞ + ‖Qx‖∞). */
  stationarity: number;
  /** Largest violation of a constraint. */
  primal: number;
  /** Largest multiplier of the wrong sign (y ≥ 0 at an upper end, ≤ 0 at a lower end). */
  dual: number;
  /** Largest |y|·slack of the side the multiplier's sign points to. */
  complementarity: number;
}

/** KKT residuals of (x, y) for pb under the sign convention Qx + c + Aᵀy = 0, y ≥ 0 at upper ends. */
export function kktResiduals(
  pb: DenseQpProblem,
  shape: QpShape,
  x: ArrayLike<number>,
  yEq: ArrayLike<number>,
  yIn: ArrayLike<number>,
  yB: ArrayLike<number>,
): KktResiduals {
  const { n, meq, mIn } = shape;
  const grad = new Float64Array(n);
  let scale = 1;
  for (let i = 0; i < n; i++) {
    const qx = dotRow(pb.Q, i, n, x);
    grad[i] = qx + pb.c[i] + yB[i];
    scale = Math.max(scale, Math.abs(qx) + Math.abs(pb.c[i]));
  }
  for (let k = 0; k < meq; k++) for (let i = 0; i < n; i++) grad[i] += pb.Aeq![k * n + i] * yEq[k];
  for (let k = 0; k < mIn; k++) for (let i = 0; i < n; i++) grad[i] += pb.Ain![k * n + i] * yIn[k];
  let stationarity = 0;
  for (let i = 0; i < n; i++) stationarity = Math.max(stationarity, Math.abs(grad[i]) / scale);
  let primal = 0,
    dual = 0,
    complementarity = 0;
  const side = (v: number, l: number, u: number, y: number): void => {
    primal = Math.max(primal, l - v, v - u);
    if (l === u) return;
    if (y > 0) {
      dual = Math.max(dual, u === Infinity ? y : 0);
      if (u < Infinity) complementarity = Math.max(complementarity, y * Math.abs(u - v));
    } else if (y < 0) {
      dual = Math.max(dual, l === -Infinity ? -y : 0);
      if (l > -Infinity) complementarity = Math.max(complementarity, -y * Math.abs(v - l));
    }
  };
  for (let k = 0; k < meq; k++) primal = Math.max(primal, Math.abs(dotRow(pb.Aeq!, k, n, x) - pb.beq![k]));
  for (let k = 0; k < mIn; k++) side(dotRow(pb.Ain!, k, n, x), pb.lin ? pb.lin[k] : -Infinity, pb.uin ? pb.uin[k] : Infinity, yIn[k]);
  for (let j = 0; j < n; j++) side(x[j], pb.lb ? pb.lb[j] : -Infinity, pb.ub ? pb.ub[j] : Infinity, yB[j]);
  return { stationarity, primal, dual, complementarity };
}

/**
 * How far `ray` is from proving pb unbounded: the largest of ‖A_eq r‖∞, ‖Q r‖∞, the steps r takes
 * out of a finite row end or bound (a r < 0 at a finite lower end, > 0 at a finite upper end), over
 * ‖r‖∞; and the slope cᵀr / ‖r‖, which must be negative. A ray with all of the first ≈ 0 and a
 * negative slope proves the objective decreases without end from any feasible point.
 */
export function rayCertificate(pb: DenseQpProblem, shape: QpShape, ray: ArrayLike<number>): { residual: number; slope: number } {
  const { n, meq, mIn } = shape;
  let rn = 0,
    slope = 0,
    residual = 0;
  for (let j = 0; j < n; j++) {
    rn = Math.max(rn, Math.abs(ray[j]));
    slope += pb.c[j] * ray[j];
  }
  for (let i = 0; i < n; i++) residual = Math.max(residual, Math.abs(dotRow(pb.Q, i, n, ray)));
  for (let k = 0; k < meq; k++) residual = Math.max(residual, Math.abs(dotRow(pb.Aeq!, k, n, ray)));
  const dir = (v: number, l: number, u: number): void => {
    if (l > -Infinity) residual = Math.max(residual, -v);
    if (u < Infinity) residual = Math.max(residual, v);
  };
  for (let k = 0; k < mIn; k++) dir(dotRow(pb.Ain!, k, n, ray), pb.lin ? pb.lin[k] : -Infinity, pb.uin ? pb.uin[k] : Infinity);
  for (let j = 0; j < n; j++) dir(ray[j], pb.lb ? pb.lb[j] : -Infinity, pb.ub ? pb.ub[j] : Infinity);
  return { residual: residual / rn, slope: slope / rn };
}
