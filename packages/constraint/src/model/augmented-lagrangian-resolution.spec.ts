import { expect } from 'chai';
import { ConstraintProblem } from '../solver/constraint-problem.js';
import { GaussSeidelWork, blockGaussSeidel } from '../solver/gauss-seidel.js';
import { AugmentedLagrangianFrictionResolution } from './augmented-lagrangian-resolution.js';

/** One frictional contact, W = w·I (3 × 3), violations δ = δ_free + W·λ. */
function contact(w: number, dfree: number[], mu: number, eps: number): ConstraintProblem {
  const p = new ConstraintProblem();
  p.resize(3);
  for (let i = 0; i < 3; i++) p.W[4 * i] = w;
  p.dfree.set(dfree);
  p.resolutions[0] = new AugmentedLagrangianFrictionResolution(mu, eps);
  return p;
}

const options = { maxIterations: 500, tolerance: 1e-14, sor: 1, scaleTolerance: false, allVerified: false };

describe("AugmentedLagrangianFrictionResolution (SOFA's augmented-Lagrangian contact law)", () => {
  it('sticking: the iterations converge to the closed form λ = −W⁻¹·δ_free (inside the cone)', () => {
    // W = 0.5·I, δ_free = (−1, 0.1, −0.05): λ = (2, −0.2, 0.1), ‖λ_t‖ = 0.22 < μ·λ_n = 1
    const p = contact(0.5, [-1, 0.1, -0.05], 0.5, 1);
    blockGaussSeidel(p, options, new GaussSeidelWork());
    expect(p.force[0]).to.be.closeTo(2, 1e-10);
    expect(p.force[1]).to.be.closeTo(-0.2, 1e-10);
    expect(p.force[2]).to.be.closeTo(0.1, 1e-10);
  });

  it('separating: a positive normal violation opens the contact (all λ = 0)', () => {
    const p = contact(0.5, [0.3, 1, 1], 0.5, 1);
    blockGaussSeidel(p, options, new GaussSeidelWork());
    expect(Array.from(p.force)).to.deep.equal([0, 0, 0]);
  });

  it('one visit, sliding: λ_n = −ε·d_n, then λ_t −= μ·ε·d_n·d_t/‖d_t‖ (outside the cone)', () => {
    const r = new AugmentedLagrangianFrictionResolution(0.5, 2);
    const force = new Float64Array(3);
    const d = Float64Array.of(-1, 3, 4);
    r.resolution(0, new Float64Array(9), 3, d, force);
    // λ_n = 2; trial ‖(−6, −8)‖ = 10 ≥ μ·λ_n = 1, so the sliding update with ‖d_t‖ = 5
    expect(force[0]).to.equal(2);
    expect(force[1]).to.be.closeTo(-(0.5 * -1 * 2 * 3) / 5, 1e-15);
    expect(force[2]).to.be.closeTo(-(0.5 * -1 * 2 * 4) / 5, 1e-15);
  });
});
