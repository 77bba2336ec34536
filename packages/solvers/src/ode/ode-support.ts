import { BaseOdeSolver, type SolverStats } from '@sofa-ts/core';
import { MechanicalSystem, type LinearSolver } from '@sofa-ts/assembly';

/**
 * Base of the ODE solvers of this folder: the compiled mechanical system of the solver's subtree,
 * built at the first step (after every init), and the buffers the solver asks for then.
 */
export abstract class SystemOdeSolver extends BaseOdeSolver {
  private system: MechanicalSystem | undefined;

  /** The compiled system of this solver's subtree (compiled again when the subtree changed). */
  getSystem(): MechanicalSystem {
    if (!this.system || this.system.isStale) {
      const sys = MechanicalSystem.compile(this.context);
      this.allocate(sys);
      sys.propagatePositionsAndVelocities();
      this.system = sys;
    }
    return this.system;
  }

  /** Allocates the solver's vectors for a new system (init-time). */
  protected abstract allocate(sys: MechanicalSystem): void;

  /** Records the statistics of a step for the CLI. */
  protected record(t0: number, linear?: SolverStats): void {
    this.lastStats = { iterations: linear?.iterations ?? 0, residual: linear?.residual ?? 0, timeMs: performance.now() - t0 };
  }
}

/**
 * Base of the explicit solvers, which solve for an acceleration M·a = f: a constraint response Δ
 * moves x by dt²·Δ and v by dt·Δ, and the matrix they invert is the mass.
 */
export abstract class AccelerationOdeSolver extends SystemOdeSolver {
  override getPositionIntegrationFactor(dt: number): number {
    return dt * dt;
  }

  override getVelocityIntegrationFactor(dt: number): number {
    return dt;
  }

  override systemMatrixFactors(): { m: number; b: number; k: number } {
    return { m: 1, b: 0, k: 0 };
  }
}

/**
 * xOut = xIn ⊕ h·dv on every master state (positions integrated by the state type; rigid aware).
 * The vectors must be the solver's persistent buffers (their per-state views are cached).
 */
export function integrate(sys: MechanicalSystem, xOut: Float64Array, xIn: Float64Array, dv: Float64Array, h: number): void {
  const out = sys.coordViews(xOut);
  const x = sys.coordViews(xIn);
  const v = sys.views(dv);
  for (let i = 0; i < sys.masters.length; i++) {
    const m = sys.masters[i];
    m.state.stateType.addDerivToCoord(out[i], x[i], v[i], h, m.state.size);
  }
}

/** out = a + s·b (derivative vectors; out may alias a). */
export function axpyTo(out: Float64Array, a: Float64Array, s: number, b: Float64Array): void {
  for (let i = 0; i < out.length; i++) out[i] = a[i] + s * b[i];
}

export function dotOf(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** True when some mass of the system is not diagonal (SOFA's non-diagonal masses count > 0). */
export function hasNonDiagonalMass(sys: MechanicalSystem): boolean {
  return sys.masses.some((e) => !e.mass.isDiagonal);
}

/**
 * acc = M⁻¹·f with the masses' own inverse (diagonal masses): acc is cleared, then every mass on a
 * master state writes its points. Masses of mapped states do not act here, as in SOFA's accFromF.
 */
export function accFromF(sys: MechanicalSystem, acc: Float64Array, f: Float64Array): void {
  acc.fill(0);
  const av = sys.views(acc);
  const fv = sys.views(f);
  for (const e of sys.masses) {
    const st = sys.states[e.state];
    if (st.mapped) continue;
    e.mass.accFromF(av[st.index], fv[st.index]);
  }
}

/**
 * acc = M⁻¹·f, projected: with the masses' inverse when they are all diagonal, otherwise by
 * solving M·acc = P·f with the linear solver (which assembles P·M·P). Throws through `who` when a
 * linear solver is needed and missing.
 */
export function accelerationOf(
  sys: MechanicalSystem,
  acc: Float64Array,
  f: Float64Array,
  solver: LinearSolver | undefined,
  who: { error(m: string): Error },
): SolverStats | undefined {
  if (!hasNonDiagonalMass(sys)) {
    accFromF(sys, acc, f);
    sys.projectResponse(acc);
    return undefined;
  }
  if (!solver) throw who.error('the mass is not diagonal: a linear solver is needed to solve M·a = f (add one, e.g. SparseLDLSolver)');
  sys.projectResponse(f);
  return solver.solveSystem(sys, { m: 1, b: 0, k: 0 }, f, acc);
}

/** Kinetic and potential energies of the system (masses: ½vᵀMv and gravity; force fields' potentials). */
export function systemEnergies(sys: MechanicalSystem): { kinetic: number; potential: number } {
  let kinetic = 0;
  let potential = 0;
  for (const e of sys.masses) {
    const s = sys.states[e.state].state;
    kinetic += e.mass.getKineticEnergy(s.v);
    potential += e.mass.getPotentialEnergy(s.x);
  }
  for (const e of sys.forceFields) potential += e.ff.getPotentialEnergy(e.states.map((i) => sys.states[i].state.x));
  return { kinetic, potential };
}
