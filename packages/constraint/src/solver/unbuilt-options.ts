import { Bool, type DataSpec } from '@sofa-ts/core';

/** What the help of the unbuilt Gauss-Seidel solvers says of SOFA's unbuilt resolution. */
export const UNBUILT_NOTE =
  "As in SOFA, each step starts cold: the constraints' warm start (a bilateral constraint's previous λ) is erased and the sweeps start from λ = 0, and UncoupledConstraintCorrection's compliance enters without the ODE solver's integration factor (with useIntegrationSchemeIntegrationFactors on, λ comes out that factor times the built one, and so does the correction applied); so its solution is not the one of BlockGaussSeidelConstraintSolver. consistentWithBuilt (sofa-ts) gives that one.";

/**
 * The sofa-ts Data choosing the unbuilt Gauss-Seidel's starting point and compliance:
 * false = SOFA's, true = the built solver's problem solved without building W.
 */
export function consistentWithBuiltSpec(scope = ''): DataSpec<boolean> {
  return {
    name: 'consistentWithBuilt',
    type: Bool,
    default: false,
    help: `sofa-ts${scope}: solve the built solver's problem without building W — keep the constraints' warm start (previous λ), start the corrections from the displacement of those forces and scale the uncoupled compliance like the built W, so that every sweep is BlockGaussSeidelConstraintSolver's and so is the solution; false: SOFA's unbuilt Gauss-Seidel (cold start from λ = 0, unscaled uncoupled compliance)`,
  };
}
