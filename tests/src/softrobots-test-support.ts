import { loadSceneFromString, type SofaScene } from 'sofa-ts';

/** The Gauss-Seidel constraint solver of the direct-actuation tests: solved to round-off. */
export const TIGHT_GAUSS_SEIDEL = '<BlockGaussSeidelConstraintSolver tolerance="1e-14" maxIterations="1000"/>';

export interface SoftRobotSceneOptions {
  dt: number;
  /** Root gravity (default none). */
  gravity?: string;
  /** The constraint solver element (default TIGHT_GAUSS_SEIDEL). */
  solver?: string;
  /** Attributes of the EulerImplicitSolver (default: no Rayleigh damping). */
  ode?: string;
  /** Everything else of node "p": its state, mass, forces, constraints and soft-robot components. */
  body: string;
}

/**
 * The scene most soft-robot tests share: one node "p" under a FreeMotionAnimationLoop, integrated
 * by backward Euler with a SparseLDLSolver, its constraints corrected by a
 * LinearSolverConstraintCorrection (W = J·A⁻¹·Jᵀ exact, so closed forms hold to round-off).
 */
export function softRobotScene(o: SoftRobotSceneOptions): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" dt="${o.dt}" gravity="${o.gravity ?? '0 0 0'}">
    <RequiredPlugin name="SoftRobots"/>
    <RequiredPlugin name="SoftRobots.Inverse"/>
    <FreeMotionAnimationLoop/>
    ${o.solver ?? TIGHT_GAUSS_SEIDEL}
    <Node name="p">
      <EulerImplicitSolver ${o.ode ?? 'rayleighStiffness="0" rayleighMass="0"'}/>
      <SparseLDLSolver/>
      ${o.body}
      <LinearSolverConstraintCorrection/>
    </Node>
  </Node>`);
}
