import {
  contextStateLink,
  Bool,
  Real,
  Str,
  integratingOdeSolver,
  sofaComponent,
  type BaseMechanicalState,
  type BaseOdeSolver,
  type CheckpointReader,
  type CheckpointRecord,
  type ConstraintOrder,
} from '@sofa-ts/core';
import { isAssemblyLinearSolver, type LinearSolver } from '@sofa-ts/assembly';
import type { ConstraintGraph } from '../graph/constraint-graph.js';
import { BaseConstraintCorrection } from './base-constraint-correction.js';
import { complianceFactor, integrationFactors, type IntegrationFactors } from './integration.js';
import { SystemInverse } from './system-inverse.js';

/**
 * SOFA's PrecomputedConstraintCorrection: the compliance of its state computed once and kept,
 * C = A₀⁻¹ restricted to the state (a dense N × N block, N = size·derivSize), A₀ the system matrix of
 * the ODE solver at the first step (SOFA computes it at init with unit forces, or reads it from
 * fileCompliance; sofa-ts computes it, with the solver's linear solver, at the first step):
 *   W += factor·J·C·Jᵀ,   Δ = C·Jᵀ·λ,   x = x_free ⊕ dt·Δ,   v = v_free + Δ
 * The rotation of the compliance with the nodal rotations (rotations) is not provided.
 */
@sofaComponent({
  name: 'PrecomputedConstraintCorrection',
  category: 'ConstraintCorrection',
  module: 'Sofa.Component.Constraint.Lagrangian.Correction',
  description: 'Constraint correction with a precomputed compliance matrix of the state.',
  templates: ['Vec3d', 'Vec1d', 'Rigid3d'],
})
export class PrecomputedConstraintCorrection extends BaseConstraintCorrection {
  readonly rotations = this.initData({
    name: 'rotations',
    type: Bool,
    default: false,
    help: 'rotate the compliance with the nodal rotations of the FEM (not provided: refused)',
  });
  readonly restDeformations = this.initData({ name: 'restDeformations', type: Bool, default: false, help: 'accepted for compatibility' });
  readonly recompute = this.initData({
    name: 'recompute',
    type: Bool,
    default: false,
    help: 'if true, compute the compliance instead of reading the file an earlier run saved (sofa-ts reads no such file: it always computes the compliance, once, at the first constraint step, as SOFA does at init)',
  });
  readonly debugViewFrameScale = this.initData({
    name: 'debugViewFrameScale',
    type: Real,
    default: 1,
    help: "scale on computed node's frame",
    group: 'Visualization',
  });
  readonly fileCompliance = this.initData({
    name: 'fileCompliance',
    type: Str,
    default: '',
    help: 'precomputed compliance matrix data file (not read: the compliance is computed)',
  });
  readonly fileDir = this.initData({
    name: 'fileDir',
    type: Str,
    default: '',
    help: 'if not empty, the compliance will be saved in this repertory (not written)',
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the mechanical state corrected (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject',
    ),
  );

  private solver: BaseOdeSolver | undefined;
  private linear: LinearSolver | undefined;
  private readonly inverse = new SystemInverse(this);
  private readonly states: BaseMechanicalState[] = [];
  /** (N × N) row-major compliance of the state, empty until computed. */
  private C = new Float64Array(0);
  private N = 0;
  private scratch = new Float64Array(0);

  override init(): void {
    const s = this.mstate.require();
    if (!this.template) this.template = s.stateType.name;
    if (this.rotations.value)
      throw this.error('rotations is not provided by sofa-ts', 'remove rotations="1" (the compliance is not rotated)');
    this.states.length = 0;
    this.states.push(s);
    this.solver = integratingOdeSolver(this.context);
    if (!this.solver) throw this.error('no ODE solver in this node or above: the compliance is computed from its system');
    this.linear = this.context.getObject(isAssemblyLinearSolver, 'up');
    if (!this.linear)
      throw this.error('no linear solver in this node or above: the compliance is computed with it (add one, e.g. SparseLDLSolver)');
    this.C = new Float64Array(0);
  }

  /** Checkpoint: the compliance, computed once from the system of the first constraint step. */
  checkpointState(): CheckpointRecord {
    return { C: this.C, N: this.N };
  }

  restoreState(saved: CheckpointReader): void {
    this.C = saved.array('C', Float64Array).slice();
    this.N = saved.number('N');
    this.scratch = new Float64Array(this.C.length > 0 ? this.N : 0);
  }

  correctedStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  integrationFactors(_order: ConstraintOrder, dt: number): IntegrationFactors {
    return integrationFactors(this.solver, dt);
  }

  /** C = A⁻¹ restricted to the state (N solves, once: SOFA's recompute only skips its file cache). */
  private compliance(dt: number): Float64Array {
    if (this.C.length > 0) return this.C;
    const s = this.states[0];
    const N = s.size * s.stateType.derivSize;
    const off = this.inverse.offsetOf(this.solver!, s);
    if (off < 0) throw this.error(`${s.describe()} is not an independent state of ${this.solver!.describe()}'s system`);
    const C = new Float64Array(N * N);
    const inv = this.inverse;
    for (let j = 0; j < N; j++) {
      inv.rhs.fill(0);
      inv.rhs[off + j] = 1;
      inv.solve(this.solver!, this.linear!, dt);
      for (let i = 0; i < N; i++) C[i * N + j] = inv.sol[off + i];
    }
    this.C = C;
    this.N = N;
    this.scratch = new Float64Array(N);
    return C;
  }

  addComplianceInConstraintSpace(graph: ConstraintGraph, W: Float64Array, n: number, order: ConstraintOrder, dt: number): void {
    const rows = graph.rowsOf(this.states[0]);
    if (rows.nRows === 0) return;
    const C = this.compliance(dt);
    const N = this.N;
    const factor = complianceFactor(this.integrationFactors(order, dt), order);
    const tmp = this.scratch;
    for (let k1 = 0; k1 < rows.nRows; k1++) {
      // tmp = C·J_k1ᵀ
      tmp.fill(0);
      const d = rows.d;
      for (let e = rows.rowPtr[k1]; e < rows.rowPtr[k1 + 1]; e++) {
        const o = rows.points[e] * d;
        for (let a = 0; a < d; a++) {
          const v = rows.values[e * d + a];
          if (v === 0) continue;
          for (let i = 0; i < N; i++) tmp[i] += C[i * N + o + a] * v;
        }
      }
      const r1 = rows.rowIds[k1];
      for (let k2 = 0; k2 < rows.nRows; k2++) W[r1 * n + rows.rowIds[k2]] += factor * rows.dotRow(k2, tmp);
    }
  }

  computeMotionCorrection(graph: ConstraintGraph, lambda: Float64Array, _order: ConstraintOrder, dt: number): void {
    const [dx] = this.correctionBuffers(this.states);
    const C = this.compliance(dt);
    const N = this.N;
    const f = this.scratch;
    f.fill(0);
    graph.rowsOf(this.states[0]).addJTLambda(f, lambda);
    for (let i = 0; i < N; i++) {
      let s = 0;
      for (let j = 0; j < N; j++) s += C[i * N + j] * f[j];
      dx![i] = s;
    }
  }
}
