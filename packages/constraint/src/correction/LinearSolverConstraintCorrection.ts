import {
  contextStateLink,
  Bool,
  nonNegative,
  Real,
  isOdeSolver,
  sofaComponent,
  type BaseMechanicalState,
  type BaseOdeSolver,
  type ConstraintOrder,
} from '@sofa-ts/core';
import { isAssemblyLinearSolver, type LinearSolver } from '@sofa-ts/assembly';
import type { ConstraintGraph } from '../graph/constraint-graph.js';
import { BaseConstraintCorrection } from './base-constraint-correction.js';
import { complianceFactor, integrationFactors, type IntegrationFactors } from './integration.js';
import { SystemInverse } from './system-inverse.js';

/**
 * SOFA's LinearSolverConstraintCorrection: the response of its state through the linear solver of
 * its ODE solver, i.e. the system matrix A the solver inverts at each step (backward Euler:
 * (1 + h·rM)·M − h·B − h·(h + rK)·K, projected):
 *   W += factor·J·A⁻¹·Jᵀ   (factor = dt for backward Euler)
 *   Δ = A⁻¹·Jᵀ·λ,  x = x_free ⊕ dt·Δ,  v = v_free + Δ
 * A factorizing solver (SparseLDLSolver, ...) reuses the factorization of the free motion; with
 * SparseLDLSolver, W comes from one sparse forward solve of all its rows and Δ from one backward
 * solve (system-inverse.ts), other factorizations solve once per row. An iterative solver
 * (CGLinearSolver) solves again (SOFA refuses its GraphScattered template; sofa-ts accepts it,
 * with the solver's own accuracy). The state must be a master of the solver's system.
 */
@sofaComponent({
  name: 'LinearSolverConstraintCorrection',
  category: 'ConstraintCorrection',
  module: 'Sofa.Component.Constraint.Lagrangian.Correction',
  description: 'Constraint correction using the linear solver of the ODE solver (W = J·A⁻¹·Jᵀ).',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Rigid3d'],
})
export class LinearSolverConstraintCorrection extends BaseConstraintCorrection {
  readonly wireOptimization = this.initData({
    name: 'wire_optimization',
    type: Bool,
    default: false,
    help: 'constraints are reordered along a wire-like topology (from tip to base) (accepted; no reordering)',
  });
  readonly regularizationTerm = this.initData({
    name: 'regularizationTerm',
    type: Real,
    default: 0,
    range: nonNegative,
    help: 'add regularization·Id to W when solving for constraints',
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the mechanical state corrected (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject',
    ),
  );
  readonly linearSolver = this.initLink<LinearSolver>({
    name: 'linearSolver',
    help: 'the linear solver used to compute the compliance matrix (default: the one of this node)',
    accepts: isAssemblyLinearSolver,
    expected: 'a linear solver',
    search: 'local',
  });
  readonly odeSolver = this.initLink<BaseOdeSolver>({
    name: 'ODESolver',
    help: 'the ODE solver giving the integration factors (default: the one of this node, else the first of the scene)',
    accepts: isOdeSolver,
    expected: 'an ODE solver',
    search: 'local',
  });

  private readonly inverse = new SystemInverse(this);
  private readonly states: BaseMechanicalState[] = [];

  override init(): void {
    const s = this.mstate.require();
    if (!this.template) this.template = s.stateType.name;
    this.states.length = 0;
    this.states.push(s);
    if (!this.odeSolver.get()) {
      const solver = this.context.getObject(isOdeSolver, 'root');
      if (!solver)
        throw this.error(
          'no ODE solver: LinearSolverConstraintCorrection inverts the system of an ODE solver (add one, e.g. EulerImplicitSolver)',
        );
      this.odeSolver.set(solver);
    }
    if (!this.linearSolver.get()) {
      const ls = this.context.getObject(isAssemblyLinearSolver, 'up');
      if (!ls) throw this.error('no linear solver in this node or above (add one, e.g. SparseLDLSolver)');
      this.linearSolver.set(ls);
    }
  }

  correctedStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  integrationFactors(_order: ConstraintOrder, dt: number): IntegrationFactors {
    return integrationFactors(this.odeSolver.get(), dt);
  }

  addComplianceInConstraintSpace(graph: ConstraintGraph, W: Float64Array, n: number, order: ConstraintOrder, dt: number): void {
    const solver = this.odeSolver.require();
    const s = this.states[0];
    const rows = graph.rowsOf(s);
    const inv = this.inverse;
    inv.beginColumns();
    if (rows.nRows === 0) return;
    const factor = complianceFactor(this.integrationFactors(order, dt), order);
    const off = this.masterOffset(solver, s);
    for (let k = 0; k < rows.nRows; k++) {
      inv.addRowToColumn(rows, k, off);
      inv.endColumn(rows.rowIds[k]);
    }
    inv.addCompliance(graph, solver, this.linearSolver.require(), dt, W, n, factor);
    const reg = this.regularizationTerm.value;
    if (reg > Number.EPSILON) for (let k = 0; k < rows.nRows; k++) W[rows.rowIds[k] * (n + 1)] += reg;
  }

  computeMotionCorrection(graph: ConstraintGraph, lambda: Float64Array, _order: ConstraintOrder, dt: number): void {
    const solver = this.odeSolver.require();
    const s = this.states[0];
    const [dx] = this.correctionBuffers(this.states);
    const rows = graph.rowsOf(s);
    if (rows.nRows === 0) return; // A⁻¹·0
    const off = this.masterOffset(solver, s);
    const inv = this.inverse;
    const linear = this.linearSolver.require();
    if (inv.canReuseForward(graph, linear)) {
      // the forward solves of W, this step: one backward solve
      dx!.set(inv.solveJTLambda(solver, lambda).subarray(off, off + dx!.length));
      return;
    }
    inv.rhs.fill(0);
    rows.addJTLambda(inv.rhs.subarray(off, off + dx!.length), lambda);
    inv.solve(solver, linear, dt);
    dx!.set(inv.sol.subarray(off, off + dx!.length));
  }

  private masterOffset(solver: BaseOdeSolver, s: BaseMechanicalState): number {
    const off = this.inverse.offsetOf(solver, s);
    if (off < 0)
      throw this.error(
        `${s.describe()} is not an independent state of ${solver.describe()}'s system (a mapped state cannot be corrected by its linear solver)`,
      );
    return off;
  }
}
