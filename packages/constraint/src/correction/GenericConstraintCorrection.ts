import {
  isOdeSolver,
  nonNegative,
  Real,
  sofaComponent,
  type BaseMechanicalState,
  type BaseOdeSolver,
  type ConstraintOrder,
} from '@sofa-ts/core';
import { isAssemblyLinearSolver, type LinearSolver } from '@sofa-ts/assembly';
import type { ConstraintGraph } from '../graph/constraint-graph.js';
import type { StateRows } from '../graph/state-rows.js';
import { BaseConstraintCorrection } from './base-constraint-correction.js';
import { complianceFactor, integrationFactors, type IntegrationFactors } from './integration.js';
import { SystemInverse } from './system-inverse.js';

/**
 * SOFA's GenericConstraintCorrection: the correction of every independent state of its ODE solver's
 * system at once, through the solver's linear solver (A of the whole subtree, couplings between
 * objects of the same solver included):
 *   W += complianceFactor·factor·J·A⁻¹·Jᵀ   over every row touching those states
 *   Δ = A⁻¹·Jᵀ·λ,   x = x_free ⊕ complianceFactor·dt·Δ,   v = v_free + complianceFactor·Δ
 */
@sofaComponent({
  name: 'GenericConstraintCorrection',
  category: 'ConstraintCorrection',
  module: 'Sofa.Component.Constraint.Lagrangian.Correction',
  description: 'Constraint correction of all the states of an ODE solver through its linear solver.',
})
export class GenericConstraintCorrection extends BaseConstraintCorrection {
  readonly complianceFactor = this.initData({
    name: 'complianceFactor',
    type: Real,
    default: 1,
    help: 'factor applied to the position factor and velocity factor used to calculate the compliance matrix',
  });
  readonly regularizationTerm = this.initData({
    name: 'regularizationTerm',
    type: Real,
    default: 0,
    range: nonNegative,
    help: 'add regularization·Id to W when solving for constraints',
  });

  readonly linearSolver = this.initLink<LinearSolver>({
    name: 'linearSolver',
    help: 'the linear solver used to compute the compliance matrix (default: the one of this node or above)',
    accepts: isAssemblyLinearSolver,
    expected: 'a linear solver',
    search: 'up',
  });
  readonly odeSolver = this.initLink<BaseOdeSolver>({
    name: 'ODESolver',
    help: 'the ODE solver whose system is corrected (default: the one of this node or above)',
    accepts: isOdeSolver,
    expected: 'an ODE solver',
    search: 'up',
  });

  private readonly inverse = new SystemInverse(this);
  /** Rows touching the states, in order, and per state its rows. */
  private rowList: number[] = [];

  override init(): void {
    if (!this.odeSolver.get())
      throw this.error('no ODE solver in this node or above (GenericConstraintCorrection corrects the system of an ODE solver)');
    if (!this.linearSolver.get()) throw this.error('no linear solver in this node or above (add one, e.g. SparseLDLSolver)');
  }

  correctedStates(): readonly BaseMechanicalState[] {
    return this.inverse.system(this.odeSolver.require()).masters.map((m) => m.state);
  }

  integrationFactors(_order: ConstraintOrder, dt: number): IntegrationFactors {
    const f = integrationFactors(this.odeSolver.get(), dt);
    const c = this.complianceFactor.value;
    return { position: c * f.position, velocity: c * f.velocity };
  }

  /** Each master with its rows and offset. */
  private blocks(graph: ConstraintGraph): Array<{ rows: StateRows; offset: number }> {
    const sys = this.inverse.system(this.odeSolver.require());
    return sys.masters.map((m) => ({ rows: graph.rowsOf(m.state), offset: m.offset }));
  }

  addComplianceInConstraintSpace(graph: ConstraintGraph, W: Float64Array, n: number, order: ConstraintOrder, dt: number): void {
    const blocks = this.blocks(graph);
    const set = new Set<number>();
    for (const b of blocks) for (let k = 0; k < b.rows.nRows; k++) set.add(b.rows.rowIds[k]);
    this.rowList = [...set].sort((a, b) => a - b);
    const inv = this.inverse;
    inv.beginColumns();
    if (this.rowList.length === 0) return;
    const factor = complianceFactor(this.integrationFactors(order, dt), order);
    for (const r1 of this.rowList) {
      for (const b of blocks) {
        const k = b.rows.findRow(r1);
        if (k >= 0) inv.addRowToColumn(b.rows, k, b.offset);
      }
      inv.endColumn(r1);
    }
    inv.addCompliance(graph, this.odeSolver.require(), this.linearSolver.require(), dt, W, n, factor);
    const reg = this.regularizationTerm.value;
    if (reg > Number.EPSILON) for (const r of this.rowList) W[r * (n + 1)] += reg;
  }

  computeMotionCorrection(graph: ConstraintGraph, lambda: Float64Array, _order: ConstraintOrder, dt: number): void {
    const solver = this.odeSolver.require();
    const sys = this.inverse.system(solver);
    const states = sys.masters.map((m) => m.state);
    const dxs = this.correctionBuffers(states);
    const inv = this.inverse;
    const linear = this.linearSolver.require();
    let sol: Float64Array;
    if (inv.canReuseForward(graph, linear)) {
      // the forward solves of W, this step: one backward solve
      sol = inv.solveJTLambda(solver, lambda);
    } else {
      inv.rhs.fill(0);
      for (const m of sys.masters) graph.rowsOf(m.state).addJTLambda(inv.rhs.subarray(m.offset, m.offset + m.derivLength), lambda);
      inv.solve(solver, linear, dt);
      sol = inv.sol;
    }
    sys.masters.forEach((m, i) => dxs[i].set(sol.subarray(m.offset, m.offset + m.derivLength)));
  }
}
