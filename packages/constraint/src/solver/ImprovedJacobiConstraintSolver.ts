import { Bool, positive, Real, sofaComponent } from '@sofa-ts/core';
import type { ConstraintProblem } from './constraint-problem.js';
import type { SolveResult } from './gauss-seidel.js';
import { GenericConstraintSolverBase } from './generic-constraint-solver-base.js';
import { ImprovedJacobiWork, improvedJacobi, type ImprovedJacobiOptions } from './improved-jacobi.js';

/**
 * SOFA's ImprovedJacobiConstraintSolver: the built problem δ = δ_free + W·λ solved by projected
 * Jacobi iterations — every group's resolution sees the violations of the previous iterate —
 * optionally relaxed by the spectral correction ρ and accelerated by the conjugate-residue momentum
 * (improved-jacobi.ts). The building of W, the Data and the correction are the GenericConstraintSolver
 * family's (generic-constraint-solver-base.ts).
 */
@sofaComponent({
  name: 'ImprovedJacobiConstraintSolver',
  category: 'ConstraintSolver',
  module: 'Sofa.Component.Constraint.Lagrangian.Solver',
  description:
    "A Constraint Solver using the Linear Complementarity Problem formulation to solve Constraint based components using a projected Jacobi iterative method (Francu & Moldoveanu 2014), with an optional spectral relaxation and conjugate-residue acceleration. As in SOFA: sor is not used; each step starts from λ = 0 (then the constraints' own warm start); the first iteration never stops the solve unless allVerified; the spectral radius is taken, as SOFA's code takes it, as the largest squared modulus of the eigenvalues of W (an O(n³) eigen solve per step).",
})
export class ImprovedJacobiConstraintSolver extends GenericConstraintSolverBase {
  readonly useSpectralCorrection = this.initData({
    name: 'useSpectralCorrection',
    type: Bool,
    default: false,
    help: 'if true, the violations are multiplied by ρ = spectralCorrectionFactor·min(1, 1.8/r(W)) before each iteration, r(W) the spectral radius of W as SOFA computes it (the largest squared modulus of its eigenvalues)',
  });
  readonly spectralCorrectionFactor = this.initData({
    name: 'spectralCorrectionFactor',
    type: Real,
    default: 1,
    range: positive,
    help: 'factor modulating the spectral correction',
  });
  readonly useConjugateResidue = this.initData({
    name: 'useConjugateResidue',
    type: Bool,
    default: false,
    help: 'if true, each new λ is moved on along the previous step: λ += β_i·(λ_i − λ_{i−1}), β_i = min(1, (i/maxIterations)^conjugateResidueSpeedFactor)',
  });
  readonly conjugateResidueSpeedFactor = this.initData({
    name: 'conjugateResidueSpeedFactor',
    type: Real,
    default: 10,
    help: 'exponent of the growth of β of the conjugate residue towards 1: the higher, the slower',
  });

  private readonly jacobiWork = new ImprovedJacobiWork();
  private asymmetryWarned = false;
  private divergenceWarned = false;

  override init(): void {
    super.init();
    if (this.sor.value !== 1)
      this.warnAbout(
        this.sor,
        `sor=${this.sor.value} is not used by the Jacobi iterations (SOFA's ImprovedJacobiConstraintSolver ignores it too)`,
        'remove sor, or use useSpectralCorrection/spectralCorrectionFactor to relax the iterations',
      );
  }

  get jacobiOptions(): ImprovedJacobiOptions {
    return {
      useSpectralCorrection: this.useSpectralCorrection.value,
      spectralCorrectionFactor: this.spectralCorrectionFactor.value,
      useConjugateResidue: this.useConjugateResidue.value,
      conjugateResidueSpeedFactor: this.conjugateResidueSpeedFactor.value,
    };
  }

  /** ρ of the last solve (1 without spectral correction). */
  get relaxation(): number {
    return this.jacobiWork.rho;
  }

  protected doSolve(p: ConstraintProblem): SolveResult {
    const res = improvedJacobi(p, this.options, this.jacobiOptions, this.jacobiWork);
    if (this.jacobiWork.asymmetry > 1e-8 && !this.asymmetryWarned) {
      this.asymmetryWarned = true;
      this.warn(
        `W is not symmetric (relative asymmetry ${this.jacobiWork.asymmetry.toExponential(2)}): its spectral radius is taken from its symmetric part (SOFA computes the eigenvalues of W itself)`,
      );
    }
    if (this.jacobiWork.diverged && !this.divergenceWarned) {
      this.divergenceWarned = true;
      this.warn(
        `the Jacobi iterations diverge (${p.n} constraint rows, error ${res.error} after ${res.iterations} iterations, larger than the first iteration's): the rows are too strongly coupled for an unrelaxed Jacobi (SOFA runs the same iterations)`,
        spectralHint(this.useSpectralCorrection.value),
      );
    }
    return res;
  }
}

function spectralHint(on: boolean): string {
  return on
    ? 'lower spectralCorrectionFactor, or use BlockGaussSeidelConstraintSolver'
    : 'set useSpectralCorrection="1" (relaxes the iterations by ρ = min(1, 1.8/r(W))), or use BlockGaussSeidelConstraintSolver';
}
