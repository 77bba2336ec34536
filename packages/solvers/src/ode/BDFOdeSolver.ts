import { Int, Real, sofaComponent, type CheckpointReader, type CheckpointRecord } from '@sofa-ts/core';
import { isAssemblyLinearSolver, type LinearSolver, type MBKFactors, type MechanicalSystem } from '@sofa-ts/assembly';
import { bdfCoefficients } from './bdf-coefficients.js';
import { isNewtonRaphsonSolver, type NewtonRaphsonSolver } from './NewtonRaphsonSolver.js';
import type { NonLinearFunction } from './nonlinear-function.js';
import { dotOf, SystemOdeSolver } from './ode-support.js';

/**
 * SOFA's BDFOdeSolver: velocity-based backward differentiation formula of order p (variable step:
 * the coefficients come from the times of the last p + 1 states, see {@link bdfCoefficients}),
 * whose nonlinear step is solved by the linked NewtonRaphsonSolver. With a = (a_0..a_p), a_p = 1,
 * unknowns x_{n+1}, v_{n+1} and the forces f = F(x, v) − rM·M·v + rK·K·v (Rayleigh damping):
 *   r1 = Σ a_j·x_j − h·b·v_{n+1} = 0,        r2 = M·Σ a_j·v_j − h·b·f_{n+1} = 0   (both projected)
 * Newton on v (x follows so that r1 stays 0 along the step):
 *   [(1 + h·b·rM)·M − h·b·B − h·b·(rK + h·b)·K]·Δv = −r2 − h·b·K·r1,   Δx = h·b·Δv − r1.
 * Initial guess v = v_n, x = x_n + h·v_n. At the start the order grows 1, 2, ... up to `order`, as
 * the states needed become available. order 1 is backward Euler. |r2| is the Newton residual; the
 * estimate differences are on v. Orders above 6 are not zero-stable (warned).
 * States must be of vector types (their coordinates are combined linearly).
 */
@sofaComponent({
  name: 'BDFOdeSolver',
  category: 'OdeSolver',
  module: 'Sofa.Component.ODESolver.Backward',
  description: 'Velocity-based ODE solver using Backward Differentiation Formula (BDF), at any order, supporting variable time step size.',
})
export class BDFOdeSolver extends SystemOdeSolver implements NonLinearFunction {
  readonly order = this.initData({
    name: 'order',
    type: Int,
    default: 1,
    help: 'order of the method (1: backward Euler); the first steps use the orders their history allows',
  });
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
  readonly newtonSolver = this.initLink<NewtonRaphsonSolver>({
    name: 'newtonSolver',
    help: 'the NewtonRaphsonSolver solving each step (default: the first one of this node or below)',
    accepts: isNewtonRaphsonSolver,
    expected: 'a NewtonRaphsonSolver',
    search: 'down',
    required: true,
  });
  readonly linearSolver = this.initLink<LinearSolver>({
    name: 'linearSolver',
    help: 'the linear solver (default: the first one in this node or above)',
    accepts: isAssemblyLinearSolver,
    expected: 'a linear solver',
    search: 'up',
    required: true,
  });

  private sys: MechanicalSystem | undefined;
  /** History: (p+1) positions (coordSize) and velocities (size); index p is the step being solved. */
  private X: Float64Array[] = [];
  private V: Float64Array[] = [];
  /** Times of the history (t_{n+1−p} .. t_{n+1}). */
  private times: number[] = [];
  /** Past states stored (grows to `order` over the first steps). */
  private count = 0;
  /** Coefficients of the current step: a (p+1), b, h, p. */
  private a: Float64Array = new Float64Array(8);
  private b = 1;
  private h = 0;
  private p = 1;
  /** (size) r1, r2, f, the right-hand side, Δv, the x direction of a Newton step, scratch. */
  private r1: Float64Array = new Float64Array(0);
  private r2: Float64Array = new Float64Array(0);
  private f: Float64Array = new Float64Array(0);
  private rhs: Float64Array = new Float64Array(0);
  private dv: Float64Array = new Float64Array(0);
  private dxDir: Float64Array = new Float64Array(0);
  private tmp: Float64Array = new Float64Array(0);

  override init(): void {
    if (this.order.value === 0) {
      this.warn('the method cannot have order 0: order 1 is used');
      this.order.value = 1;
    } else if (this.order.value > 6) this.warn(`the method of order ${this.order.value} is not zero-stable`);
    else if (this.order.value < 0) throw this.error(`order must be >= 1 (got ${this.order.value})`);
    const n = this.newtonSolver.get();
    if (n) n.usedBy = this;
    this.resetHistory();
  }

  override reset(): void {
    this.resetHistory();
  }

  private resetHistory(): void {
    this.count = 0;
    this.times = [this.hasContext ? this.context.getTime() : 0];
    this.b = 1;
  }

  /** Checkpoint: the history (past states and their times) and the last coefficient b. */
  checkpointState(): CheckpointRecord {
    return { X: [...this.X], V: [...this.V], times: Float64Array.from(this.times), count: this.count, b: this.b };
  }

  /** Taken by the allocation at the first step (which otherwise starts the history afresh). */
  private restored: CheckpointReader | undefined;

  restoreState(saved: CheckpointReader): void {
    this.restored = saved;
  }

  protected allocate(sys: MechanicalSystem): void {
    for (const m of sys.masters) {
      const t = m.state.stateType;
      if (t.coordSize !== t.derivSize)
        throw this.error(
          `the state ${m.state.describe()} is of template ${m.state.template}: BDFOdeSolver combines coordinates linearly and supports vector states only (Vec1, Vec2, Vec3, Vec6)`,
        );
    }
    const maxP = Math.max(1, this.order.value);
    this.count = 0;
    this.times = [this.context.getTime()];
    this.X = Array.from({ length: maxP + 1 }, () => new Float64Array(sys.coordSize));
    this.V = Array.from({ length: maxP + 1 }, () => sys.newVector());
    if (this.a.length < maxP + 1) this.a = new Float64Array(maxP + 1);
    this.r1 = sys.newVector();
    this.r2 = sys.newVector();
    this.f = sys.newVector();
    this.rhs = sys.newVector();
    this.dv = sys.newVector();
    this.dxDir = sys.newVector();
    this.tmp = sys.newVector();
    const r = this.restored;
    this.restored = undefined;
    if (r) {
      // the saved history, each array of this system's size
      const fill = (key: string, into: Float64Array[]): void => {
        const saved = r.list(key);
        const fits = saved.length === into.length && saved.every((a, i) => a instanceof Float64Array && a.length === into[i].length);
        if (!fits)
          throw this.error(
            `checkpoint: the saved history '${key}' does not fit this system (${into.length} states of ${into[0]?.length ?? 0} values)`,
          );
        saved.forEach((a, i) => into[i].set(a as Float64Array));
      };
      fill('X', this.X);
      fill('V', this.V);
      this.times = [...r.array('times', Float64Array)];
      this.count = r.number('count');
      this.b = r.number('b');
    }
  }

  /** The matrix of a Newton iteration: (1 + h·b·rM)·M − h·b·B − h·b·(rK + h·b)·K. */
  override systemMatrixFactors(h: number): MBKFactors {
    const hb = h * this.b;
    return { m: 1 + hb * this.rayleighMass.value, b: -hb, k: -hb * (this.rayleighStiffness.value + hb) };
  }

  /** A correction Δv moves x by h·b·Δv. */
  override getPositionIntegrationFactor(dt: number): number {
    return dt * this.b;
  }

  solve(dt: number): void {
    const t0 = performance.now();
    const sys = (this.sys = this.getSystem());
    // History: X[0..count−1] = x_{n+1−count}..x_n, oldest first; the current state is pushed now.
    const order = Math.max(1, this.order.value);
    if (this.count === order) {
      const x0 = this.X[0];
      const v0 = this.V[0];
      for (let j = 0; j + 1 < order; j++) {
        this.X[j] = this.X[j + 1];
        this.V[j] = this.V[j + 1];
      }
      this.X[order - 1] = x0;
      this.V[order - 1] = v0;
    } else this.count++;
    const p = (this.p = this.count);
    this.X[p - 1].set(sys.x);
    this.V[p - 1].set(sys.v);
    this.times.push(this.context.getTime() + dt);
    while (this.times.length > p + 1) this.times.shift();
    this.h = dt;
    this.b = bdfCoefficients(this.times, p, this.a);
    // Initial guess: v = v_n, x = x_n + h·v_n.
    const x = sys.x;
    const v = sys.v;
    for (let i = 0; i < x.length; i++) x[i] = x[i] + dt * v[i];
    sys.propagatePositionsAndVelocities();
    const newton = this.newtonSolver.require();
    const converged = newton.solve(this);
    if (!converged && !newton.updateStateWhenDiverged.value) {
      sys.x.set(this.X[p - 1]);
      sys.v.set(this.V[p - 1]);
      sys.propagatePositionsAndVelocities();
    }
    sys.touchStates();
    this.lastStats = { iterations: newton.iterationsDone, residual: Math.sqrt(dotOf(this.r2, this.r2)), timeMs: performance.now() - t0 };
  }

  // --- the BDF step as a nonlinear equation in v, for the Newton solver ---

  evaluateCurrentGuess(): void {
    const sys = this.sys!;
    const { a, r1, r2, f, tmp } = this;
    const p = this.p;
    const hb = this.h * this.b;
    const x = sys.x;
    const v = sys.v;
    // f = F(x, v) − rM·M·v + rK·K·v
    sys.computeForce(f);
    const rM = this.rayleighMass.value;
    const rK = this.rayleighStiffness.value;
    if (rM !== 0 || rK !== 0) sys.addMBKv(f, { m: -rM, b: 0, k: rK }, v);
    sys.projectResponse(f);
    // r1 = Σ_{j<p} a_j·x_j + x − h·b·v
    for (let i = 0; i < r1.length; i++) {
      let s = x[i] - hb * v[i];
      for (let j = 0; j < p; j++) s += a[j] * this.X[j][i];
      r1[i] = s;
    }
    // r2 = M·(Σ_{j<p} a_j·v_j + v) − h·b·f
    for (let i = 0; i < tmp.length; i++) {
      let s = v[i];
      for (let j = 0; j < p; j++) s += a[j] * this.V[j][i];
      tmp[i] = s;
    }
    r2.fill(0);
    sys.addMBKv(r2, { m: 1, b: 0, k: 0 }, tmp);
    for (let i = 0; i < r2.length; i++) r2[i] = r2[i] - hb * f[i];
    sys.projectResponse(r1);
    sys.projectResponse(r2);
  }

  squaredNormLastEvaluation(): number {
    return dotOf(this.r2, this.r2);
  }

  /** rhs = −r2 − h·b·K·r1 (the matrix is assembled by the linear solver). */
  computeGradientFromCurrentGuess(): void {
    const { rhs, r1, r2 } = this;
    for (let i = 0; i < rhs.length; i++) rhs[i] = -r2[i];
    this.sys!.addMBKv(rhs, { m: 0, b: 0, k: -this.h * this.b }, r1);
    this.sys!.projectResponse(rhs);
  }

  solveLinearEquation(): void {
    this.dv.fill(0);
    this.linearSolver.require().solveSystem(this.sys!, this.systemMatrixFactors(this.h), this.rhs, this.dv);
    // The x direction that keeps r1 = 0 along the step: h·b·Δv − r1.
    const hb = this.h * this.b;
    for (let i = 0; i < this.dxDir.length; i++) this.dxDir[i] = hb * this.dv[i] - this.r1[i];
  }

  updateGuessFromLinearSolution(alpha: number): void {
    const sys = this.sys!;
    const { dv, dxDir } = this;
    for (let i = 0; i < dv.length; i++) {
      sys.v[i] = sys.v[i] + alpha * dv[i];
      sys.x[i] = sys.x[i] + alpha * dxDir[i];
    }
    sys.propagatePositionsAndVelocities();
  }

  squaredNormDx(): number {
    return dotOf(this.dv, this.dv);
  }

  squaredLastEvaluation(): number {
    return dotOf(this.sys!.v, this.sys!.v);
  }
}
