import type { Node } from '../node.js';
import { BaseObject } from '../base-object.js';

/** Statistics a solver reports after a step, for the CLI summary and benchmarks. */
export interface SolverStats {
  iterations: number;
  residual: number;
  /** Wall-clock milliseconds spent in the last solve. */
  timeMs: number;
}

/** The factors of the matrix A = m·M + b·B + k·K a solver inverts in a step (K = ∂f/∂x, B = ∂f/∂v). */
export interface SystemMatrixFactors {
  readonly m: number;
  readonly b: number;
  readonly k: number;
}

/**
 * An ODE solver (SOFA OdeSolver): advances the mechanical states of its node's subtree by dt.
 * The animation loop calls it once per step for the highest node that holds it.
 *
 * A solver does not walk the scene itself: `MechanicalSystem.compile(this.context)` (package
 * @sofa-ts/assembly) gathers the subtree once — states, masses, force fields, mappings, projective
 * constraints — into global vectors x, v, f (the states' arrays become views of them) and offers
 * computeForce, the matrix-free product addMBKv/applyMBK of m·M + b·B + k·K, projectResponse, and
 * the assembled matrix for a LinearSolver's solveSystem. Compile at the first step (after every
 * init) and again when the system `isStale`.
 *
 * Constraint corrections ask it how a correction acts (SOFA's getPositionIntegrationFactor and
 * getVelocityIntegrationFactor): a response Δ = A⁻¹·Jᵀ·λ of its system moves the positions by
 * position·Δ and the velocities by velocity·Δ; and which matrix A it inverts
 * (systemMatrixFactors), for the corrections that invert it too (LinearSolverConstraintCorrection).
 */
export abstract class BaseOdeSolver extends BaseObject {
  readonly isOdeSolver = true;
  /**
   * Advances the subtree by dt: new x and v in the states (then propagatePositionsAndVelocities and
   * touchStates on the compiled system), and lastStats set for the CLI summary.
   */
  abstract solve(dt: number): void;
  /** Statistics of the last solve (iterations of the linear solver, ...). */
  lastStats: SolverStats | undefined;

  /** x moves by this·Δ for a correction Δ of the solved quantity. Default: a velocity solver (dt). */
  getPositionIntegrationFactor(dt: number): number {
    return dt;
  }

  /** v moves by this·Δ for a correction Δ of the solved quantity. Default: a velocity solver (1). */
  getVelocityIntegrationFactor(_dt: number): number {
    return 1;
  }

  /** The matrix this solver inverts in a step of dt, or undefined when it inverts none that a
   *  constraint correction could reuse (the correction then says so). */
  systemMatrixFactors(_dt: number): SystemMatrixFactors | undefined {
    return undefined;
  }
}

export function isOdeSolver(o: unknown): o is BaseOdeSolver {
  return typeof o === 'object' && o !== null && (o as { isOdeSolver?: unknown }).isOdeSolver === true;
}

/**
 * The node whose ODE solver integrates `node`: the solver node among its ancestors (itself
 * included, along every parent of SOFA's DAG) that has no solver node above it. SOFA's
 * SolveVisitor runs the solver of the first solver node it meets and does not descend, and that
 * solver's mechanical visitors traverse the whole subtree: a solver below another one is never
 * run (sofa-ts does not run it either, where SOFA would also run one it reaches by another path).
 * With two such nodes (a node under two sibling solvers), the first found.
 */
export function integratingSolverNode(node: Node): Node | undefined {
  for (const a of node.ancestorsAndSelf()) if (a.objects.some(isOdeSolver) && isTopSolverNode(a)) return a;
  return undefined;
}

/** True when no ancestor of `n` (every parent path, `n` excluded) holds an ODE solver. */
function isTopSolverNode(n: Node): boolean {
  const above = n.ancestorsAndSelf();
  for (let k = 1; k < above.length; k++) if (above[k].objects.some(isOdeSolver)) return false;
  return true;
}

/** The ODE solver that integrates `node` (see integratingSolverNode), if any. */
export function integratingOdeSolver(node: Node): BaseOdeSolver | undefined {
  return integratingSolverNode(node)?.objects.find(isOdeSolver);
}

/** The ODE solvers a step runs, in visit order: those of the active solver nodes with no solver above them. */
export function runningOdeSolvers(root: Node): BaseOdeSolver[] {
  const found: BaseOdeSolver[] = [];
  root.visit((n) => {
    if (!n.activated.value) return false;
    const here = n.objects.filter(isOdeSolver);
    if (here.length === 0) return true;
    if (isTopSolverNode(n)) found.push(...here);
    return false;
  });
  return found;
}

/** An animation loop (SOFA BaseAnimationLoop): one per root, it runs a whole time step. */
export abstract class BaseAnimationLoop extends BaseObject {
  readonly isAnimationLoop = true;
  abstract step(dt: number): void;
}

export function isAnimationLoop(o: unknown): o is BaseAnimationLoop {
  return typeof o === 'object' && o !== null && (o as { isAnimationLoop?: unknown }).isAnimationLoop === true;
}

/** Marker base of linear solvers; their solving interface lives with the assembly engine. */
export abstract class BaseLinearSolverMarker extends BaseObject {
  readonly isLinearSolver = true;
}

export function isLinearSolver(o: unknown): o is BaseLinearSolverMarker {
  return typeof o === 'object' && o !== null && (o as { isLinearSolver?: unknown }).isLinearSolver === true;
}

/** A mapping (SOFA BaseMapping): marks its node's state as computed from parent states. */
export function isMapping(o: unknown): boolean {
  return typeof o === 'object' && o !== null && (o as { isMapping?: unknown }).isMapping === true;
}
