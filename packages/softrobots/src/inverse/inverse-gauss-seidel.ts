import { ACTUATOR, EFFECTOR, type InverseRows } from './inverse-rows.js';

/**
 * The Gauss-Seidel inverse method (eqs. 6–10 of the inverse-method notes): actuator by actuator,
 * the others frozen, λ_j moves by the step that best reduces the effector shift δe along what
 * actuator j can do, w*_j = W_ej (the effectors' column of actuator j):
 *
 *   Δλ_j = − (w*_j · Ω δe) / (w*_j · Ω w*_j)                                   (eq. 10, weights Ω)
 *
 * then λ_j is clamped to its force bounds and to the interval that keeps its own displacement
 * δa_j = δa_j + W_jj Δλ_j within its bounds (force bounds win if the two do not meet), and
 * δe += w*_j Δλ_j, δa += W_aj Δλ_j (eq. 7). Sweeps stop when the objective ½‖δe‖²_Ω no longer
 * decreases by more than `tolerance` (relative), or after maxIterations sweeps.
 *
 * This is exact coordinate descent on ½‖δe‖²_Ω: when that problem has one minimiser (as many
 * effector directions as actuators, independent, bounds on forces only) the sweeps converge to it,
 * the QP's solution at ε = 0. A displacement bound is only seen by its own actuator's update: an
 * update of another actuator can still push it out, which the QP does not allow. Equalities and
 * other constraints are not handled by this method.
 */
export class InverseGaussSeidel {
  maxIterations = 1000;
  tolerance = 1e-12;
  lambda = new Float64Array(0);
  delta = new Float64Array(0);
  objective = 0;
  iterations = 0;
  private a = new Int32Array(0);
  private e = new Int32Array(0);

  solve(W: Float64Array, dfree: Float64Array, n: number, rows: InverseRows): void {
    let na = 0,
      ne = 0;
    for (let i = 0; i < n; i++) {
      if (rows.role[i] === ACTUATOR) na++;
      else if (rows.role[i] === EFFECTOR) ne++;
    }
    if (this.a.length !== na) this.a = new Int32Array(na);
    if (this.e.length !== ne) this.e = new Int32Array(ne);
    if (this.lambda.length !== n) {
      this.lambda = new Float64Array(n);
      this.delta = new Float64Array(n);
    }
    na = ne = 0;
    for (let i = 0; i < n; i++) {
      if (rows.role[i] === ACTUATOR) this.a[na++] = i;
      else if (rows.role[i] === EFFECTOR) this.e[ne++] = i;
    }
    const { a, e, lambda: lam, delta: d } = this;
    const wt = rows.weight;
    lam.fill(0, 0, n);
    d.set(dfree.subarray(0, n));
    // start from λ = 0 moved into its bounds
    for (let k = 0; k < na; k++) {
      const j = a[k];
      const l0 = Math.min(rows.lambdaMax[j], Math.max(rows.lambdaMin[j], 0));
      if (l0 !== 0) this.move(W, n, j, l0);
    }
    let obj = this.effectorObjective(wt);
    this.iterations = 0;
    for (let it = 0; it < this.maxIterations; it++) {
      this.iterations = it + 1;
      for (let k = 0; k < na; k++) {
        const j = a[k];
        let num = 0,
          den = 0;
        for (let m = 0; m < ne; m++) {
          const i = e[m];
          const wij = W[i * n + j];
          num += wt[i] * wij * d[i];
          den += wt[i] * wij * wij;
        }
        if (!(den > 0)) continue;
        let l = lam[j] - num / den;
        // own displacement within its bounds (W_jj > 0), then the force bounds
        const wjj = W[j * n + j];
        if (wjj > 0) {
          const lo = lam[j] + (rows.deltaMin[j] - d[j]) / wjj;
          const hi = lam[j] + (rows.deltaMax[j] - d[j]) / wjj;
          if (lo <= hi) l = Math.min(hi, Math.max(lo, l));
        }
        l = Math.min(rows.lambdaMax[j], Math.max(rows.lambdaMin[j], l));
        this.move(W, n, j, l - lam[j]);
      }
      const next = this.effectorObjective(wt);
      const done = obj - next <= this.tolerance * Math.max(obj, Number.MIN_VALUE) || next === 0;
      obj = next;
      if (done) break;
    }
    this.objective = obj;
  }

  /** λ_j += Δ and δ += W_·j Δ on every row. */
  private move(W: Float64Array, n: number, j: number, delta: number): void {
    if (delta === 0) return;
    this.lambda[j] += delta;
    for (let i = 0; i < n; i++) this.delta[i] += W[i * n + j] * delta;
  }

  private effectorObjective(wt: Float64Array): number {
    let s = 0;
    for (const i of this.e) s += 0.5 * wt[i] * this.delta[i] * this.delta[i];
    return s;
  }
}
