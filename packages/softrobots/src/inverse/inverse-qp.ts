import type { CheckpointReader, CheckpointRecord } from '@sofa-ts/core';
import { DenseQpSolver, type DenseQpStatus } from '@sofa-ts/linalg';
import { ACTUATOR, CONTACT, EFFECTOR, EQUALITY, type InverseRows } from './inverse-rows.js';

/** Contact statuses of the outer loop. */
const OPEN = 0;
const STICK = 1;
const SLIDE = 2;

/**
 * The quadratic program of the real-time inverse method (Step II), posed on the constraint problem
 * δ = δ_free + W·λ of a step. With v the rows whose λ is unknown (actuators a, equalities, contacts)
 * and e the effector rows (λ_e = 0), Ω = diag(weight_e):
 *
 *   min_λv  ½ λvᵀ (W_evᵀ Ω W_ev + s · D W_vv D) λv + λvᵀ W_evᵀ Ω δe_free            (eq. 5)
 *   s.t.    lambdaMin ≤ λa ≤ lambdaMax                               (box on the actuators' forces)
 *           deltaMin − δa_free ≤ W_av λv ≤ deltaMax − δa_free         (actuators' displacements)
 *           W_qv λv = target − δq_free                                (equalities on displacements)
 *           λn ≥ 0,  W_nv λv ≥ −δn_free                               (contact normals, below)
 *           contact tangents as their status says (below)
 *
 * The first term is ½‖δe‖²_Ω less a constant: the effectors are brought to their goals in the
 * least-squares sense. The second is the actuators' deformation energy λaᵀ W_aa λa (D is zero off
 * the actuators), weighted by ε so that it only picks one solution among the minimisers of the
 * first (the paper's regularisation, which makes the problem strictly convex when the actuators
 * outnumber the effector directions): D = diag(√ε_j), ε_j the actuator's own epsilon where set,
 * else the solver's, and s = ‖W_eaᵀΩW_ea‖_F / ‖W_aa‖_F makes ε relative, as the paper's
 * ε·‖WᵀW‖/‖W_aa‖ (s = 1 when there is no effector, e.g. `actuatorsOnly`). With ε = 0 the QP is only
 * semi-definite when there are more actuators than effector directions; the dense active-set solver
 * handles that (one solution, which then depends on where it starts).
 *
 * Contacts (Signorini: gap δn ≥ 0, λn ≥ 0, δn·λn = 0; Coulomb: ‖λt‖ ≤ μλn, sliding against the
 * tangential motion). Every contact normal enters the QP as λn ≥ 0 (it pushes only) and δn ≥ 0
 * (no penetration): the QP meets Signorini except for the complementarity, which holds at its
 * solution unless pushing on a contact while apart would bring an effector closer (not seen in
 * practice: it costs deformation and moves nothing the effectors ask for; then λn·δn > 0 is
 * reported by the contact's own λ and δ). Friction needs the contacts' statuses, found by an outer
 * loop, each round a QP:
 *   - open:     λt = 0;
 *   - sticking: δt = 0, λt free;
 *   - sliding:  λt = μ·λn·u with u the direction opposite to the tangential motion.
 * Contacts start open; one that pushes (λn > 0) sticks next round, one that stops pushing and
 * moves apart (δn > 0) opens, and with allowSliding a sticking contact slides when its force leaves
 * the cone or when the objective would decrease by moving it tangentially (the multipliers of its
 * δt = 0 rows give that desired motion), a sliding one sticks again when it stops or would move
 * against its friction (the desired-motion test is then not tried again in this step). The loop ends when no status changes; after
 * maxContactIterations rounds the last round is applied and `settled` is false. Without
 * allowSliding, contacts with friction stick (the cone is not enforced), as the SoftRobots option
 * says.
 *
 * Matrices are built in buffers kept between steps; one QP solver is kept per problem shape and
 * warm-started from its previous working set.
 */
export class InverseQp {
  /** The solver's ε (epsilon Data). */
  epsilon = 1e-3;
  /** Contacts outside their friction cone may slide (else they stick). */
  allowSliding = false;
  /** μ of every contact when ≥ 0 (the solver's responseFriction); negative: each contact's own. */
  friction = -1;
  maxContactIterations = 20;
  // ---- results (sized n; valid after solve) ----
  lambda: Float64Array = new Float64Array(0);
  delta: Float64Array = new Float64Array(0);
  /** ½‖δe‖²_Ω + ½·energy term at the solution. */
  objective = 0;
  /** QP iterations, summed over the contact rounds. */
  iterations = 0;
  /** QPs solved in the last step (contact rounds). */
  rounds = 0;
  status: DenseQpStatus = 'optimal';
  /** Number of unknowns, equalities and inequalities of the last QP. */
  readonly shape = { unknowns: 0, equalities: 0, inequalities: 0 };
  /** False when the last step's friction statuses did not settle within maxContactIterations (the last round is applied). */
  settled = true;
  /** Per contact of the last step: 0 open, 1 sticking, 2 sliding. */
  contactStatus: Uint8Array = new Uint8Array(0);

  private v = new Int32Array(0);
  private e = new Int32Array(0);
  /** Variable index of each row (−1: not an unknown). */
  private varOf = new Int32Array(0);
  private ineq = new Int32Array(0);
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
  /** s of the energy term in the last QP. */
  private energyScale = 0;
  private slideDir: Float64Array = new Float64Array(0);
  /** Per contact: the equality row of its first tangent when sticking (−1: none); slide tried this step. */
  private tangentEq = new Int32Array(0);
  private triedSlide = new Uint8Array(0);
  private lastQp: DenseQpSolver | undefined;
  private readonly solvers = new Map<number, DenseQpSolver>();

  /**
   * Checkpoint: the warm start of the next QP of each shape met so far (its solution x and its
   * working set); the rest is rebuilt at every solve.
   */
  checkpointState(): CheckpointRecord {
    return {
      solvers: [...this.solvers].map(([key, qp]) => ({
        key,
        n: qp.n,
        meq: qp.meq,
        mIn: qp.mIn,
        x: qp.x,
        activeIn: qp.activeIn,
        activeBound: qp.activeBound,
      })),
    };
  }

  restoreState(saved: CheckpointReader): void {
    this.solvers.clear();
    for (const r of saved.records('solvers')) {
      const qp = new DenseQpSolver(r.number('n'), r.number('meq'), r.number('mIn'));
      r.restoreArrayInPlace('x', qp.x);
      r.restoreArrayInPlace('activeIn', qp.activeIn);
      r.restoreArrayInPlace('activeBound', qp.activeBound);
      this.solvers.set(r.number('key'), qp);
    }
  }

  /**
   * Solves the inverse QP of the problem (W n × n row-major, δ_free) and the rows' roles. On return
   * lambda holds λ of every row (0 on effector rows) and delta = δ_free + W·λ.
   * `start` (λ of every row), when given, is the QP's starting point instead of the previous
   * step's solution (with an empty working set).
   */
  solve(
    W: Float64Array,
    dfree: Float64Array,
    n: number,
    rows: InverseRows,
    maxIterations = 0,
    tolerance = 1e-10,
    start?: Float64Array,
  ): DenseQpStatus {
    this.partition(rows, n);
    if (this.lambda.length !== n) {
      this.lambda = new Float64Array(n);
      this.delta = new Float64Array(n);
    }
    this.lambda.fill(0);
    this.delta.set(dfree.subarray(0, n));
    this.iterations = 0;
    this.rounds = 0;
    this.status = 'optimal';
    const nc = rows.contactCount;
    if (this.contactStatus.length !== nc) {
      this.contactStatus = new Uint8Array(nc);
      this.slideDir = new Float64Array(2 * nc);
      this.tangentEq = new Int32Array(nc);
      this.triedSlide = new Uint8Array(nc);
    }
    this.triedSlide.fill(0);

    this.contactStatus.fill(OPEN);
    this.settled = true;
    const nv = this.v.length;
    if (nv > 0) {
      const rounds = nc > 0 ? Math.max(1, this.maxContactIterations) : 1;
      this.settled = false;
      for (let round = 0; round < rounds; round++) {
        this.rounds = round + 1;
        this.status = this.solveQp(W, dfree, n, rows, maxIterations, tolerance, round === 0 ? start : undefined);
        if (this.status !== 'optimal') break;
        if (nc === 0 || !this.updateContacts(rows)) {
          this.settled = true;
          break;
        }
      }
    }
    if (this.status !== 'optimal') {
      this.lambda.fill(0);
      this.delta.set(dfree.subarray(0, n));
    }
    this.objective = this.effectorObjective(W, n, rows);
    return this.status;
  }

  /** One QP for the current contact statuses; λ and δ of every row on success. */
  private solveQp(
    W: Float64Array,
    dfree: Float64Array,
    n: number,
    rows: InverseRows,
    maxIterations: number,
    tolerance: number,
    start?: Float64Array,
  ): DenseQpStatus {
    const nv = this.v.length;
    const me = this.buildQp(W, dfree, n, rows);
    const mi = this.ineq.length + rows.contactCount;
    const shape = this.shape;
    shape.unknowns = nv;
    shape.equalities = me;
    shape.inequalities = mi;
    // one solver per shape; the sizes are far below 2^17 (a dense QP of that size would not run)
    const key = (nv * 131072 + me) * 131072 + mi;
    let qp = this.solvers.get(key);
    let warm = qp !== undefined;
    if (!qp) {
      qp = new DenseQpSolver(nv, me, mi);
      this.solvers.set(key, qp);
    }
    qp.maxIterations = maxIterations > 0 ? maxIterations : 100 + 10 * (2 * nv + me + mi);
    qp.feasibilityTolerance = tolerance;
    qp.optimalityTolerance = tolerance;
    if (start) {
      for (let k = 0; k < nv; k++) qp.x[k] = start[this.v[k]];
      qp.activeIn.fill(0);
      qp.activeBound.fill(0);
      warm = true;
    }
    const status = qp.solve(
      {
        Q: this.Q,
        c: this.c,
        Aeq: this.Aeq.subarray(0, me * nv),
        beq: this.beq.subarray(0, me),
        Ain: this.Ain.subarray(0, mi * nv),
        lin: this.lin.subarray(0, mi),
        uin: this.uin.subarray(0, mi),
        lb: this.lb,
        ub: this.ub,
      },
      warm,
    );
    this.iterations += qp.iterations;
    this.lastQp = qp;
    if (status !== 'optimal') return status;
    const lam = this.lambda,
      d = this.delta,
      v = this.v;
    for (let k = 0; k < nv; k++) lam[v[k]] = qp.x[k];
    for (let i = 0; i < n; i++) {
      let s = dfree[i];
      const r = i * n;
      for (let k = 0; k < nv; k++) s += W[r + v[k]] * lam[v[k]];
      d[i] = s;
    }
    return status;
  }

  /** New statuses from the last QP's λ and δ; true when one changed. */
  private updateContacts(rows: InverseRows): boolean {
    const lam = this.lambda,
      d = this.delta,
      st = this.contactStatus,
      nc = rows.contactCount;
    let lScale = 0,
      dScale = 0;
    for (let k = 0; k < nc; k++) {
      const i = rows.contactFirst[k];
      lScale = Math.max(lScale, Math.abs(lam[i]));
      dScale = Math.max(dScale, Math.abs(d[i]));
    }
    const tolL = 1e-9 * (1 + lScale),
      tolD = 1e-9 * (1 + dScale);
    let cScale = 0;
    for (let a = 0; a < this.v.length; a++) cScale = Math.max(cScale, Math.abs(this.c[a]));
    const tolY = 1e-9 * (1 + cScale);
    const yEq = this.lastQp!.yEq;
    let changed = false;
    for (let k = 0; k < nc; k++) {
      const i = rows.contactFirst[k];
      const mu = this.muOf(rows, k);
      const friction = rows.contactLines[k] === 3 && mu > 0;
      if (!friction) continue; // the normal alone: no status
      const s = st[k];
      const pushing = lam[i] > tolL;
      let next = s;
      if (s === OPEN) {
        if (pushing) next = STICK;
      } else if (!pushing && d[i] > tolD) {
        next = OPEN; // apart and not pushing (touching without force keeps its status: both hold there)
      } else if (this.allowSliding) {
        const lt = lam[i + 1],
          ls = lam[i + 2];
        if (s === STICK) {
          const norm = Math.hypot(lt, ls);
          const row = this.tangentEq[k];
          // the objective decreases when the rows' δt = b moves along y (df*/db = −y): the desired motion
          const mx = row >= 0 ? yEq[row] : 0,
            my = row >= 0 ? yEq[row + 1] : 0;
          const want = Math.hypot(mx, my);
          if (norm > mu * lam[i] + tolL) {
            next = SLIDE;
            this.slideDir[2 * k] = lt / norm;
            this.slideDir[2 * k + 1] = ls / norm;
          } else if (!this.triedSlide[k] && want > tolY) {
            // friction opposes the desired motion
            next = SLIDE;
            this.slideDir[2 * k] = -mx / want;
            this.slideDir[2 * k + 1] = -my / want;
          }
          if (next === SLIDE) this.triedSlide[k] = 1;
        } else {
          // sliding: the friction force μλn·u opposes the tangential motion δt
          const dt = d[i + 1],
            ds = d[i + 2];
          const norm = Math.hypot(dt, ds);
          const against = dt * this.slideDir[2 * k] + ds * this.slideDir[2 * k + 1];
          if (norm <= tolD || against > 0) {
            next = STICK;
          } else {
            const ux = -dt / norm,
              uy = -ds / norm;
            if (ux * this.slideDir[2 * k] + uy * this.slideDir[2 * k + 1] < 1 - 1e-9) {
              this.slideDir[2 * k] = ux;
              this.slideDir[2 * k + 1] = uy;
              changed = true;
            }
          }
        }
      }
      if (next !== s) {
        st[k] = next;
        changed = true;
      }
    }
    return changed;
  }

  private muOf(rows: InverseRows, k: number): number {
    return this.friction >= 0 ? this.friction : rows.contactMu[k];
  }

  /** ½‖δe‖²_Ω + ½ λaᵀ(s·D W_aa D)λa at the current λ. */
  private effectorObjective(W: Float64Array, n: number, rows: InverseRows): number {
    let obj = 0;
    for (const i of this.e) obj += 0.5 * rows.weight[i] * this.delta[i] * this.delta[i];
    if (this.status !== 'optimal' || this.v.length === 0) return obj;
    const sq = this.sqrtEps,
      v = this.v,
      nv = v.length,
      lam = this.lambda,
      s = this.energyScale;
    for (let a = 0; a < nv; a++) {
      if (sq[a] === 0) continue;
      for (let b = 0; b < nv; b++) obj += 0.5 * s * sq[a] * sq[b] * lam[v[a]] * W[v[a] * n + v[b]] * lam[v[b]];
    }
    return obj;
  }

  /** The unknowns v (actuators, equalities, contacts), effectors e, and the actuators with displacement bounds. */
  private partition(rows: InverseRows, n: number): void {
    let nv = 0,
      ne = 0,
      mi = 0;
    if (this.varOf.length < n) this.varOf = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const r = rows.role[i];
      this.varOf[i] = r === ACTUATOR || r === EQUALITY || r === CONTACT ? nv++ : -1;
      if (r === EFFECTOR) ne++;
      if (r === ACTUATOR && (Number.isFinite(rows.deltaMin[i]) || Number.isFinite(rows.deltaMax[i]))) mi++;
    }
    if (this.v.length !== nv) this.v = new Int32Array(nv);
    if (this.e.length !== ne) this.e = new Int32Array(ne);
    if (this.ineq.length !== mi) this.ineq = new Int32Array(mi);
    ne = mi = 0;
    for (let i = 0; i < n; i++) {
      const r = rows.role[i];
      if (this.varOf[i] >= 0) this.v[this.varOf[i]] = i;
      if (r === EFFECTOR) this.e[ne++] = i;
      if (r === ACTUATOR && (Number.isFinite(rows.deltaMin[i]) || Number.isFinite(rows.deltaMax[i]))) this.ineq[mi++] = i;
    }
  }

  /**
   * Fills Q, c, bounds, inequalities and equalities; returns the number of equality rows. Contact
   * normals: λn ≥ 0 and δn ≥ 0 (inequality rows after the actuators'); tangents by status.
   */
  private buildQp(W: Float64Array, dfree: Float64Array, n: number, rows: InverseRows): number {
    const v = this.v,
      e = this.e,
      nv = v.length,
      ne = e.length;
    const Q = (this.Q = grow(this.Q, nv * nv));
    const c = (this.c = grow(this.c, nv));
    // H = W_evᵀ Ω W_ev (W is symmetric: W_ev[k][a] = W[e_k][v_a]), c = W_evᵀ Ω δe_free
    Q.fill(0);
    c.fill(0);
    for (let k = 0; k < ne; k++) {
      const ek = e[k],
        w = rows.weight[ek],
        r = ek * n;
      for (let a = 0; a < nv; a++) {
        const wa = w * W[r + v[a]];
        if (wa === 0) continue;
        c[a] += wa * dfree[ek];
        for (let b = a; b < nv; b++) Q[a * nv + b] += wa * W[r + v[b]];
      }
    }
    for (let a = 0; a < nv; a++) for (let b = a + 1; b < nv; b++) Q[b * nv + a] = Q[a * nv + b];
    // + s · D W_aa D on the actuators
    const sq = (this.sqrtEps = grow(this.sqrtEps, nv));
    let hNorm = 0,
      wNorm = 0;
    for (let a = 0; a < nv; a++) {
      const ia = v[a];
      if (rows.role[ia] !== ACTUATOR) {
        sq[a] = 0;
        continue;
      }
      const eps = rows.epsilon[ia];
      sq[a] = Math.sqrt(Math.max(0, Number.isNaN(eps) ? this.epsilon : eps));
      for (let b = 0; b < nv; b++) {
        if (rows.role[v[b]] !== ACTUATOR) continue;
        hNorm += Q[a * nv + b] * Q[a * nv + b];
        const wab = W[ia * n + v[b]];
        wNorm += wab * wab;
      }
    }
    const s = (this.energyScale = ne === 0 ? 1 : wNorm > 0 ? Math.sqrt(hNorm / wNorm) : 0);
    if (s > 0) {
      for (let a = 0; a < nv; a++) {
        if (sq[a] === 0) continue;
        for (let b = 0; b < nv; b++) if (sq[b] !== 0) Q[a * nv + b] += s * sq[a] * W[v[a] * n + v[b]] * sq[b];
      }
    }
    // bounds on λ (actuators, equalities on force; contacts by status below)
    const lb = (this.lb = grow(this.lb, nv)),
      ub = (this.ub = grow(this.ub, nv));
    for (let a = 0; a < nv; a++) {
      lb[a] = rows.lambdaMin[v[a]];
      ub[a] = rows.lambdaMax[v[a]];
    }
    // displacement bounds of actuators
    const mi = this.ineq.length,
      miAll = mi + rows.contactCount;
    if (this.Ain.length < miAll * nv) this.Ain = new Float64Array(miAll * nv);
    if (this.lin.length < miAll) {
      this.lin = new Float64Array(miAll);
      this.uin = new Float64Array(miAll);
    }
    const Ain = this.Ain,
      lin = this.lin,
      uin = this.uin;
    for (let k = 0; k < mi; k++) {
      const i = this.ineq[k];
      for (let a = 0; a < nv; a++) Ain[k * nv + a] = W[i * n + v[a]];
      lin[k] = rows.deltaMin[i] - dfree[i];
      uin[k] = rows.deltaMax[i] - dfree[i];
    }
    // equalities: on the equality rows' displacement, then the contacts'
    let meMax = 0;
    for (let a = 0; a < nv; a++) if (rows.role[v[a]] === EQUALITY || rows.role[v[a]] === CONTACT) meMax++;
    if (this.Aeq.length < meMax * nv) this.Aeq = new Float64Array(meMax * nv);
    if (this.beq.length < meMax) this.beq = new Float64Array(meMax);
    const Aeq = this.Aeq,
      beq = this.beq;
    let me = 0;
    const onDisplacement = (i: number, target: number): void => {
      for (let a = 0; a < nv; a++) Aeq[me * nv + a] = W[i * n + v[a]];
      beq[me++] = target - dfree[i];
    };
    for (let a = 0; a < nv; a++) {
      const i = v[a];
      if (rows.role[i] === EQUALITY && !Number.isNaN(rows.target[i])) onDisplacement(i, rows.target[i]);
    }
    for (let k = 0; k < rows.contactCount; k++) {
      const i = rows.contactFirst[k],
        lines = rows.contactLines[k],
        st = this.contactStatus[k];
      const mu = this.muOf(rows, k);
      // the normal: pushes only, no penetration
      lb[this.varOf[i]] = 0;
      ub[this.varOf[i]] = Infinity;
      const row = mi + k;
      for (let a = 0; a < nv; a++) Ain[row * nv + a] = W[i * n + v[a]];
      lin[row] = -dfree[i];
      uin[row] = Infinity;
      // the tangents: none when open or frictionless
      for (let r = 1; r < lines; r++) {
        const a = this.varOf[i + r];
        const fixed = st === OPEN || !(mu > 0);
        lb[a] = fixed ? 0 : -Infinity;
        ub[a] = fixed ? 0 : Infinity;
      }
      this.tangentEq[k] = -1;
      if (st === OPEN) continue;
      if (lines !== 3 || !(mu > 0)) continue;
      if (st === STICK) {
        this.tangentEq[k] = me;
        onDisplacement(i + 1, 0);
        onDisplacement(i + 2, 0);
      } else {
        // λt − μ·u·λn = 0 on each tangent
        const an = this.varOf[i];
        for (let r = 1; r <= 2; r++) {
          Aeq.fill(0, me * nv, me * nv + nv);
          Aeq[me * nv + this.varOf[i + r]] = 1;
          Aeq[me * nv + an] = -mu * this.slideDir[2 * k + r - 1];
          beq[me++] = 0;
        }
      }
    }
    return me;
  }
}

/** A buffer of exactly `size` numbers (a new one only when the size changed). */
function grow(buf: Float64Array, size: number): Float64Array {
  return buf.length === size ? buf : new Float64Array(size);
}
