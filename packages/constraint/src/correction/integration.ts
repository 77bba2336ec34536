import { isOdeSolver, type BaseObject, type BaseOdeSolver, type ConstraintOrder, type Node } from '@sofa-ts/core';
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
  const name = solver?.className ?? '';
  if (name === 'EulerExplicitSolver' || name === 'RungeKutta4Solver' || name === 'RungeKutta2Solver') return { position: dt * dt, velocity: dt };
  return { position: dt, velocity: 1 };
}

/** SOFA's correction factor of the compliance for a constraint order: position factor, or velocity's in 'vel'. */
export function complianceFactor(f: IntegrationFactors, order: ConstraintOrder): number {
  return order === 'vel' ? f.velocity : f.position;
}

/** The first ODE solver of `node` or of its ancestors (SOFA's context get<OdeSolver>()). */
export function findOdeSolver(node: Node): BaseOdeSolver | undefined {
  return node.getObject(isOdeSolver, 'up');
}

/** An ODE solver that compiles a mechanical system (EulerImplicitSolver and the solvers of @sofa-ts/solvers). */
interface SystemOwner {
  getSystem(): MechanicalSystem;
}

export function systemOf(solver: BaseOdeSolver, who: BaseObject): MechanicalSystem {
  const s = solver as unknown as Partial<SystemOwner>;
  if (typeof s.getSystem !== 'function') throw who.error(`${solver.describe()} gives no assembled system to invert (use EulerImplicitSolver or another solver of the assembly engine)`);
  return s.getSystem();
}

/**
 * The matrix A = m·M + b·B + k·K the ODE solver inverts at each step (SOFA's MechanicalMatrix of
 * the solver), read from its Data: EulerImplicitSolver gives
 *   (1 + tr·h·rM)·M − tr·h·B − tr·h·(tr·h + rK)·K   (tr = ½ with the trapezoidal scheme),
 * first order M − h·K; the explicit solvers M; the static solver −K.
 */
export function systemFactors(solver: BaseOdeSolver, dt: number): MBKFactors {
  const num = (name: string, dflt: number): number => {
    const d = solver.findData(name);
    return d ? (d.value as number) : dflt;
  };
  const flag = (name: string): boolean => {
    const d = solver.findData(name);
    return d ? (d.value as boolean) : false;
  };
  switch (solver.className) {
    case 'EulerImplicitSolver': {
      const h = dt;
      const tr = flag('trapezoidalScheme') ? 0.5 : 1;
      const rM = num('rayleighMass', 0), rK = num('rayleighStiffness', 0);
      if (flag('firstOrder')) return { m: 1, b: 0, k: -h * tr };
      return { m: 1 + tr * h * rM, b: -tr * h, k: -tr * h * (tr * h + rK) };
    }
    case 'StaticSolver':
      return { m: 0, b: 0, k: -1 };
    default:
      return { m: 1, b: 0, k: 0 };
  }
}
