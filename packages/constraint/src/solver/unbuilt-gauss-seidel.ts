import type { BaseConstraintCorrection } from '../correction/base-constraint-correction.js';
import type { ConstraintGraph } from '../graph/constraint-graph.js';
import type { ConstraintStep } from './base-constraint-solver.js';
import type { ConstraintProblem } from './constraint-problem.js';
import {
  blockError,
  effectiveTolerance,
  initResolutions,
  relax,
  storeResolutions,
  type GaussSeidelOptions,
  type GaussSeidelWork,
  type SolveResult,
} from './gauss-seidel.js';

/**
 * The unbuilt problem of SOFA's UnbuiltConstraintSolver: the corrections are prepared for the
 * current forces (resetForUnbuiltResolution), each group of rows remembers the corrections acting
 * on its first row, and only the diagonal blocks of W are assembled (getBlockDiagonalCompliance).
 *
 * Where the sweeps start from:
 * - SOFA (consistent = false): the corrections are reset for λ = 0, the resolutions' init runs on
 *   the diagonal blocks (a bilateral constraint inverts its block and writes its previous λ, its
 *   warm start), then every λ is erased: the Gauss-Seidel starts cold, from λ = 0 and a zero
 *   displacement, whatever the constraints stored. (SOFA's "Erase previous forces for the time
 *   being" of the unbuilt solver; BilateralLagrangianConstraint_UGS's reference records it.)
 * - consistent (sofa-ts's consistentWithBuilt): the resolutions' warm start is kept and the
 *   corrections start from the displacement of those forces, with the compliance of the built W:
 *   every sweep is the built Gauss-Seidel's sweep, and the solution is BlockGaussSeidel's.
 */
export class UnbuiltProblem {
  /** Per row (first row of its group), the corrections acting on it. */
  readonly byRow: BaseConstraintCorrection[][] = [];

  prepare(
    p: ConstraintProblem,
    graph: ConstraintGraph,
    corrections: readonly BaseConstraintCorrection[],
    step: ConstraintStep,
    regularization: number,
    consistent: boolean,
  ): void {
    p.force.fill(0, 0, p.n);
    for (const cc of corrections) cc.resetForUnbuiltResolution(graph, p.force, p.n, step.order, step.dt, consistent);
    this.byRow.length = p.n;
    for (let j = 0; j < p.n;) {
      const nb = p.resolutions[j]!.nbLines;
      const list = (this.byRow[j] ??= []);
      list.length = 0;
      for (const cc of corrections) {
        if (!cc.hasConstraintNumber(j)) continue;
        list.push(cc);
        cc.getBlockDiagonalCompliance(p.W, p.n, j, j + nb - 1);
      }
      j += nb;
    }
    p.addRegularization(regularization);
    initResolutions(p);
    if (consistent) {
      // the corrections follow the warm-started λ: the first sweep sees every group's force
      for (const cc of corrections) cc.resetForUnbuiltResolution(graph, p.force, p.n, step.order, step.dt, true);
    } else {
      p.force.fill(0, 0, p.n);
    }
  }
}

/**
 * SOFA's UnbuiltGaussSeidelConstraintSolver::doSolve, after UnbuiltProblem.prepare: sweeps over the
 * groups in row order; group j sees d_j = δfree_j + (its corrections' displacement of the forces
 * so far, addConstraintDisplacement), its resolution updates λ_j, its error is |W_jj·Δλ_j| (as the
 * built one), and the change Δλ_j is handed to its corrections at once (setConstraintDForce), so
 * the next groups see it. Stops when the summed error is below tolerance (×n with scaleTolerance),
 * or every group with allVerified; sor relaxes λ after each sweep without telling the corrections
 * (as SOFA). The λ returned is what the corrections apply.
 */
export function unbuiltGaussSeidel(p: ConstraintProblem, u: UnbuiltProblem, o: GaussSeidelOptions, work: GaussSeidelWork): SolveResult {
  if (p.n === 0) return { iterations: 0, error: 0, converged: true };
  const tol = effectiveTolerance(p, o);
  // The resolutions were initialised by UnbuiltProblem.prepare (with the corrections).
  const { n, W, dfree, force, d } = p;
  if (o.sor !== 1 && work.temp.length < n) work.temp = new Float64Array(n);
  let error = 0;
  let iterations = 0;
  let converged = false;
  for (let it = 0; it < o.maxIterations; it++) {
    iterations = it + 1;
    work.verified = true;
    if (o.sor !== 1) work.temp.set(force);
    error = 0;
    for (let j = 0; j < n;) {
      const res = p.resolutions[j]!;
      const nb = res.nbLines;
      const errF = work.lines(2 * nb);
      for (let l = 0; l < nb; l++) {
        errF[l] = force[j + l];
        d[j + l] = dfree[j + l];
      }
      const ccs = u.byRow[j];
      for (const cc of ccs) cc.addConstraintDisplacement(d, j, j + nb - 1);
      res.resolution(j, W, n, d, force, dfree);
      error += blockError(W, n, j, nb, force, errF, tol, res.tolerance, work);
      // the corrections follow the change of force
      let update = false;
      for (let l = 0; l < nb; l++) update ||= force[j + l] !== 0 || errF[l] !== 0;
      if (update) {
        for (let l = 0; l < nb; l++) {
          errF[nb + l] = force[j + l];
          force[j + l] -= errF[l];
        }
        for (const cc of ccs) cc.setConstraintDForce(force, j, j + nb - 1, true);
        for (let l = 0; l < nb; l++) force[j + l] = errF[nb + l];
      }
      j += nb;
    }
    if (o.sor !== 1) relax(force, work.temp, o.sor);
    if (o.allVerified ? work.verified : error < tol) {
      converged = true;
      break;
    }
  }
  storeResolutions(p, converged);
  return { iterations, error, converged };
}
