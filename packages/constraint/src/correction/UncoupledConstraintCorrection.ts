import {
  contextStateLink,
  Bool,
  Real,
  RealArray,
  isMass,
  isTopology,
  sofaComponent,
  nonNegative,
  type BaseMechanicalState,
  type BaseOdeSolver,
  type ConstraintOrder,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { mat3InvertDivided } from '@sofa-ts/linalg';
import type { ConstraintGraph } from '../graph/constraint-graph.js';
import type { StateRows } from '../graph/state-rows.js';
import { BaseConstraintCorrection } from './base-constraint-correction.js';
import { findOdeSolver, integrationFactors, type IntegrationFactors } from './integration.js';

/**
 * SOFA's UncoupledConstraintCorrection: each dof answers alone, Δ_i = c_i·(Jᵀλ)_i, with a
 * compliance c_i per point (Vec templates: a scalar, `compliance` per point or `defaultCompliance`
 * for all) or one 7-value compliance for every frame (Rigid3: c_t for the translation and the
 * upper triangle of the 3×3 rotational compliance). Then
 *   W_ij += factor · Σ_points J_i,p · c_p · J_j,p
 * with factor the ODE solver's position factor (dt for backward Euler) when
 * useIntegrationSchemeIntegrationFactors is on, else 1; the motion is corrected by
 * x = x_free ⊕ xFactor·Δ, v = v_free + vFactor·Δ (xFactor, vFactor: the solver's factors, else
 * correctionPositionFactor and correctionVelocityFactor/dt).
 * Rigid3 default (no compliance given): 1/m and (m·J)⁻¹ of the frame's mass (SOFA reads them from
 * a UniformMass; sofa-ts reads point 0's block of any mass of the node), times dt² when the
 * solver's factors are not used. A defaultCompliance replaces 1/m only.
 */
@sofaComponent({
  name: 'UncoupledConstraintCorrection',
  category: 'ConstraintCorrection',
  module: 'Sofa.Component.Constraint.Lagrangian.Correction',
  description: 'Component computing constraint forces within a simulated body using the compliance method.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Rigid3d'],
})
export class UncoupledConstraintCorrection extends BaseConstraintCorrection {
  readonly compliance = this.initData({
    name: 'compliance',
    type: RealArray(0),
    default: new Float64Array(0),
    range: nonNegative,
    help: 'compliance value on each dof; Rigid3: 7 values, the translation compliance then the upper triangle of the symmetric 3x3 rotation compliance',
  });
  readonly defaultCompliance = this.initData({
    name: 'defaultCompliance',
    type: Real,
    default: 0.00001,
    range: nonNegative,
    help: 'default compliance of every dof (when the compliance vector is empty)',
  });
  readonly verbose = this.initData({ name: 'verbose', type: Bool, default: false, help: 'dump the constraint matrix at each iteration' });
  readonly correctionVelocityFactor = this.initData({
    name: 'correctionVelocityFactor',
    type: Real,
    default: 1,
    help: 'factor applied to the constraint forces when correcting the velocities',
  });
  readonly correctionPositionFactor = this.initData({
    name: 'correctionPositionFactor',
    type: Real,
    default: 1,
    help: 'factor applied to the constraint forces when correcting the positions',
  });
  readonly useIntegrationFactors = this.initData({
    name: 'useIntegrationSchemeIntegrationFactors',
    type: Bool,
    default: true,
    help: 'use the ODE solver integration factors instead of correctionVelocityFactor and correctionPositionFactor',
    aliases: ['useOdeSolverIntegrationFactors'],
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the mechanical state corrected (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject',
    ),
  );
  readonly topology = this.initLink({
    name: 'topology',
    help: 'link to the topology container',
    accepts: isTopology,
    expected: 'a topology container',
    search: 'none',
  });

  private solver: BaseOdeSolver | undefined;
  /** Compliances used: per point (Vec) or the 7 rigid values. */
  private comp: Float64Array = new Float64Array(0);
  private comp0 = 0.00001;
  private rigid = false;
  private d = 3;
  private readonly states: BaseMechanicalState[] = [];
  /** Unbuilt resolution in dof space (SOFA's constraint_force and constraint_disp). */
  private uForce: Float64Array = new Float64Array(0);
  private uDisp: Float64Array = new Float64Array(0);
  private uRows: StateRows | undefined;

  override init(): void {
    const s = this.mstate.require();
    if (!this.template) this.template = s.stateType.name;
    this.states.length = 0;
    this.states.push(s);
    this.rigid = s.stateType.name === 'Rigid3d';
    if (s.stateType.isRigid && !this.rigid)
      throw this.error(`${s.stateType.name} states are not supported (Vec1d, Vec2d, Vec3d or Rigid3d)`);
    this.d = s.stateType.derivSize;
    this.solver = findOdeSolver(this.context);
    if (!this.solver && this.useIntegrationFactors.value) this.useIntegrationFactors.value = false;
    if (this.defaultCompliance.value === 0)
      throw this.error('defaultCompliance is 0: the constraint resolution would diverge (give a positive compliance)');
    if (this.rigid) this.initRigid();
    else this.initVec(s);
    this.comp0 = this.defaultCompliance.value;
  }

  private initVec(s: BaseMechanicalState): void {
    let comp = this.compliance.value;
    if (comp.some((c) => c === 0)) throw this.error('the compliance vector has zero values: the constraint resolution would diverge');
    if (comp.length === 1 && this.defaultCompliance.isSet && this.defaultCompliance.value === comp[0]) comp = new Float64Array(0);
    if (comp.length !== s.size && comp.length > 0) {
      // one value per point, from the default (or the first value given)
      if (!this.defaultCompliance.isSet) this.defaultCompliance.value = comp[0];
      comp = new Float64Array(s.size).fill(this.defaultCompliance.value);
    }
    this.compliance.value = comp;
    this.comp = comp;
  }

  private initRigid(): void {
    const comp = this.compliance.value;
    if (comp.length === 7) {
      if (comp[0] === 0 || comp[1] === 0 || comp[4] === 0 || comp[6] === 0)
        throw this.error(
          'zero compliance on the translation or on the diagonal of the rotation compliance: the constraint resolution would diverge',
        );
      this.comp = Float64Array.from(comp);
      return;
    }
    if (comp.length % 7 !== 0)
      throw this.error(
        `a Rigid3d compliance has 7 values (translation, then the upper triangle of the 3x3 rotation compliance); got ${comp.length}`,
      );
    const dt = this.context.getDt();
    const odeFactor = this.solver && !this.useIntegrationFactors.value ? dt * dt : 1;
    const { mass, invInertia } = this.frameMass();
    const out = new Float64Array(7);
    out[0] = this.defaultCompliance.isSet ? this.defaultCompliance.value : odeFactor / mass;
    const J = this.defaultCompliance.isSet ? Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1) : invInertia;
    out[1] = odeFactor * J[0];
    out[2] = odeFactor * J[1];
    out[3] = odeFactor * J[2];
    out[4] = odeFactor * J[4];
    out[5] = odeFactor * J[5];
    out[6] = odeFactor * J[8];
    this.compliance.value = out;
    this.comp = out;
  }

  /** Mass m and (m·J)⁻¹ (3×3 row-major) of frame 0, from the mass of the node. */
  private frameMass(): { mass: number; invInertia: Float64Array } {
    const mass = this.context.getObject(isMass);
    if (!mass)
      throw this.error(
        'no compliance is given and the node has no mass to compute it from (give compliance="c_t c_rxx c_rxy c_rxz c_ryy c_ryz c_rzz" or add a UniformMass)',
      );
    const block = new Float64Array(36);
    const acc: MatrixAccumulator = {
      add(r, c, v) {
        if (r < 6 && c < 6) block[r * 6 + c] += v;
      },
    };
    mass.addMToMatrix(acc, 1);
    const m = block[0];
    if (!(m > 0)) throw this.error(`the mass of frame 0 is ${m}: a positive mass is needed to compute the compliance`);
    const I = Float64Array.of(block[21], block[22], block[23], block[27], block[28], block[29], block[33], block[34], block[35]);
    const invInertia = new Float64Array(9);
    mat3InvertDivided(invInertia, I);
    return { mass: m, invInertia };
  }

  correctedStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  /** The ODE solver whose factors are used (undefined: none found). */
  get odeSolver(): BaseOdeSolver | undefined {
    return this.solver;
  }

  integrationFactors(order: ConstraintOrder, dt: number): IntegrationFactors {
    if (this.useIntegrationFactors.value) return integrationFactors(this.solver, dt);
    const velocity = order === 'vel' ? this.correctionVelocityFactor.value : this.correctionVelocityFactor.value / dt;
    return { position: this.correctionPositionFactor.value, velocity };
  }

  /** SOFA's factor of W: the solver's position (or velocity) factor, or 1. */
  private complianceFactor(order: ConstraintOrder, dt: number): number {
    if (!this.useIntegrationFactors.value) return 1;
    const f = integrationFactors(this.solver, dt);
    return order === 'vel' ? f.velocity : f.position;
  }

  /** c_p·factor (Vec templates). */
  private pointCompliance(p: number): number {
    return p < this.comp.length ? this.comp[p] : this.comp0;
  }

  /** Σ_points n1·C·n2 over the common points of two rows (ascending points). */
  private pairCompliance(rows: StateRows, k1: number, k2: number, factor: number): number {
    const d = this.d;
    const P = rows.points,
      V = rows.values;
    let e1 = rows.rowPtr[k1],
      e2 = rows.rowPtr[k2];
    const end1 = rows.rowPtr[k1 + 1],
      end2 = rows.rowPtr[k2 + 1];
    let w = 0;
    while (e1 < end1 && e2 < end2) {
      const p1 = P[e1],
        p2 = P[e2];
      if (p1 < p2) e1++;
      else if (p2 < p1) e2++;
      else {
        w += this.entryCompliance(V, e1 * d, V, e2 * d, p1, factor);
        e1++;
        e2++;
      }
    }
    return w;
  }

  /** n1·C_p·n2 for one point, compliances scaled by `factor` (SOFA's computeCompliance). */
  private entryCompliance(a: Float64Array, oa: number, b: Float64Array, ob: number, p: number, factor: number): number {
    if (this.rigid) {
      const c = this.comp;
      const c0 = c[0] * factor,
        c1 = c[1] * factor,
        c2 = c[2] * factor,
        c3 = c[3] * factor,
        c4 = c[4] * factor,
        c5 = c[5] * factor,
        c6 = c[6] * factor;
      let w = (a[oa] * b[ob] + a[oa + 1] * b[ob + 1] + a[oa + 2] * b[ob + 2]) * c0;
      const r0 = a[oa + 3],
        r1 = a[oa + 4],
        r2 = a[oa + 5];
      w += (r0 * c1 + r1 * c2 + r2 * c3) * b[ob + 3];
      w += (r0 * c2 + r1 * c4 + r2 * c5) * b[ob + 4];
      w += (r0 * c3 + r1 * c5 + r2 * c6) * b[ob + 5];
      return w;
    }
    let dot = 0;
    for (let k = 0; k < this.d; k++) dot += a[oa + k] * b[ob + k];
    return dot * (this.pointCompliance(p) * factor);
  }

  addComplianceInConstraintSpace(graph: ConstraintGraph, W: Float64Array, n: number, order: ConstraintOrder, dt: number): void {
    const rows = graph.rowsOf(this.states[0]);
    const factor = this.complianceFactor(order, dt);
    this.addBlock(rows, W, n, factor, -1, -1);
  }

  /** W += factor·J C Jᵀ over its rows (all, or only rows in [begin, end]). */
  private addBlock(rows: StateRows, W: Float64Array, n: number, factor: number, begin: number, end: number): void {
    for (let k1 = 0; k1 < rows.nRows; k1++) {
      const r1 = rows.rowIds[k1];
      if (begin >= 0 && (r1 < begin || r1 > end)) continue;
      if (rows.rowPtr[k1] === rows.rowPtr[k1 + 1]) continue;
      W[r1 * n + r1] += this.pairCompliance(rows, k1, k1, factor);
      for (let k2 = k1 + 1; k2 < rows.nRows; k2++) {
        const r2 = rows.rowIds[k2];
        if (begin >= 0 && r2 > end) break;
        if (rows.rowPtr[k2] === rows.rowPtr[k2 + 1]) continue;
        const w = this.pairCompliance(rows, k1, k2, factor);
        if (w !== 0) {
          W[r1 * n + r2] += w;
          W[r2 * n + r1] += w;
        }
      }
    }
  }

  computeMotionCorrection(graph: ConstraintGraph, lambda: Float64Array): void {
    const [dx] = this.correctionBuffers(this.states);
    const rows = graph.rowsOf(this.states[0]);
    // f = Jᵀλ, then Δ = C·f in place
    rows.addJTLambda(dx!, lambda);
    this.complianceTimes(dx!, dx!);
  }

  /** out = C·f per point (out may alias f). */
  private complianceTimes(out: Float64Array, f: Float64Array): void {
    const n = this.states[0].size;
    const d = this.d;
    if (this.rigid) {
      const c = this.comp;
      for (let p = 0; p < n; p++) {
        const o = p * 6;
        out[o] = f[o] * c[0];
        out[o + 1] = f[o + 1] * c[0];
        out[o + 2] = f[o + 2] * c[0];
        const r0 = f[o + 3],
          r1 = f[o + 4],
          r2 = f[o + 5];
        out[o + 3] = r0 * c[1] + r1 * c[2] + r2 * c[3];
        out[o + 4] = r0 * c[2] + r1 * c[4] + r2 * c[5];
        out[o + 5] = r0 * c[3] + r1 * c[5] + r2 * c[6];
      }
      return;
    }
    for (let p = 0; p < n; p++) {
      const c = this.pointCompliance(p);
      for (let a = 0; a < d; a++) out[p * d + a] = f[p * d + a] * c;
    }
  }

  // ---- unbuilt resolution in dof space (SOFA's constraint_force and constraint_disp) ------------
  // SOFA's variant (the default): the diagonal blocks and the displacements use the compliance
  // without the solver's factor (SOFA's getBlockDiagonalCompliance and setConstraintDForce leave it
  // out: with useIntegrationSchemeIntegrationFactors on, the unbuilt λ is then the built one times
  // the factor, and the applied correction is smaller by that factor), and the displacement starts
  // at zero even where the starting forces are not: a point's displacement C·(Jᵀf) is only
  // computed when a row touching it changes its force. The consistent variant scales the
  // compliance like the built W and starts from the displacement of the starting forces.

  /** Factor of the unbuilt compliance of the current step. */
  private uFactor = 1;
  private unscaledWarned = false;

  override getBlockDiagonalCompliance(W: Float64Array, n: number, begin: number, end: number): void {
    if (this.uRows) this.addBlock(this.uRows, W, n, this.uFactor, begin, end);
  }

  override resetForUnbuiltResolution(
    graph: ConstraintGraph,
    force: Float64Array,
    n: number,
    order: ConstraintOrder,
    dt: number,
    consistent = false,
  ): void {
    const factor = this.complianceFactor(order, dt);
    this.uFactor = consistent ? factor : 1;
    if (!consistent && factor !== 1 && !this.unscaledWarned) {
      this.unscaledWarned = true;
      this.warn(
        `SOFA's unbuilt resolution uses this compliance without the ODE solver's integration factor (${factor}), while the correction applies it: the constraint impulses and the corrections come out ${factor} times those of a built solver`,
        'set useOdeSolverIntegrationFactors="0" (as SOFA\'s unbuilt scenes do), or consistentWithBuilt="1" on the constraint solver to solve the built problem',
      );
    }
    this.collectRows(graph, n);
    const s = this.states[0];
    const len = s.size * this.d;
    if (this.uForce.length !== len) {
      this.uForce = new Float64Array(len);
      this.uDisp = new Float64Array(len);
    } else {
      this.uForce.fill(0);
      this.uDisp.fill(0);
    }
    this.uRows = graph.rowsOf(s);
    // constraint_force = Jᵀf; constraint_disp = factor·C·Jᵀf (consistent) or 0 (SOFA)
    this.uRows.addJTLambda(this.uForce, force);
    if (consistent) for (let p = 0; p < s.size; p++) this.pointDisplacement(p);
  }

  override addConstraintDisplacement(d: Float64Array, begin: number, end: number): void {
    const rows = this.uRows;
    if (!rows) return;
    for (let k = 0; k < rows.nRows; k++) {
      const r = rows.rowIds[k];
      if (r < begin) continue;
      if (r > end) break;
      d[r] += rows.dotRow(k, this.uDisp);
    }
  }

  override setConstraintDForce(df: Float64Array, begin: number, end: number, update: boolean): void {
    const rows = this.uRows;
    if (!update || !rows) return;
    const d = this.d;
    for (let k = 0; k < rows.nRows; k++) {
      const r = rows.rowIds[k];
      if (r < begin) continue;
      if (r > end) break;
      const f = df[r];
      for (let e = rows.rowPtr[k]; e < rows.rowPtr[k + 1]; e++) {
        const p = rows.points[e];
        for (let a = 0; a < d; a++) this.uForce[p * d + a] += rows.values[e * d + a] * f;
        this.pointDisplacement(p);
      }
    }
  }

  /** disp_p = factor·C_p·force_p for one point. */
  private pointDisplacement(p: number): void {
    const f = this.uForce,
      out = this.uDisp,
      k = this.uFactor;
    if (this.rigid) {
      const c = this.comp;
      const o = p * 6;
      out[o] = f[o] * (c[0] * k);
      out[o + 1] = f[o + 1] * (c[0] * k);
      out[o + 2] = f[o + 2] * (c[0] * k);
      const r0 = f[o + 3],
        r1 = f[o + 4],
        r2 = f[o + 5];
      out[o + 3] = (r0 * c[1] + r1 * c[2] + r2 * c[3]) * k;
      out[o + 4] = (r0 * c[2] + r1 * c[4] + r2 * c[5]) * k;
      out[o + 5] = (r0 * c[3] + r1 * c[5] + r2 * c[6]) * k;
      return;
    }
    const c = this.pointCompliance(p) * k;
    for (let a = 0; a < this.d; a++) out[p * this.d + a] = f[p * this.d + a] * c;
  }
}
