import { BaseOdeSolver, Bool, Real, sofaComponent, type CheckpointReader, type CheckpointRecord } from '@sofa-ts/core';
import { MechanicalSystem, isAssemblyLinearSolver, type LinearSolver, type MBKFactors } from '@sofa-ts/assembly';
import { add, scale } from '@sofa-ts/linalg';

/**
 * SOFA's EulerImplicitSolver: backward Euler with one linear solve per step (one Newton step),
 * optionally the trapezoidal rule (tr = ½) and Rayleigh damping (rM, rK):
 *   (1 + tr·h·rM)·M − tr·h·B − tr·h·(tr·h + rK)·K) Δv = h·(f + (tr·h + rK)·K·v − rM·M·v)
 *   v ← v + Δv,   x ← x + h·v
 * K = ∂f/∂x, B = ∂f/∂v. The right-hand side and the matrix are projected by the projective
 * constraints. firstOrder: (M − h·K) v = f, x ← x + h·v. vdamping multiplies v by exp(−h·vdamping).
 */
@sofaComponent({
  name: 'EulerImplicitSolver',
  aliases: ['EulerImplicit', 'ImplicitEulerSolver', 'ImplicitEuler'],
  category: 'OdeSolver',
  module: 'Sofa.Component.ODESolver.Backward',
  description: 'Time integrator using implicit backward Euler scheme.',
})
export class EulerImplicitSolver extends BaseOdeSolver {
  readonly rayleighStiffness = this.initData({
    name: 'rayleighStiffness',
    type: Real,
    default: 0,
    help: 'Rayleigh damping coefficient related to stiffness, > 0',
  });
  readonly rayleighMass = this.initData({
    name: 'rayleighMass',
    type: Real,
    default: 0,
    help: 'Rayleigh damping coefficient related to mass, > 0',
  });
  readonly vdamping = this.initData({
    name: 'vdamping',
    type: Real,
    default: 0,
    unit: '1/s',
    help: 'velocity decay coefficient (no decay if null)',
  });
  readonly firstOrder = this.initData({
    name: 'firstOrder',
    type: Bool,
    default: false,
    help: 'backward Euler for a first order ODE system (only the first derivative of the state appears)',
  });
  readonly trapezoidalScheme = this.initData({
    name: 'trapezoidalScheme',
    type: Bool,
    default: false,
    help: 'use the trapezoidal scheme instead of the implicit Euler scheme (second order accuracy in time)',
  });
  readonly solveConstraint = this.initData({
    name: 'solveConstraint',
    type: Bool,
    default: false,
    help: 'apply a constraint solver of the node after the linear solve (not provided: constraints are solved by the FreeMotionAnimationLoop; a warning says so when set)',
  });
  readonly threadSafeVisitor = this.initData({ name: 'threadSafeVisitor', type: Bool, default: false, help: 'accepted for compatibility' });
  readonly computeResidual = this.initData({
    name: 'computeResidual',
    type: Bool,
    default: false,
    help: 'compute the residual |M(v − v_n) − h·f| at the end of the step',
  });
  readonly residual = this.initData({
    name: 'residual',
    type: Real,
    default: Number.MAX_VALUE,
    help: 'residual norm at the end of the step',
    output: true,
  });

  readonly linearSolver = this.initLink<LinearSolver>({
    name: 'linearSolver',
    help: 'the linear solver (default: the first one in this node or above)',
    accepts: isAssemblyLinearSolver,
    expected: 'a linear solver',
    search: 'up',
    required: true,
  });

  // Initialised here: a field first assigned at the first step would be taken by the JIT for a
  // constant, and the recompiled system of a topological change would throw away the step code.
  private system: MechanicalSystem | undefined = undefined;
  /** (n) right-hand side b and solution Δv of the linear system. */
  private b: Float64Array = new Float64Array(0);
  private sol: Float64Array = new Float64Array(0);
  private vPrev: Float64Array = new Float64Array(0);
  /** (n) v − v_n for the residual; kept apart from `sol`, which is the next solve's initial guess. */
  private dvScratch: Float64Array = new Float64Array(0);

  /**
   * The compiled system of this solver's subtree (built at the first step, after every init, and
   * again when the subtree changed, e.g. contact force fields added or removed; buffers of an
   * unchanged size are kept, the solution being the next initial guess).
   */
  getSystem(): MechanicalSystem {
    if (!this.system || this.system.isStale) {
      const sys = MechanicalSystem.compile(this.context);
      if (this.b.length !== sys.size) {
        this.b = sys.newVector();
        this.vPrev = sys.newVector();
        this.dvScratch = sys.newVector();
      }
      // A restored checkpoint's solution (the next initial guess) is kept.
      if (this.sol.length !== sys.size) this.sol = sys.newVector();
      this.system = sys;
      sys.propagatePositionsAndVelocities();
    }
    return this.system;
  }

  /** (1 + tr·h·rM)·M − tr·h·B − tr·h·(tr·h + rK)·K; first order M − tr·h·K (tr = ½ trapezoidal). */
  override systemMatrixFactors(h: number): MBKFactors {
    const tr = this.trapezoidalScheme.value ? 0.5 : 1;
    const rM = this.rayleighMass.value;
    const rK = this.rayleighStiffness.value;
    return this.firstOrder.value ? { m: 1, b: 0, k: -h * tr } : { m: 1 + tr * h * rM, b: -tr * h, k: -tr * h * (tr * h + rK) };
  }

  override init(): void {
    if (this.solveConstraint.value) {
      this.warnAbout(
        this.solveConstraint,
        'solveConstraint=1 is not honoured: sofa-ts solves no constraint inside the ODE solver; Lagrangian constraints are solved by a FreeMotionAnimationLoop',
      );
    }
  }

  solve(dt: number): void {
    const t0 = performance.now();
    const sys = this.getSystem();
    const h = dt;
    const tr = this.trapezoidalScheme.value ? 0.5 : 1;
    const rM = this.rayleighMass.value;
    const rK = this.rayleighStiffness.value;
    const firstOrder = this.firstOrder.value;
    const b = this.b;
    const v = sys.v;

    // f = F(x, v)
    sys.computeForce(sys.f);
    b.set(sys.f);
    if (!firstOrder) {
      // b = h·(f + (tr·h + rK)·K·v − rM·M·v)
      sys.addMBKv(b, { m: -rM, b: 0, k: h * tr + rK }, v);
      scale(b, b, h);
    }
    sys.projectResponse(b);

    const factors = this.systemMatrixFactors(h);
    const stats = this.linearSolver.require().solveSystem(sys, factors, b, this.sol);

    if (this.computeResidual.value) this.vPrev.set(v);
    // v ← Δv + v (or v ← solution for first order); x ← x + h·v
    // (the vector loops are small shared functions: compiled early by the JIT, unlike this one)
    if (firstOrder) v.set(this.sol);
    else add(v, v, this.sol);
    for (const m of sys.masters) {
      const n = m.state.size;
      const xv = sys.x.subarray(m.coordOffset, m.coordOffset + m.coordLength);
      const vv = v.subarray(m.offset, m.offset + m.derivLength);
      m.state.stateType.addDerivToCoord(xv, xv, vv, h, n);
    }
    if (this.vdamping.value !== 0) {
      const decay = Math.exp(-h * this.vdamping.value);
      scale(v, v, decay);
    }
    sys.propagatePositionsAndVelocities();
    if (this.computeResidual.value) this.computeStepResidual(sys, h);
    sys.touchStates();
    this.lastStats = { iterations: stats.iterations, residual: stats.residual, timeMs: performance.now() - t0 };
  }

  /** residual = |P·(M·(v − v_n) − h·f(x, v))|² as SOFA reports it. */
  private computeStepResidual(sys: MechanicalSystem, h: number): void {
    const r = this.b;
    const dv = this.dvScratch;
    for (let i = 0; i < dv.length; i++) dv[i] = sys.v[i] - this.vPrev[i];
    r.fill(0);
    sys.addMBKv(r, { m: 1, b: 0, k: 0 }, dv);
    sys.computeForce(sys.f);
    for (let i = 0; i < r.length; i++) r[i] -= h * sys.f[i];
    sys.projectResponse(r);
    let s = 0;
    for (let i = 0; i < r.length; i++) s += r[i] * r[i];
    this.residual.value = s;
  }

  /** Checkpoint: the last solution, the next solve's initial guess (warm start). */
  checkpointState(): CheckpointRecord {
    return { sol: this.sol };
  }

  restoreState(saved: CheckpointReader): void {
    this.sol = saved.restoreArray('sol', this.sol);
  }

  override reset(): void {
    // States are reset by their own components; the compiled system stays valid.
  }
}
