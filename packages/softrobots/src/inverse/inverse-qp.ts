import { DenseQpSolver, type DenseQpStatus } from '@sofa-ts/linalg';
import { ACTUATOR, EFFECTOR, EQUALITY, type InverseRows } from './inverse-rows.js';

/**
 * The quadratic program of the real-time inverse method (Step II), posed on the constraint problem
 * δ = δ_free + W·λ of a step. With v the rows whose λ is unknown (actuators, equalities) and e the
 * effector rows (λ_e = 0), Ω = diag(weight_e):
 *
 *   min_λv  ½ λvᵀ (W_evᵀ Ω W_ev + s · D W_vv D) λv + λvᵀ W_evᵀ Ω δe_free            (eq. 5)
 *   s.t.    lambdaMin ≤ λv ≤ lambdaMax                               (box on the actuators' forces)
 *           deltaMin − δa_free ≤ W_av λv ≤ deltaMax − δa_free         (actuators' displacements)
 *           W_qv λv = target − δq_free                                (equalities on displacements)
 *
 * The first term is ½‖δe‖²_Ω less a constant: the effectors are brought to their goals in the
 * least-squares sense. The second is the deformation energy λvᵀ W_vv λv, weighted by ε so that
 * it only picks one solution among the minimisers of the first (the paper's regularisation, which
 * makes the problem strictly convex when the actuators outnumber the effector directions):
 * D = diag(√ε_j), ε_j the actuator's own epsilon where set, else the solver's, and
 * s = ‖W_evᵀΩW_ev‖_F / ‖W_vv‖_F makes ε relative, as the paper's ε·‖WᵀW‖/‖W_aa‖ (s = 1 when there
 * is no effector, e.g. `actuatorsOnly`). With ε = 0 the QP is only semi-definite when there are more
 * actuators than effector directions; the dense active-set solver handles that (one solution).
 *
 * Matrices are built in buffers kept between steps; the QP solver is kept while the shape
 * (unknowns, equalities, inequalities) is unchanged and warm-started from the previous working set.
 */
export class InverseQp {
  /** The solver's ε (epsilon Data). */
  epsilon = 1e-3;
  // ---- results (sized n; valid after solve) ----
  lambda: Float64Array = new Float64Array(0);
  delta: Float64Array = new Float64Array(0);
  /** ½‖δe‖²_Ω + ½·energy term at the solution. */
  objective = 0;
  iterations = 0;
  status: DenseQpStatus = 'optimal';
  /** Number of unknowns, equalities and inequalities of the last QP. */
  shape = { unknowns: 0, equalities: 0, inequalities: 0 };

  private v = new Int32Array(0);
  private e = new Int32Array(0);
  private ineq = new Int32Array(0);
  private eq = new Int32Array(0);
  private Q: Float64Array = new Float64Array(0);
  private c: Float64Array = new Float64Array(0);
  private Aeq: Float64Array = new Float64Array(0);
  private beq: Float64Array = new Float64Array(0);
  private Ain: Float64Array = new Float64Array(0);
  private lin: Float64Array = new Float64Array(0);
  private uin: Float64Array = new Float64Array(0);
  private lb: Float64Array = new Float64Array(0);
  private ub: Float64Array = new Float64Array(0);
  private sqrtEps: Float64Array = new Float64Array(0);
  private solver: DenseQpSolver | undefined;

  /**
   * Solves the inverse QP of the problem (W n × n row-major, δ_free) and the rows' roles. On return
   * lambda holds λ of every row (0 on effector and other rows) and delta = δ_free + W·λ.
   * `start` (λ of every row), when given, is the QP's starting point instead of the previous
   * step's solution (with an empty working set).
   */
  solve(W: Float64Array, dfree: Float64Array, n: number, rows: InverseRows, maxIterations = 0, tolerance = 1e-10, start?: Float64Array): DenseQpStatus {
    this.partition(rows, n);
    const nv = this.v.length, ne = this.e.length, mi = this.ineq.length, me = this.eq.length;
    this.shape = { unknowns: nv, equalities: me, inequalities: mi };
    if (this.lambda.length !== n) {
      this.lambda = new Float64Array(n);
      this.delta = new Float64Array(n);
    }
    this.lambda.fill(0);
    this.iterations = 0;
    this.status = 'optimal';
    if (nv > 0) {
      this.buildQp(W, dfree, n, rows);
      let solver = this.solver;
      let warm = solver !== undefined && solver.n === nv && solver.meq === me && solver.mIn === mi;
      if (!warm) solver = this.solver = new DenseQpSolver(nv, me, mi);
      const qp = solver!;
      if (start) {
        for (let k = 0; k < nv; k++) qp.x[k] = start[this.v[k]!]!;
        qp.activeIn.fill(0);
        qp.activeBound.fill(0);
        warm = true;
      }
      qp.maxIterations = maxIterations > 0 ? maxIterations : 100 + 10 * (2 * nv + me + mi);
      qp.feasibilityTolerance = tolerance;
      qp.optimalityTolerance = tolerance;
      this.status = qp.solve(
        { Q: this.Q, c: this.c, Aeq: this.Aeq, beq: this.beq, Ain: this.Ain, lin: this.lin, uin: this.uin, lb: this.lb, ub: this.ub },
        warm,
      );
      this.iterations = qp.iterations;
      if (this.status === 'optimal') for (let k = 0; k < nv; k++) this.lambda[this.v[k]!] = qp.x[k]!;
    }
    // δ = δ_free + W·λ on every row
    const lam = this.lambda, d = this.delta, v = this.v;
    for (let i = 0; i < n; i++) {
      let s = dfree[i]!;
      const r = i * n;
      for (let k = 0; k < nv; k++) s += W[r + v[k]!]! * lam[v[k]!]!;
      d[i] = s;
    }
    let obj = 0;
    for (let k = 0; k < ne; k++) {
      const i = this.e[k]!;
      obj += 0.5 * rows.weight[i]! * d[i]! * d[i]!;
    }
    if (nv > 0 && this.status === 'optimal') {
      // + ½ λᵀ(s·D W D)λ: the QP's objective less its effector part
      const x = this.solver!.x;
      let quad = 0, lin = 0;
      for (let a = 0; a < nv; a++) {
        lin += this.c[a]! * x[a]!;
        for (let b = 0; b < nv; b++) quad += x[a]! * this.Q[a * nv + b]! * x[b]!;
      }
      let e0 = 0;
      for (let k = 0; k < ne; k++) {
        const i = this.e[k]!;
        e0 += 0.5 * rows.weight[i]! * dfree[i]! * dfree[i]!;
      }
      // QP objective + ½δe_freeᵀΩδe_free = ½‖δe‖²_Ω + energy part
      obj = 0.5 * quad + lin + e0;
    }
    this.objective = obj;
    return this.status;
  }

  /** The unknowns v (actuators, equalities whose λ is free or fixed), effectors e, and the rows of the linear constraints. */
  private partition(rows: InverseRows, n: number): void {
    let nv = 0, ne = 0, mi = 0, me = 0;
    for (let i = 0; i < n; i++) {
      const r = rows.role[i];
      if (r === ACTUATOR || r === EQUALITY) nv++;
      else if (r === EFFECTOR) ne++;
      if (r === ACTUATOR && (Number.isFinite(rows.deltaMin[i]!) || Number.isFinite(rows.deltaMax[i]!))) mi++;
      if (r === EQUALITY && !Number.isNaN(rows.target[i]!)) me++;
    }
    if (this.v.length !== nv) this.v = new Int32Array(nv);
    if (this.e.length !== ne) this.e = new Int32Array(ne);
    if (this.ineq.length !== mi) this.ineq = new Int32Array(mi);
    if (this.eq.length !== me) this.eq = new Int32Array(me);
    nv = ne = mi = me = 0;
    for (let i = 0; i < n; i++) {
      const r = rows.role[i];
      if (r === ACTUATOR || r === EQUALITY) this.v[nv++] = i;
      else if (r === EFFECTOR) this.e[ne++] = i;
      if (r === ACTUATOR && (Number.isFinite(rows.deltaMin[i]!) || Number.isFinite(rows.deltaMax[i]!))) this.ineq[mi++] = i;
      if (r === EQUALITY && !Number.isNaN(rows.target[i]!)) this.eq[me++] = i;
    }
  }

  private buildQp(W: Float64Array, dfree: Float64Array, n: number, rows: InverseRows): void {
    const v = this.v, e = this.e, nv = v.length, ne = e.length;
    const Q = (this.Q = grow(this.Q, nv * nv));
    const c = (this.c = grow(this.c, nv));
    // H = W_evᵀ Ω W_ev (W is symmetric: W_ev[k][a] = W[e_k][v_a]), c = W_evᵀ Ω δe_free
    Q.fill(0);
    c.fill(0);
    for (let k = 0; k < ne; k++) {
      const ek = e[k]!, w = rows.weight[ek]!, r = ek * n;
      for (let a = 0; a < nv; a++) {
        const wa = w * W[r + v[a]!]!;
        if (wa === 0) continue;
        c[a] += wa * dfree[ek]!;
        for (let b = a; b < nv; b++) Q[a * nv + b] += wa * W[r + v[b]!]!;
      }
    }
    for (let a = 0; a < nv; a++) for (let b = a + 1; b < nv; b++) Q[b * nv + a] = Q[a * nv + b]!;
    // + s · D W_vv D
    const sq = (this.sqrtEps = grow(this.sqrtEps, nv));
    let hNorm = 0, wNorm = 0;
    for (let a = 0; a < nv; a++) {
      const eps = rows.epsilon[v[a]!]!;
      sq[a] = Math.sqrt(Math.max(0, Number.isNaN(eps) ? this.epsilon : eps));
      for (let b = 0; b < nv; b++) {
        hNorm += Q[a * nv + b]! * Q[a * nv + b]!;
        const wab = W[v[a]! * n + v[b]!]!;
        wNorm += wab * wab;
      }
    }
    const s = ne === 0 ? 1 : wNorm > 0 ? Math.sqrt(hNorm / wNorm) : 0;
    if (s > 0) {
      for (let a = 0; a < nv; a++) {
        if (sq[a] === 0) continue;
        for (let b = 0; b < nv; b++) Q[a * nv + b] += s * sq[a]! * W[v[a]! * n + v[b]!]! * sq[b]!;
      }
    }
    // bounds on λ
    const lb = (this.lb = grow(this.lb, nv)), ub = (this.ub = grow(this.ub, nv));
    for (let a = 0; a < nv; a++) {
      lb[a] = rows.lambdaMin[v[a]!]!;
      ub[a] = rows.lambdaMax[v[a]!]!;
    }
    // displacement bounds of actuators, equalities of equality rows
    const mi = this.ineq.length, me = this.eq.length;
    const Ain = (this.Ain = grow(this.Ain, mi * nv)), lin = (this.lin = grow(this.lin, mi)), uin = (this.uin = grow(this.uin, mi));
    for (let k = 0; k < mi; k++) {
      const i = this.ineq[k]!;
      for (let a = 0; a < nv; a++) Ain[k * nv + a] = W[i * n + v[a]!]!;
      lin[k] = rows.deltaMin[i]! - dfree[i]!;
      uin[k] = rows.deltaMax[i]! - dfree[i]!;
    }
    const Aeq = (this.Aeq = grow(this.Aeq, me * nv)), beq = (this.beq = grow(this.beq, me));
    for (let k = 0; k < me; k++) {
      const i = this.eq[k]!;
      for (let a = 0; a < nv; a++) Aeq[k * nv + a] = W[i * n + v[a]!]!;
      beq[k] = rows.target[i]! - dfree[i]!;
    }
  }
}

/** A buffer of exactly `size` numbers (a new one only when the size changed). */
function grow(buf: Float64Array, size: number): Float64Array {
  return buf.length === size ? buf : new Float64Array(size);
}
