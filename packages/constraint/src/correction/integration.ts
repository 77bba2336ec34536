import { integratingOdeSolver, type BaseObject, type BaseOdeSolver, type ConstraintOrder, type Node } from '@sofa-ts/core';
import type { MBKFactors, MechanicalSystem } from '@sofa-ts/assembly';

/**
 * What an ODE solver says of a correction Δ computed by inverting its system (SOFA's
 * OdeSolver::getPositionIntegrationFactor / getVelocityIntegrationFactor): the position moves by
 * position·Δ and the velocity by velocity·Δ. Backward Euler solves for Δv: (dt, 1); the
 * explicit solvers solve for an acceleration: (dt², dt).
 */
export interface IntegrationFactors {
  readonly position: number;
  readonly velocity: number;
}

export function integrationFactors(solver: BaseOdeSolver | undefined, dt: number): IntegrationFactors {
  if (!solver) return { position: dt, velocity: 1 };
  return { position: solver.getPositionIntegrationFactor(dt), velocity: solver.getVelocityIntegrationFactor(dt) };
}

/** SOFA's correction factor of the compliance for a constraint order: position factor, or velocity's in 'vel'. */
export function complianceFactor(f: IntegrationFactors, order: ConstraintOrder): number {
  return order === 'vel' ? f.velocity : f.position;
}

/** The ODE solver that integrates `node`: the highest of its ancestors' (a solver below another one is never run). */
export function findOdeSolver(node: Node): BaseOdeSolver | undefined {
  return integratingOdeSolver(node);
}

/** An ODE solver that compiles a mechanical system (EulerImplicitSolver and the solvers of @sofa-ts/solvers). */
interface SystemOwner {
  getSystem(): MechanicalSystem;
}

export function systemOf(solver: BaseOdeSolver, who: BaseObject): MechanicalSystem {
  const s = solver as unknown as Partial<SystemOwner>;
  if (typeof s.getSystem !== 'function')
    throw who.error(
      `${solver.describe()} gives no assembled system to invert (use EulerImplicitSolver or another solver of the assembly engine)`,
    );
  return s.getSystem();
}

/**
 * The matrix A = m·M + b·B + k·K the ODE solver inverts at each step (SOFA's MechanicalMatrix of
 * the solver), as the solver declares it (BaseOdeSolver.systemMatrixFactors). A solver that
 * declares none cannot give its inverse to a correction: a located error says so.
 */
export function systemFactors(solver: BaseOdeSolver, dt: number, who: BaseObject): MBKFactors {
  const f = solver.systemMatrixFactors(dt);
  if (!f)
    throw who.error(
      `${solver.describe()} does not say which system it inverts, so its linear solver cannot give the constraint response (use EulerImplicitSolver, BDFOdeSolver, NewmarkImplicitSolver, StaticSolver, CompliantImplicitSolver or an explicit solver)`,
    );
  return f;
}
