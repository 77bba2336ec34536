import { Bool, Real, sofaComponent, type CheckpointReader, type CheckpointRecord } from '@sofa-ts/core';
import { isAssemblyLinearSolver, type LinearSolver, type MBKFactors, type MechanicalSystem } from '@sofa-ts/assembly';
import { accelerationOf, integrate, SystemOdeSolver } from './ode-support.js';

/**
 * SOFA's NewmarkImplicitSolver: the Newmark scheme on the acceleration a_{n+1}, one linear solve
 * per step (the forces linearised around x_n, v_n):
 *   x_{n+1} = x_n + h·v_n + h²·((½ − β)·a_n + β·a_{n+1}),   v_{n+1} = v_n + h·((1 − γ)·a_n + γ·a_{n+1})
 *   M·a_{n+1} = f(x_{n+1}, v_{n+1}) − rM·M·v_{n+1} + rK·K·v_{n+1}   (Rayleigh damping)
 * which gives, with f ≈ f_n + K·(x_{n+1} − x_n) + B·(v_{n+1} − v_n):
 *   [(1 + h·γ·rM)·M − h·γ·B − (h²·β + h·γ·rK)·K]·a_{n+1}
 *     = f_n − rM·M·v_n + (h + rK)·K·v_n + [h²(½ − β)·K + h(1 − γ)·(B − rM·M + rK·K)]·a_n
 * γ = ½, β = ¼ (the defaults) is the average-acceleration (trapezoidal) rule: second order,
 * unconditionally stable, without numerical damping. a_0 = M⁻¹·P·f(x_0, v_0) at the first step.
 * SOFA also adds B·v_n to the right-hand side (its force fields ignore the B factor there); the
 * derivation above has no such term, since f_n already holds the damping force at v_n.
 */
@sofaComponent({
  name: 'NewmarkImplicitSolver',
  category: 'OdeSolver',
  module: 'Sofa.Component.ODESolver.Backward',
  description: 'Implicit time integrator using Newmark scheme.',
})
export class NewmarkImplicitSolver extends SystemOdeSolver {
  readonly rayleighStiffness = this.initData({
    name: 'rayleighStiffness',
    type: Real,
    default: 0,
    help: 'Rayleigh damping coefficient related to stiffness',
  });
  readonly rayleighMass = this.initData({
    name: 'rayleighMass',
    type: Real,
    default: 0,
    help: 'Rayleigh damping coefficient related to mass',
  });
  readonly vdamping = this.initData({
    name: 'vdamping',
    type: Real,
    default: 0,
    unit: '1/s',
    help: 'velocity decay coefficient (no decay if null)',
  });
  readonly gamma = this.initData({ name: 'gamma', type: Real, default: 0.5, help: 'Newmark scheme gamma coefficient' });
  readonly beta = this.initData({ name: 'beta', type: Real, default: 0.25, help: 'Newmark scheme beta coefficient' });
  readonly threadSafeVisitor = this.initData({ name: 'threadSafeVisitor', type: Bool, default: false, help: 'accepted for compatibility' });
  readonly linearSolver = this.initLink<LinearSolver>({
    name: 'linearSolver',
    help: 'the linear solver (default: the first one in this node or above)',
    accepts: isAssemblyLinearSolver,
    expected: 'a linear solver',
    search: 'up',
    required: true,
  });

  /** (size) a_n, the right-hand side, a_{n+1}, the position increment; a_n is valid after the first step. */
  private a: Float64Array = new Float64Array(0);
  private rhs: Float64Array = new Float64Array(0);
  private a1: Float64Array = new Float64Array(0);
  private hasAcc = false;

  protected allocate(sys: MechanicalSystem): void {
    this.a = sys.newVector();
    this.rhs = sys.newVector();
    this.a1 = sys.newVector();
    this.hasAcc = false;
    // A checkpoint's acceleration, taken at the first step's allocation.
    const r = this.restored;
    this.restored = undefined;
    if (r) {
      if (r.a.length !== this.a.length)
        throw this.error(`checkpoint: a saved acceleration of ${r.a.length} values, the system has ${this.a.length}`);
      this.a.set(r.a);
      this.hasAcc = r.hasAcc;
    }
  }

  private restored: { a: Float64Array; hasAcc: boolean } | undefined;

  /** Checkpoint: the acceleration a_n of the last step. */
  checkpointState(): CheckpointRecord {
    return { a: this.a, hasAcc: this.hasAcc };
  }

  restoreState(saved: CheckpointReader): void {
    this.restored = { a: saved.array('a', Float64Array).slice(), hasAcc: saved.bool('hasAcc') };
  }

  override reset(): void {
    this.hasAcc = false;
  }

  /** (1 + h·γ·rM)·M − h·γ·B − (h²·β + h·γ·rK)·K */
  override systemMatrixFactors(h: number): MBKFactors {
    const g = this.gamma.value;
    return { m: 1 + h * g * this.rayleighMass.value, b: -h * g, k: -h * h * this.beta.value - h * this.rayleighStiffness.value * g };
  }

  /** A correction Δa moves x by h²·β·Δa and v by h·γ·Δa. */
  override getPositionIntegrationFactor(dt: number): number {
    return dt * dt * this.beta.value;
  }

  override getVelocityIntegrationFactor(dt: number): number {
    return dt * this.gamma.value;
  }

  solve(dt: number): void {
    const t0 = performance.now();
    const sys = this.getSystem();
    const h = dt;
    const g = this.gamma.value;
    const be = this.beta.value;
    const rM = this.rayleighMass.value;
    const rK = this.rayleighStiffness.value;
    const { a, rhs, a1 } = this;
    const solver = this.linearSolver.require();
    if (!this.hasAcc) {
      // a_0 = M⁻¹·P·f(x_0, v_0)
      sys.computeForce(sys.f);
      a.fill(0);
      accelerationOf(sys, a, sys.f, solver, this);
      this.hasAcc = true;
    }
    // rhs = f_n + [h(1 − γ)·(B − rM·M + rK·K) + h²(1 − 2β)/2·K]·a_n − rM·M·v_n + (h + rK)·K·v_n, in
    // SOFA's order; SOFA skips the a_n term when rM = rK = 0 and β = ½ (then only its B part is
    // non-zero: SOFA drops it, and so does sofa-ts)
    sys.computeForce(rhs);
    if (rM !== 0 || rK !== 0 || be !== 0.5)
      sys.addMBKv(rhs, { m: -h * (1 - g) * rM, b: h * (1 - g), k: h * (1 - g) * rK + (h * h * (1 - 2 * be)) / 2.0 }, a);
    sys.addMBKv(rhs, { m: -rM, b: 0, k: rK + h }, sys.v);
    sys.projectResponse(rhs);
    const stats = solver.solveSystem(sys, this.systemMatrixFactors(h), rhs, a1);
    // SOFA's vector operations, one term at a time:
    // x ← x ⊕ h·v_n ⊕ h²(½ − β)·a_n ⊕ h²β·a_{n+1};  v ← v + h(1 − γ)·a_n + hγ·a_{n+1}
    const v = sys.v;
    integrate(sys, sys.x, sys.x, v, h);
    integrate(sys, sys.x, sys.x, a, h * h * (0.5 - be));
    integrate(sys, sys.x, sys.x, a1, h * h * be);
    const fa = h * (1 - g),
      fa1 = h * g;
    for (let i = 0; i < v.length; i++) v[i] = v[i] + a[i] * fa;
    for (let i = 0; i < v.length; i++) v[i] = v[i] + a1[i] * fa1;
    if (this.vdamping.value !== 0) {
      const decay = Math.exp(-h * this.vdamping.value);
      for (let i = 0; i < v.length; i++) v[i] *= decay;
    }
    a.set(a1);
    sys.propagatePositionsAndVelocities();
    sys.touchStates();
    this.lastStats = { iterations: stats.iterations, residual: stats.residual, timeMs: performance.now() - t0 };
  }
}
