import { BaseObject, type BaseMechanicalState, type ConstraintOrder } from '@sofa-ts/core';
import type { ConstraintGraph } from '../graph/constraint-graph.js';
import type { IntegrationFactors } from './integration.js';

/**
 * A constraint correction (SOFA's BaseConstraintCorrection): how the states it owns respond to
 * constraint impulses λ, Δ = A⁻¹·Jᵀ·λ with A the matrix the ODE solver inverts (or an
 * approximation of it). It gives the solver
 *   W += factor·J·A⁻¹·Jᵀ         on the rows touching its states (`addComplianceInConstraintSpace`),
 * and after the solve corrects the free motion
 *   x = x_free ⊕ position·Δ,   v = v_free + velocity·Δ   (`applyMotionCorrection`),
 * with the integration factors of its ODE solver (backward Euler: dt and 1, λ an impulse).
 *
 * The "unbuilt" interface (Gauss-Seidel without W, LCP with build_lcp off) keeps the displacement
 * due to the current forces and updates it force by force. The default works in constraint space
 * from the correction's own block of W; corrections that can do better in dof space override it.
 * `resetForUnbuiltResolution` follows SOFA unless asked for the `consistent` variant (see there).
 */
export abstract class BaseConstraintCorrection extends BaseObject {
  readonly isConstraintCorrection = true;

  /** The master states this correction moves (one, or all of its ODE solver's for the generic one). */
  abstract correctedStates(graph: ConstraintGraph): readonly BaseMechanicalState[];

  /** Factors of the position and velocity corrections for this step. */
  abstract integrationFactors(order: ConstraintOrder, dt: number): IntegrationFactors;

  /** W (n × n row-major) += factor·J·A⁻¹·Jᵀ over the rows touching its states. */
  abstract addComplianceInConstraintSpace(graph: ConstraintGraph, W: Float64Array, n: number, order: ConstraintOrder, dt: number): void;

  /** Δ of each state = A⁻¹·Jᵀ·λ (no integration factor), kept for `applyMotionCorrection`. */
  abstract computeMotionCorrection(graph: ConstraintGraph, lambda: Float64Array, order: ConstraintOrder, dt: number): void;

  /** Per corrected state (same order as correctedStates), Δ of the last computeMotionCorrection. */
  protected corrections: Float64Array[] = [];

  /** The correction arrays, sized for the states (kept while sizes hold). */
  protected correctionBuffers(states: readonly BaseMechanicalState[]): Float64Array[] {
    const out = this.corrections;
    out.length = states.length;
    for (let i = 0; i < states.length; i++) {
      const n = states[i].size * states[i].stateType.derivSize;
      if (out[i]?.length !== n) out[i] = new Float64Array(n);
      else out[i].fill(0);
    }
    return out;
  }

  /**
   * SOFA's applyMotionCorrection / applyPositionCorrection / applyVelocityCorrection:
   *   'posAndVel': x = x_free ⊕ position·Δ, v = v_free + velocity·Δ
   *   'pos':       x = x_free ⊕ position·Δ
   *   'vel':       v = v_free + velocity·Δ
   */
  applyMotionCorrection(graph: ConstraintGraph, order: ConstraintOrder, dt: number): void {
    const f = this.integrationFactors(order, dt);
    const states = this.correctedStates(graph);
    for (let i = 0; i < states.length; i++) {
      const s = states[i];
      const dx = this.corrections[i];
      if (!dx) continue;
      if (order !== 'vel') s.stateType.addDerivToCoord(s.x, s.xFree, dx, f.position, s.size);
      if (order !== 'pos') {
        const v = s.v,
          vf = s.vFree;
        for (let k = 0; k < v.length; k++) v[k] = vf[k] + f.velocity * dx[k];
      }
      s.touch();
    }
  }

  // ---- unbuilt resolution ------------------------------------------------------------------------

  /** Rows of the problem touching its states, ascending (after the Jacobian of the step is built). */
  protected ownRows: Int32Array = new Int32Array(0);
  protected ownRowCount = 0;
  /** Where each problem row sits in ownRows (−1: not one of its rows). */
  protected rowSlot: Int32Array = new Int32Array(0);
  /** Its block of W over ownRows (R × R), and the displacement W_own·f of the current forces (R). */
  private wOwn: Float64Array = new Float64Array(0);
  private dispOwn: Float64Array = new Float64Array(0);

  /** Finds the rows touching its states (call after the Jacobian of the step is built). */
  collectRows(graph: ConstraintGraph, n: number): void {
    if (this.rowSlot.length < n) this.rowSlot = new Int32Array(Math.max(n, 2 * this.rowSlot.length));
    this.rowSlot.fill(-1, 0, n);
    let count = 0;
    for (const s of this.correctedStates(graph)) {
      const rows = graph.rowsOf(s);
      for (let k = 0; k < rows.nRows; k++) {
        const r = rows.rowIds[k];
        if (this.rowSlot[r] === -1) {
          this.rowSlot[r] = -2;
          count++;
        }
      }
    }
    if (this.ownRows.length < count) this.ownRows = new Int32Array(Math.max(count, 2 * this.ownRows.length));
    let c = 0;
    for (let r = 0; r < n; r++) if (this.rowSlot[r] === -2) this.ownRows[c++] = r;
    for (let i = 0; i < c; i++) this.rowSlot[this.ownRows[i]] = i;
    this.ownRowCount = c;
  }

  /** SOFA's hasConstraintNumber: row `row` touches its states. */
  hasConstraintNumber(row: number): boolean {
    return row < this.rowSlot.length && this.rowSlot[row] >= 0;
  }

  /**
   * SOFA's getBlockDiagonalCompliance: W[begin..end] block += its compliance there. The default
   * reads it from its own block of W (computed by resetForUnbuiltResolution).
   */
  getBlockDiagonalCompliance(W: Float64Array, n: number, begin: number, end: number): void {
    const R = this.ownRowCount;
    for (let i = begin; i <= end; i++) {
      const si = this.rowSlot[i];
      if (si < 0) continue;
      for (let j = begin; j <= end; j++) {
        const sj = this.rowSlot[j];
        if (sj >= 0) W[i * n + j] += this.wOwn[si * R + sj];
      }
    }
  }

  /**
   * Prepares the unbuilt resolution for the current forces f (SOFA's resetForUnbuiltResolution).
   * `consistent` asks for the displacement of f and for the compliance of the built W, so that the
   * unbuilt sweeps are exactly the built ones (sofa-ts's consistentWithBuilt); without it, the
   * correction does what SOFA's does. This default is the same either way: its block of W is the
   * one it adds to the built W, and its displacement starts from f (as SOFA's
   * LinearSolverConstraintCorrection, whose right-hand side starts from f).
   */
  resetForUnbuiltResolution(
    graph: ConstraintGraph,
    force: Float64Array,
    n: number,
    order: ConstraintOrder,
    dt: number,
    _consistent = false,
  ): void {
    this.collectRows(graph, n);
    const R = this.ownRowCount;
    if (this.wOwn.length < R * R) this.wOwn = new Float64Array(R * R);
    if (this.dispOwn.length < R) this.dispOwn = new Float64Array(R);
    // its own block of W, through a full-size W restricted to its rows
    const full = new Float64Array(n * n);
    this.addComplianceInConstraintSpace(graph, full, n, order, dt);
    for (let i = 0; i < R; i++) {
      const ri = this.ownRows[i];
      for (let j = 0; j < R; j++) this.wOwn[i * R + j] = full[ri * n + this.ownRows[j]];
    }
    for (let i = 0; i < R; i++) {
      let s = 0;
      for (let j = 0; j < R; j++) s += this.wOwn[i * R + j] * force[this.ownRows[j]];
      this.dispOwn[i] = s;
    }
  }

  /** d[begin..end] += displacement of its states due to the current forces, on those rows. */
  addConstraintDisplacement(d: Float64Array, begin: number, end: number): void {
    for (let r = begin; r <= end; r++) {
      const s = this.rowSlot[r];
      if (s >= 0) d[r] += this.dispOwn[s];
    }
  }

  /** The forces of rows begin..end changed by df[begin..end]: update the displacement. */
  setConstraintDForce(df: Float64Array, begin: number, end: number, update: boolean): void {
    if (!update) return;
    const R = this.ownRowCount;
    for (let r = begin; r <= end; r++) {
      const s = this.rowSlot[r];
      if (s < 0 || df[r] === 0) continue;
      const f = df[r];
      for (let i = 0; i < R; i++) this.dispOwn[i] += this.wOwn[i * R + s] * f;
    }
  }
}

export function isConstraintCorrection(o: unknown): o is BaseConstraintCorrection {
  return typeof o === 'object' && o !== null && (o as { isConstraintCorrection?: unknown }).isConstraintCorrection === true;
}
