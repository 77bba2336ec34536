import {
  BaseOdeSolver,
  Bool,
  Enum,
  Real,
  isKKTSolver,
  sofaComponent,
  type BaseConstraintValue,
  type BaseKKTSolver,
  type CheckpointReader,
  type CheckpointRecord,
} from '@sofa-ts/core';
import { MechanicalSystem, type AssembledKKT, type MBKFactors } from '@sofa-ts/assembly';
import { ConstraintValue } from '../constraint/ConstraintValue.js';
import { Stabilization } from '../constraint/Stabilization.js';

const stabilizationModes = ['no stabilization', 'pre-stabilization', 'post-stabilization rhs', 'post-stabilization assembly'] as const;
const formulations = ['vel', 'dv', 'acc'] as const;
const constraintForceModes = ['no', 'add', 'clear', 'propagate'] as const;

/**
 * The Compliant plugin's CompliantImplicitSolver (AssembledSolver): one linearized implicit step
 * of constrained dynamics, assembled as one KKT system (Faure 2012, "Compliant plugin"):
 *   v₊ = v + h·M⁻¹·(α·f₊ + (1−α)·f),   x₊ = x + β·h·v₊        (α = implicitVelocity, β = implicitPosition)
 * Linearizing f₊ and the compliances' λ = −C⁻¹·(φ + ...) gives, in the velocity formulation,
 *   [ H   −Jᵀ         ] [v₊]   [ P·c ]     H = M − h·α·B − h²·α·β·K
 *   [ J   C/(h²·α·β)  ] [λ ] = [  b  ]     c = h·f + M·v + h·(1−α)·B·v + h²·α·(1−β)·K·v
 *                                           b = dynamics value/α − (1−β)·J·v, all over β
 * where J are the rows of the compliant states (mapped states carrying compliances), C their
 * compliances, and the dynamics value of a row is its constraint value's (−φ/h for elastic
 * rows, 0 for stabilized hard ones). λ is an impulse (force·h). Then x ← x + h·(β·v₊ + (1−β)·v),
 * the position update these right-hand sides assume (SOFA writes x ← x + β·h·v₊, the same for the
 * default β = 1; for β ≠ 1 it drops the (1−β)·h·v term, so that α = β = ½ is not the trapezoidal
 * rule there as it is here).
 * The dv formulation solves for Δv (c = h·f + h·B·v + h²·α·K·v, b = (value/α − J·v)/β), the acc
 * formulation for the acceleration (c = f + B·v + h·α·K·v, b = (value/α − J·v)/(β·h)).
 * Stabilization: a correction pass [H −Jᵀ; J C/(h²αβ)]·[v_s; μ] = [0; correction] (−φ/h on the
 * rows to correct), then x ← x + β·h·v_s; before the dynamics (pre-stabilization, the default) or
 * after it with updated violations (post-stabilization, reusing the factorization or assembling
 * again). The KKT system is solved by the KKT solver of the solver's node.
 */
@sofaComponent({
  name: 'CompliantImplicitSolver',
  aliases: ['AssembledSolver'],
  category: 'OdeSolver',
  module: 'Compliant',
  description: 'Newmark-beta implicit solver for constrained dynamics using assembly.',
})
export class CompliantImplicitSolver extends BaseOdeSolver {
  /** Positions integrate x += h·(β·v₊ + (1 − β)·v): a velocity correction Δ moves x by h·β·Δ. */
  override getPositionIntegrationFactor(dt: number): number {
    return dt * this.beta.value;
  }

  /** The dynamics matrix H = M − h·α·B − h²·α·β·K (constraints apart). */
  override systemMatrixFactors(h: number): { m: number; b: number; k: number } {
    const a = this.alpha.value,
      b = this.beta.value;
    return { m: 1, b: -h * a, k: -h * h * a * b };
  }

  readonly stabilization = this.initData({
    name: 'stabilization',
    type: Enum(stabilizationModes),
    default: 'pre-stabilization',
    help: 'apply a stabilization pass on kinematic constraints requesting it',
  });
  readonly warmStart = this.initData({
    name: 'warm_start',
    type: Bool,
    default: true,
    help: 'warm start iterative solvers from the last velocities and multipliers',
  });
  readonly debug = this.initData({ name: 'debug', type: Bool, default: false, help: 'print the sizes and solutions of the systems' });
  readonly constraintForces = this.initData({
    name: 'constraint_forces',
    type: Enum(constraintForceModes),
    default: 'no',
    help: 'constraint forces put in the force vectors of the compliant states at the end of the step: no, add (to the existing forces), clear (replacing them), propagate (replacing them and mapped up to the independent dofs)',
  });
  readonly alpha = this.initData({
    name: 'implicitVelocity',
    type: Real,
    default: 1,
    help: 'weight of the next forces in the average forces used to update the velocities (1 implicit, 0 explicit)',
  });
  readonly beta = this.initData({
    name: 'implicitPosition',
    type: Real,
    default: 1,
    help: 'weight of the next velocities in the average velocities used to update the positions (1 implicit, 0 explicit)',
  });
  readonly stabilizationDamping = this.initData({
    name: 'stabilization_damping',
    type: Real,
    default: 1e-7,
    help: 'damping added to the constraint block of the correction pass, to relax infeasible corrections',
  });
  readonly formulation = this.initData({
    name: 'formulation',
    type: Enum(formulations),
    default: 'vel',
    help: 'solve the dynamics for the velocity (vel), the velocity change (dv) or the acceleration (acc)',
  });
  readonly neglectingComplianceForces = this.initData({
    name: 'neglecting_compliance_forces_in_geometric_stiffness',
    type: Bool,
    default: true,
    help: 'ignore the last constraint forces in the geometric stiffness of the mappings',
  });
  readonly propagateLambdas = this.initData({
    name: 'propagate_lambdas',
    type: Bool,
    default: false,
    help: 'deprecated: use constraint_forces="propagate"',
  });

  private kktSolver!: BaseKKTSolver;
  /** The last assembled system (its matrices are refilled in place by the next assembly). */
  private kktCache: AssembledKKT | undefined;
  private system: MechanicalSystem | undefined;
  /** Constraint value of each compliant state (the scene's, else a default). */
  private values: BaseConstraintValue[] = [];
  private valuesVersion = -1;
  /** (m) c_k;  (m + n) unknowns x = [v; λ] and right-hand side;  (n) last λ;  (m) last dv or acceleration. */
  private ck = new Float64Array(0);
  private x = new Float64Array(0);
  private rhs = new Float64Array(0);
  private lambda: Float64Array = new Float64Array(0);
  private acc = new Float64Array(0);

  override init(): void {
    const kkt = this.context.objects.find(isKKTSolver);
    if (!kkt)
      throw this.error(
        'needs a KKT solver in its node (LDLTSolver, LUSolver, MinresSolver, CgSolver or SequentialSolver)',
        'add one next to the solver',
      );
    this.kktSolver = kkt;
    if (!(this.alpha.value > 0 && this.alpha.value <= 1)) throw this.error(`implicitVelocity must be in (0, 1] (got ${this.alpha.value})`);
    if (!(this.beta.value > 0 && this.beta.value <= 1)) throw this.error(`implicitPosition must be in (0, 1] (got ${this.beta.value})`);
    if (this.propagateLambdas.value && !this.constraintForces.isSet) this.constraintForces.value = 'propagate';
  }

  /**
   * The compiled system of the solver's subtree (built at the first step, after every init, and
   * again when the subtree changed: contacts added or removed, ...).
   */
  getSystem(): MechanicalSystem {
    if (!this.system || this.system.isStale) {
      const sys = MechanicalSystem.compile(this.context);
      if (this.ck.length !== sys.size) this.ck = new Float64Array(sys.size);
      if (this.acc.length !== sys.size) this.acc = new Float64Array(sys.size);
      // constraint rows may differ: choose their values again, no warm start of λ (but a
      // checkpoint's λ at the first compile after a restore)
      this.valuesVersion = -1;
      this.lambda = this.restoredLambda ?? new Float64Array(0);
      this.restoredLambda = undefined;
      this.system = sys;
      sys.propagatePositionsAndVelocities();
    }
    return this.system;
  }

  /** Wall-clock milliseconds of the phases of the last step (forces + assembly of the KKT system, its factorization, the solves). */
  readonly timings = { assembly: 0, factor: 0, solve: 0 };

  /** The last multipliers λ (impulses in the vel and dv formulations, forces in acc), one per constraint row. */
  get lagrangeMultipliers(): Float64Array {
    return this.lambda;
  }

  solve(dt: number): void {
    const t0 = performance.now();
    const sys = this.getSystem();
    const h = dt;
    const a = this.alpha.value,
      b = this.beta.value;
    const form = this.formulation.value;
    const stab = this.stabilization.value;
    const kktSolver = this.kktSolver;

    // f = F(x, v), c_k = h·f (vel, dv) or f (acc)
    this.computeForces(sys, h);
    const kkt = this.assemble(sys, h);
    const { m, n } = kkt;
    this.ensureVectors(m, n);
    this.filterConstraints(kkt);
    const t1 = performance.now();
    kktSolver.factor(kkt);
    const t2 = performance.now();
    const x = this.x.subarray(0, m + n),
      rhs = this.rhs.subarray(0, m + n);

    if (n > 0 && stab === 'pre-stabilization') this.correct(sys, kkt, h);

    // dynamics
    if (this.warmStart.value) {
      x.set(form === 'vel' ? sys.v : this.acc, 0);
      x.set(this.lambda.subarray(0, n), m);
    } else x.fill(0);
    this.rhsDynamics(sys, kkt, rhs, h, a, b);
    kktSolver.solve(x, kkt, rhs);
    if (this.debug.value)
      console.log(`${this.describe()}: m = ${m}, n = ${n}, rhs = [${Array.from(rhs).join(' ')}], solution = [${Array.from(x).join(' ')}]`);

    // v₊ (or Δv, a), λ;  x ← x + h·(β·v₊ + (1−β)·v), the (1−β) part with the velocities of the step's start
    const v = sys.v;
    if (b !== 1) this.integrate(sys, v, (1 - b) * h);
    if (form === 'vel') v.set(x.subarray(0, m));
    else {
      this.acc.set(x.subarray(0, m));
      const s = form === 'dv' ? 1 : h;
      for (let i = 0; i < m; i++) v[i] += s * this.acc[i];
    }
    this.lambda.set(x.subarray(m, m + n));
    this.integrate(sys, v, b * h);

    if (n > 0) this.applyConstraintForces(sys, kkt, form === 'vel' ? 1 / h : 1);
    if (n > 0 && (stab === 'post-stabilization rhs' || stab === 'post-stabilization assembly'))
      this.postStabilize(sys, h, stab === 'post-stabilization assembly');
    kkt.constraints.forEach((c, i) => {
      if (c.projector) this.values[i].clear();
    });

    sys.propagatePositionsAndVelocities();
    sys.touchStates();
    const t3 = performance.now();
    this.timings.assembly = t1 - t0;
    this.timings.factor = t2 - t1;
    this.timings.solve = t3 - t2;
    const st = kktSolver.lastStats;
    this.lastStats = { iterations: st?.iterations ?? 0, residual: st?.residual ?? 0, timeMs: performance.now() - t0 };
  }

  /** f = F(x, v) (mapped forces included) and c_k = h·f, or f for acc; optionally last λ/h on compliant states for the geometric stiffness. */
  private computeForces(sys: MechanicalSystem, h: number): void {
    sys.computeForce(sys.f);
    const factor = this.formulation.value === 'acc' ? 1 : h;
    const ck = this.ck,
      f = sys.f;
    for (let i = 0; i < ck.length; i++) ck[i] = factor * f[i];
    if (!this.neglectingComplianceForces.value && this.lambda.length > 0) {
      for (const c of sys.compliantStates) {
        const fc = c.state.f;
        for (let i = 0; i < c.rows; i++) fc[i] += this.lambda[c.offset + i] / factor;
      }
    }
  }

  /** H = M − h·α·B − h²·α·β·K with C scaled by 1/(h²·α·β). */
  private assemble(sys: MechanicalSystem, h: number): AssembledKKT {
    const a = this.alpha.value,
      b = this.beta.value;
    const kkt = sys.assembleKKT({ m: 1, b: -h * a, k: -h * h * a * b }, 1 / (h * h * a * b), h);
    if (this.valuesVersion !== kkt.patternVersion || this.values.length !== kkt.constraints.length) this.chooseValues(kkt);
    this.kktCache = kkt;
    return kkt;
  }

  /** The scene's constraint value of each compliant state, else Stabilization for hard rows (C = 0) and ConstraintValue for elastic ones. */
  private chooseValues(kkt: AssembledKKT): void {
    this.values = kkt.constraints.map((c) => {
      if (c.value) return c.value;
      const C = kkt.C;
      let hard = true;
      for (let r = c.offset; r < c.offset + c.rows && hard; r++)
        for (let q = C.rowPtr[r]; q < C.rowPtr[r + 1]; q++) if (C.values[q] !== 0) hard = false;
      return hard ? new Stabilization() : new ConstraintValue();
    });
    this.valuesVersion = kkt.patternVersion;
  }

  private ensureVectors(m: number, n: number): void {
    if (this.x.length !== m + n) {
      this.x = new Float64Array(m + n);
      this.rhs = new Float64Array(m + n);
    }
    if (this.lambda.length !== n) this.lambda = new Float64Array(n);
  }

  /** Activation masks of projected rows: all active, then each constraint value may deactivate blocks. */
  private filterConstraints(kkt: AssembledKKT): void {
    kkt.constraints.forEach((c, i) => {
      const p = c.projector;
      if (!p) return;
      if (p.active.length !== c.blocks) p.active = new Uint8Array(c.blocks);
      p.active.fill(1);
      this.values[i].filterConstraints(p.active, c.state);
    });
  }

  /** rhs = [P·c; b] of the dynamics (see the class comment). */
  private rhsDynamics(sys: MechanicalSystem, kkt: AssembledKKT, rhs: Float64Array, h: number, a: number, b: number): void {
    const { m } = kkt;
    const form = this.formulation.value;
    const factors: MBKFactors =
      form === 'vel'
        ? { m: 1, b: h * (1 - a), k: h * h * a * (1 - b) }
        : form === 'dv'
          ? { m: 0, b: h, k: h * h * a }
          : { m: 0, b: 1, k: h * a };
    const c = rhs.subarray(0, m);
    c.set(this.ck);
    sys.addMBKv(c, factors, sys.v);
    sys.projectResponse(c);
    const stabilizing = this.stabilization.value !== 'no stabilization';
    kkt.constraints.forEach((cs, i) => {
      const o = m + cs.offset;
      this.values[i].dynamics(rhs, o, cs.state, stabilizing, h);
      const vc = cs.state.v;
      for (let r = 0; r < cs.rows; r++) {
        let y = rhs[o + r] / a;
        if (form === 'vel') y = (y - (1 - b) * vc[r]) / b;
        else if (form === 'dv') y = (y - vc[r]) / b;
        else y = (y - vc[r]) / (b * h);
        rhs[o + r] = y;
      }
    });
  }

  /** rhs = [0; correction values]. */
  private rhsCorrection(kkt: AssembledKKT, rhs: Float64Array, h: number): void {
    rhs.fill(0, 0, kkt.m);
    kkt.constraints.forEach((c, i) => this.values[i].correction(rhs, kkt.m + c.offset, c.state, h));
  }

  /** Correction pass: solve for v_s with the correction values, x ← x + β·h·v_s (velocities untouched). */
  private correct(sys: MechanicalSystem, kkt: AssembledKKT, h: number): void {
    const x = this.x.subarray(0, kkt.m + kkt.n),
      rhs = this.rhs.subarray(0, kkt.m + kkt.n);
    x.fill(0);
    this.rhsCorrection(kkt, rhs, h);
    this.kktSolver.correct(x, kkt, rhs, this.stabilizationDamping.value);
    this.integrate(sys, x.subarray(0, kkt.m), this.beta.value * h);
  }

  /** Post-stabilization: propagate, update the violations (and the system), correct. */
  private postStabilize(sys: MechanicalSystem, h: number, reassemble: boolean): void {
    sys.propagatePositionsAndVelocities();
    this.computeForces(sys, h);
    let kkt: AssembledKKT;
    if (reassemble) {
      kkt = this.assemble(sys, h);
      this.filterConstraints(kkt);
      this.kktSolver.factor(kkt);
    } else {
      // the factored system of the step; the constraint values read the updated violations
      kkt = this.kktCache!;
      this.filterConstraints(kkt);
    }
    this.correct(sys, kkt, h);
  }

  /** Constraint forces λ·factor into the compliant states' f, per constraint_forces. */
  private applyConstraintForces(sys: MechanicalSystem, kkt: AssembledKKT, factor: number): void {
    const mode = this.constraintForces.value;
    if (mode === 'no') return;
    if (mode === 'propagate') {
      sys.f.fill(0);
      for (const s of sys.mappedStates) s.state.f.fill(0);
    }
    for (const c of kkt.constraints) {
      const f = c.state.f;
      for (let r = 0; r < c.rows; r++) {
        const l = factor * this.lambda[c.offset + r];
        f[r] = mode === 'add' ? f[r] + l : l;
      }
    }
    if (mode === 'propagate') sys.accumulateMappedForces(sys.f);
  }

  /** x ← x + s·vec for every master (vec in derivative layout). */
  private integrate(sys: MechanicalSystem, vec: Float64Array, s: number): void {
    for (const ms of sys.masters) {
      const xv = sys.x.subarray(ms.coordOffset, ms.coordOffset + ms.coordLength);
      const vv = vec.subarray(ms.offset, ms.offset + ms.derivLength);
      ms.state.stateType.addDerivToCoord(xv, xv, vv, s, ms.state.size);
    }
  }

  override reset(): void {
    this.lambda.fill(0);
    this.acc.fill(0);
  }

  /** A checkpoint's λ, taken at the next compile (which otherwise starts λ afresh). */
  private restoredLambda: Float64Array | undefined;

  /** Checkpoint: the warm starts, λ and the last dv or acceleration. */
  checkpointState(): CheckpointRecord {
    return { lambda: this.lambda, acc: this.acc };
  }

  restoreState(saved: CheckpointReader): void {
    this.restoredLambda = saved.array('lambda', Float64Array).slice();
    this.acc = saved.restoreArray('acc', this.acc);
  }
}
