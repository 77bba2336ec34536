import {
  Bool,
  host,
  Int,
  nonNegative,
  Real,
  Str,
  outputFilePath,
  sofaComponent,
  type CheckpointReader,
  type CheckpointRecord,
} from '@sofa-ts/core';
import { isAssemblyLinearSolver, type LinearSolver, type MechanicalSystem } from '@sofa-ts/assembly';
import { accelerationOf, dotOf, integrate, systemEnergies, SystemOdeSolver } from './ode-support.js';

/**
 * SOFA's VariationalSymplecticSolver (Kharevych et al., "Geometric, variational integrators for
 * computer animation", 2006): a variational midpoint integrator on positions q and momenta p,
 * conserving momentum and, up to O(h²), energy.
 *
 * Implicit (default): the midpoint displacement res = q_mid − q_k solves, by Newton iterations,
 *   (4/h²·M + 4·rM/h·M − (1 + 4·rK/h)·K)·res_i = P·( f(q_k + res_{i−1}) − K·res_{i−1} + (2/h)·p_k )
 * (at most `steps` iterations, stopped when |q_i − q_{i−1}|/|q_k| <= newtonError); then
 *   v_{k+1} = (2/h)·res,  p_{k+1} = (h/2)·P·f(q_k + (h/2)·v_{k+1}) + M·v_{k+1},  q_{k+1} = q_k + h·v_{k+1}.
 * Explicit (explicitIntegration): v_{k+1} = h·M⁻¹·(f(q_k) + p_k/h) (− rM·v_k), projected;
 *   q_{k+1} = q_k + h·v_{k+1};  p_{k+1} = M·v_{k+1}.
 * p starts as M·v at the first step (and after a reset). With computeHamiltonian, the Hamiltonian
 * ½·pᵀM⁻¹p + potential energy is stored in hamiltonianEnergy, the potential being updated
 * incrementally by −2·f·res (useIncrementalPotentialEnergy) or computed from the components.
 */
@sofaComponent({
  name: 'VariationalSymplecticSolver',
  category: 'OdeSolver',
  module: 'Sofa.Component.ODESolver.Backward',
  description: 'Variational midpoint integrator on positions and momenta (momentum and energy preserving).',
})
export class VariationalSymplecticSolver extends SystemOdeSolver {
  readonly newtonError = this.initData({
    name: 'newtonError',
    type: Real,
    default: 0.01,
    range: nonNegative,
    help: 'stop the Newton iterations when |q_i − q_{i−1}| / |q_k| is at most this',
  });
  readonly steps = this.initData({
    name: 'steps',
    type: Int,
    default: 5,
    range: nonNegative,
    help: 'largest number of Newton iterations per time step',
  });
  readonly rayleighStiffness = this.initData({
    name: 'rayleighStiffness',
    type: Real,
    default: 0,
    help: 'stiffness-proportional Rayleigh damping (>= 0)',
  });
  readonly rayleighMass = this.initData({
    name: 'rayleighMass',
    type: Real,
    default: 0,
    help: 'mass-proportional Rayleigh damping (>= 0)',
  });
  readonly saveEnergyInFile = this.initData({
    name: 'saveEnergyInFile',
    type: Bool,
    default: false,
    help: 'append time, kinetic, potential and total energies to the CSV file `file` at each step',
  });
  readonly explicitIntegration = this.initData({
    name: 'explicitIntegration',
    type: Bool,
    default: false,
    help: 'explicit (symplectic Euler) variant instead of the implicit midpoint one',
  });
  readonly file = this.initData({ name: 'file', type: Str, default: '', help: 'CSV file written when saveEnergyInFile is true' });
  readonly computeHamiltonian = this.initData({
    name: 'computeHamiltonian',
    type: Bool,
    default: true,
    help: 'compute the Hamiltonian ½pᵀM⁻¹p + potential after each implicit step',
  });
  readonly hamiltonianEnergy = this.initData({
    name: 'hamiltonianEnergy',
    type: Real,
    default: 0,
    help: 'Hamiltonian (total energy) after the last step',
    output: true,
  });
  readonly useIncrementalPotentialEnergy = this.initData({
    name: 'useIncrementalPotentialEnergy',
    type: Bool,
    default: true,
    help: 'potential energy accumulated step by step as −2·f·res (false: asked to the components)',
  });
  readonly threadSafeVisitor = this.initData({ name: 'threadSafeVisitor', type: Bool, default: false, help: 'accepted for compatibility' });

  readonly linearSolver = this.initLink<LinearSolver>({
    name: 'linearSolver',
    help: 'the linear solver (needed by the implicit scheme and the Hamiltonian)',
    accepts: isAssemblyLinearSolver,
    expected: 'a linear solver',
    search: 'up',
  });

  /** Newton iterations of the last implicit step. */
  newtonIterations = 0;

  // (size) momentum p, new momentum, Newton right-hand side b, displacement res, acceleration, scratch.
  private p: Float64Array = new Float64Array(0);
  private newp: Float64Array = new Float64Array(0);
  private b: Float64Array = new Float64Array(0);
  private res: Float64Array = new Float64Array(0);
  private acc: Float64Array = new Float64Array(0);
  private tmp: Float64Array = new Float64Array(0);
  // (coordSize) q_k and the previous Newton estimate.
  private oldPos: Float64Array = new Float64Array(0);
  private x0: Float64Array = new Float64Array(0);
  private started = false;
  private incrementalPotential = 0;

  /** A checkpoint's momentum, taken by the next allocation (the first step's compile). */
  private restoredP: Float64Array | undefined;

  protected allocate(sys: MechanicalSystem): void {
    this.p = this.restoredP?.length === sys.size ? this.restoredP : sys.newVector();
    this.restoredP = undefined;
    this.newp = sys.newVector();
    this.b = sys.newVector();
    this.res = sys.newVector();
    this.acc = sys.newVector();
    this.tmp = sys.newVector();
    this.oldPos = new Float64Array(sys.coordSize);
    this.x0 = new Float64Array(sys.coordSize);
  }

  override reset(): void {
    this.started = false;
  }

  /** Checkpoint: the momentum p carried from step to step, and the energy bookkeeping. */
  checkpointState(): CheckpointRecord {
    return { p: this.p, started: this.started, incrementalPotential: this.incrementalPotential };
  }

  restoreState(saved: CheckpointReader): void {
    this.restoredP = saved.array('p', Float64Array).slice();
    this.started = saved.bool('started');
    this.incrementalPotential = saved.number('incrementalPotential');
  }

  private solver(): LinearSolver {
    const s = this.linearSolver.get();
    if (!s) throw this.error('a linear solver is needed (implicit scheme or Hamiltonian): add one, e.g. CGLinearSolver or SparseLDLSolver');
    return s;
  }

  solve(dt: number): void {
    const t0 = performance.now();
    const sys = this.getSystem();
    const h = dt;
    const rM = this.rayleighMass.value;
    const rK = this.rayleighStiffness.value;
    const { p, newp, b, res, acc, oldPos, x0, tmp } = this;
    const { x, v, f } = sys;

    if (!this.started || this.context.getTime() === 0) {
      // p = M·v (zero acceleration assumed), and the potential energy at the start.
      p.fill(0);
      sys.addMBKv(p, { m: 1, b: 0, k: 0 }, v);
      const e = systemEnergies(sys);
      if (this.computeHamiltonian.value && this.useIncrementalPotentialEnergy.value) this.incrementalPotential = e.potential;
      if (this.saveEnergyInFile.value && !this.started) this.writeLine('time,kinetic energy,potential energy, hamiltonian energy', true);
      this.started = true;
    }

    if (this.explicitIntegration.value) {
      // a = M⁻¹(f + p/h) − rM·v;  v = h·a;  x += h·v;  p = M·v
      sys.computeForce(f);
      for (let i = 0; i < f.length; i++) f[i] = f[i] + p[i] / h;
      accelerationOf(sys, acc, f, this.linearSolver.get(), this);
      if (rM > 0) {
        for (let i = 0; i < acc.length; i++) acc[i] = acc[i] - rM * v[i];
        sys.projectResponse(acc);
      }
      for (let i = 0; i < v.length; i++) v[i] = h * acc[i];
      integrate(sys, x, x, v, h);
      newp.fill(0);
      sys.addMBKv(newp, { m: 1, b: 0, k: 0 }, v);
    } else {
      const solver = this.solver();
      oldPos.set(x);
      x0.set(x);
      let positionNorm = 0;
      for (let i = 0; i < oldPos.length; i++) positionNorm += oldPos[i] * oldPos[i];
      positionNorm = Math.sqrt(positionNorm);
      res.fill(0);
      const maxIt = this.steps.value;
      let it = 0;
      let err = 0;
      const factors = { m: 4 / (h * h) + (4 * rM) / h, b: 0, k: -1 - (4 * rK) / h };
      while ((it < maxIt && err > this.newtonError.value) || it === 0) {
        // b = f(q_i) + (2/h)·p − K·res, projected
        sys.computeForce(f);
        for (let i = 0; i < b.length; i++) b[i] = f[i] + (2 / h) * p[i];
        sys.addMBKv(b, { m: 0, b: 0, k: -1 }, res);
        sys.projectResponse(b);
        solver.solveSystem(sys, factors, b, res);
        // q_i = q_k + res;  err = |q_i − q_{i−1}| / |q_k|
        integrate(sys, x, oldPos, res, 1);
        let d2 = 0;
        for (let i = 0; i < x.length; i++) {
          const d = x[i] - x0[i];
          d2 += d * d;
        }
        x0.set(x);
        sys.propagatePositionsAndVelocities();
        err = Math.sqrt(d2) / positionNorm;
        it++;
      }
      this.newtonIterations = it;
      if (this.computeHamiltonian.value && this.useIncrementalPotentialEnergy.value) this.incrementalPotential += -2 * dotOf(f, res);
      // v = (2/h)·res;  q = q_k + (h/2)·v;  p_new = (h/2)·P·f(q) + M·v;  q = q_k + (h/2)·v + (h/2)·v
      for (let i = 0; i < v.length; i++) v[i] = (2 / h) * res[i];
      integrate(sys, x, oldPos, v, h / 2);
      sys.propagatePositionsAndVelocities();
      sys.computeForce(f);
      sys.projectResponse(f);
      for (let i = 0; i < newp.length; i++) newp[i] = (h / 2) * f[i];
      sys.addMBKv(newp, { m: 1, b: 0, k: 0 }, v);
      integrate(sys, x, x, v, h / 2);
      if (this.computeHamiltonian.value) {
        // ½·pᵀM⁻¹p through the linear solver on M
        tmp.fill(0);
        solver.solveSystem(sys, { m: 1, b: 0, k: 0 }, newp, tmp);
        const kinetic = 0.5 * dotOf(newp, tmp);
        const potential = this.useIncrementalPotentialEnergy.value ? this.incrementalPotential : systemEnergies(sys).potential;
        this.hamiltonianEnergy.value = kinetic + potential;
        if (this.saveEnergyInFile.value) this.writeLine(`${this.context.getTime()},${kinetic},${potential},${kinetic + potential}`, false);
      }
    }
    p.set(newp);
    sys.propagatePositionsAndVelocities();
    sys.touchStates();
    this.record(t0);
  }

  private writeLine(line: string, truncate: boolean): void {
    if (!this.file.value) return;
    // SOFA opens the file from the current directory; here beside the scene (or in its output folder), as every file a component writes.
    const name = outputFilePath(this, this.file.value);
    host().writeFile(name, `${line}\n`, { append: !truncate });
  }
}
