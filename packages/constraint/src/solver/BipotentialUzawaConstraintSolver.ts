import { Bool, Enum, Int, nonNegative, positive, Real, RealArray, sofaComponent } from '@sofa-ts/core';
import { BaseConstraintSolver, type ConstraintStep } from './base-constraint-solver.js';
import { GaussSeidelWork } from './gauss-seidel.js';
import { UzawaWork, bipotentialUzawa, type UzawaMethod, type UzawaOptions } from './uzawa.js';

const methods = ['local', 'global'] as const;

/**
 * The bi-potential friction contact solver of the HapCo paper (Talbi, Joli, Feng, Kheddar, GRAPP
 * 2008), in SOFA's constraint-solver form (a sofa-ts component; SOFA has no such solver):
 * contacts are solved by the predictor/corrector r* = r − ρ·(u + μ‖u_t‖·n), r = Proj_Kμ(r*)
 * (see uzawa.ts), either
 *   method="local":  Gauss-Seidel over the contacts with an inner Uzawa loop per contact
 *                    (stops on ‖Δr_α‖/ρ < localTolerance = ε2, or maxLocalIterations), sweeps until
 *                    ‖Δr‖/ρ < tolerance (ε1, a displacement);
 *   method="global": one predictor/corrector per contact per sweep, until ‖Δr‖/‖r‖ < tolerance (ε3,
 *                    relative).
 * ρ (a stiffness) is `rho` when set, else rhoFactor / max_α W_αα (the paper's 0.3 below the smallest
 * local stiffness), or with rhoPerContact one ρ_α = rhoFactor / λ_max(W_αα) per contact (each below
 * its own local stiffness). With residualTolerance > 0 the sweeps stop on the solver-independent
 * residual of friction-residual.ts (the bi-potential residual of λ on δ = δ_free + W·λ, relative to
 * ‖δ_free‖) instead of ε1/ε3: the same accuracy whatever the method and ρ. Contacts are the groups of friction contact constraints (UnilateralLagrangianConstraint,
 * frictional or not); other constraints take one Gauss-Seidel step of their own resolution per sweep.
 * The problem is built like BlockGaussSeidelConstraintSolver's (W from the constraint corrections).
 */
@sofaComponent({
  name: 'BipotentialUzawaConstraintSolver',
  aliases: ['UzawaConstraintSolver'],
  category: 'ConstraintSolver',
  module: 'Sofa.Component.Constraint.Lagrangian.Solver',
  description: 'Friction contact solver of the bi-potential method (local or global Uzawa, HapCo 2008).',
})
export class BipotentialUzawaConstraintSolver extends BaseConstraintSolver {
  readonly method = this.initData<UzawaMethod>({
    name: 'method',
    type: Enum(methods),
    default: 'local',
    help: 'local: Gauss-Seidel over contacts with an inner Uzawa loop per contact; global: one predictor/corrector per contact per sweep',
  });
  readonly maxIterations = this.initData({
    name: 'maxIterations',
    type: Int,
    default: 1000,
    range: nonNegative,
    help: 'maximal number of sweeps over the contacts',
    aliases: ['maxIt'],
  });
  readonly tolerance = this.initData({
    name: 'tolerance',
    type: Real,
    default: 1e-6,
    range: nonNegative,
    help: 'local: ε1 on ‖Δr‖/ρ (a displacement); global: ε3 on ‖Δr‖/‖r‖ (relative)',
  });
  readonly localTolerance = this.initData({
    name: 'localTolerance',
    type: Real,
    default: 1e-8,
    range: nonNegative,
    help: 'local method: ε2 of the inner Uzawa loop, on ‖Δr_α‖/ρ',
  });
  readonly maxLocalIterations = this.initData({
    name: 'maxLocalIterations',
    type: Int,
    default: 100,
    range: positive,
    help: 'local method: largest number of inner Uzawa iterations per contact and sweep',
  });
  readonly rho = this.initData({
    name: 'rho',
    type: Real,
    default: 0,
    range: nonNegative,
    help: "augmentation parameter ρ (a stiffness); 0: rhoFactor / max of the diagonal of the contacts' W blocks",
  });
  readonly rhoFactor = this.initData({
    name: 'rhoFactor',
    type: Real,
    default: 0.3,
    range: positive,
    help: 'ρ = rhoFactor / max W_αα when rho is 0 (keeps ρ below the smallest local stiffness)',
  });
  readonly rhoPerContact = this.initData({
    name: 'rhoPerContact',
    type: Bool,
    default: false,
    help: "when rho is 0: one ρ_α = rhoFactor / largest eigenvalue of the contact's own 3×3 block W_αα for each contact, instead of one ρ for all",
  });
  readonly residualTolerance = this.initData({
    name: 'residualTolerance',
    type: Real,
    default: 0,
    range: nonNegative,
    help: 'if > 0, stop when the common friction residual (bi-potential residual of λ, relative to the free violation) is below it, instead of the tolerance on Δr',
  });
  readonly regularizationTerm = this.initData({
    name: 'regularizationTerm',
    type: Real,
    default: 0,
    range: nonNegative,
    help: 'add regularization factor times the identity matrix to the compliance W',
  });
  readonly computeConstraintForces = this.initData({
    name: 'computeConstraintForces',
    type: Bool,
    default: false,
    help: 'enable the storage of the constraintForces',
  });
  readonly constraintForces = this.initData({
    name: 'constraintForces',
    type: RealArray(0),
    default: new Float64Array(0),
    help: 'constraint forces of the last step (stored only if computeConstraintForces)',
    output: true,
  });
  readonly currentIterations = this.initData({
    name: 'currentIterations',
    type: Int,
    default: 0,
    help: 'sweeps of the last solve',
    output: true,
  });
  readonly currentError = this.initData({
    name: 'currentError',
    type: Real,
    default: 0,
    help: 'error of the last sweep (ε1 or ε3 measure, or the common residual with residualTolerance)',
    output: true,
  });
  readonly currentRho = this.initData({
    name: 'currentRho',
    type: Real,
    default: 0,
    help: 'ρ used by the last solve (smallest ρ_α with rhoPerContact)',
    output: true,
  });
  readonly currentInnerIterations = this.initData({
    name: 'currentInnerIterations',
    type: Int,
    default: 0,
    help: 'local method: inner Uzawa iterations of the last solve, summed over contacts and sweeps',
    output: true,
  });

  private readonly uzawa = new UzawaWork();
  private warnedTruncation = false;
  private readonly gs = new GaussSeidelWork();

  get options(): UzawaOptions {
    return {
      method: this.method.value,
      maxIterations: this.maxIterations.value,
      tolerance: this.tolerance.value,
      localTolerance: this.localTolerance.value,
      maxLocalIterations: this.maxLocalIterations.value,
      rho: this.rho.value,
      rhoFactor: this.rhoFactor.value,
      rhoPerContact: this.rhoPerContact.value,
      residualTolerance: this.residualTolerance.value,
    };
  }

  solveConstraint(step: ConstraintStep): void {
    const t0 = performance.now();
    this.buildProblem(step, true);
    this.buildCompliance(step, this.regularizationTerm.value);
    const res = bipotentialUzawa(this.problem, this.options, this.uzawa, this.gs);
    this.currentIterations.value = res.iterations;
    this.currentError.value = res.error;
    this.currentRho.value = this.uzawa.rho;
    this.currentInnerIterations.value = this.uzawa.innerIterations;
    if (this.uzawa.innerTruncations > 0 && !this.warnedTruncation) {
      // Once per run: the inner loop's last iterate is used, as the method does.
      this.warnedTruncation = true;
      this.warnAbout(
        this.maxLocalIterations,
        `the local Uzawa inner loop reached maxLocalIterations=${this.maxLocalIterations.value} before localTolerance=${this.localTolerance.value}, first in the step at time ${step.time} (${this.uzawa.innerTruncations} inner loops); its last iterate is used (said once)`,
      );
    }
    if (this.computeConstraintForces.value) this.constraintForces.value = Float64Array.from(this.problem.force);
    this.applyCorrection(step, this.problem.force);
    this.lastStats = { iterations: res.iterations, residual: res.error, timeMs: performance.now() - t0 };
  }
}
