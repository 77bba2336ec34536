import { expect } from 'chai';
import { eigs, inv, matrix, multiply, transpose } from 'mathjs';
import { BilateralResolution, FrictionContactResolution, UnilateralResolution } from '../model/resolutions.js';
import { ConstraintProblem } from './constraint-problem.js';
import { GaussSeidelWork, blockGaussSeidel, type GaussSeidelOptions } from './gauss-seidel.js';
import { ImprovedJacobiWork, improvedJacobi, type ImprovedJacobiOptions } from './improved-jacobi.js';
import { symmetricSpectralRadius } from './spectral-radius.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

const plain: ImprovedJacobiOptions = {
  useSpectralCorrection: false,
  spectralCorrectionFactor: 1,
  useConjugateResidue: false,
  conjugateResidueSpeedFactor: 10,
};

function gsOptions(over: Partial<GaussSeidelOptions> = {}): GaussSeidelOptions {
  return { maxIterations: 10000, tolerance: 1e-13, sor: 1, scaleTolerance: true, allVerified: false, ...over };
}

type Kind = 'bilateral' | 'unilateral' | 'friction';

function problem(W: ArrayLike<number>, dfree: ArrayLike<number>, kind: Kind, mu = 0.4): ConstraintProblem {
  const n = dfree.length;
  const p = new ConstraintProblem();
  p.resize(n);
  p.W.set(W);
  p.dfree.set(dfree);
  const rows = kind === 'friction' ? 3 : 1;
  for (let i = 0; i < n; i += rows) {
    p.resolutions[i] =
      kind === 'bilateral'
        ? new BilateralResolution()
        : kind === 'unilateral'
          ? new UnilateralResolution()
          : new FrictionContactResolution(mu);
  }
  return p;
}

/**
 * W = J·M⁻¹·Jᵀ (mathjs) of m contacts on a body of nd dofs whose contact rows are nearly
 * orthogonal (J = I + small coupling): W is then diagonally dominant and the Jacobi iterations
 * converge without relaxation.
 */
function weaklyCoupled(seed: number, n: number, coupling: number): Float64Array {
  const r = rng(seed);
  const J: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n + 2 }, (_, j) => (i === j ? 1 : 0) + coupling * r()));
  const B: number[][] = Array.from({ length: n + 2 }, (_, i) => Array.from({ length: n + 2 }, (_, j) => (i === j ? 2 : 0) + 0.05 * r()));
  const M = multiply(matrix(B), transpose(matrix(B)));
  const Wm = multiply(multiply(matrix(J), inv(M)), transpose(matrix(J))).toArray() as number[][];
  return Float64Array.from(Wm.flat());
}

describe('constraint: ImprovedJacobiConstraintSolver iterations (improved-jacobi.ts)', () => {
  it('bilateral rows: λ = −W⁻¹·δ_free (dense mathjs oracle), the same as the block Gauss-Seidel', () => {
    const n = 6;
    const W = weaklyCoupled(3, n, 0.15);
    const r = rng(11);
    const dfree = Float64Array.from({ length: n }, () => 0.1 * r());
    const Wm = Array.from({ length: n }, (_, i) => Array.from(W.subarray(i * n, (i + 1) * n)));
    const oracle = (multiply(inv(matrix(Wm)), matrix(Array.from(dfree))).toArray() as number[]).map((x) => -x);
    const pj = problem(W, dfree, 'bilateral');
    const res = improvedJacobi(pj, gsOptions(), plain, new ImprovedJacobiWork());
    expect(res.converged).to.equal(true);
    const pg = problem(W, dfree, 'bilateral');
    expect(blockGaussSeidel(pg, gsOptions(), new GaussSeidelWork()).converged).to.equal(true);
    for (let i = 0; i < n; i++) {
      expect(pj.force[i], `λ_${i} vs W⁻¹`).to.be.closeTo(oracle[i], 1e-10);
      expect(pj.force[i], `λ_${i} vs Gauss-Seidel`).to.be.closeTo(pg.force[i], 1e-10);
    }
  });

  it('a sphere resting on a plane (one unilateral contact): λ = max(0, −δ_free/W) in closed form, after 2 iterations (the first never stops)', () => {
    // a sphere of mass m, impulse formulation: W = dt²/m along the normal (backward Euler, no stiffness)
    const m = 0.5,
      dt = 0.01,
      Wn = (dt * dt) / m;
    for (const dfree of [-2e-3, 3e-3]) {
      const p = problem([Wn], [dfree], 'unilateral');
      const res = improvedJacobi(p, gsOptions({ tolerance: 1e-12 }), plain, new ImprovedJacobiWork());
      expect(p.force[0]).to.be.closeTo(Math.max(0, -dfree / Wn), 1e-12);
      expect(res.iterations).to.equal(2);
      expect(res.converged).to.equal(true);
      expect(res.error).to.be.lessThan(1e-12);
    }
  });

  it('unilateral contacts (some open, some closed): the Gauss-Seidel λ and Signorini δ ≥ 0, λ ≥ 0, δ·λ = 0', () => {
    const n = 8;
    const W = weaklyCoupled(5, n, 0.1);
    const r = rng(17);
    const dfree = Float64Array.from({ length: n }, (_, i) => (i % 3 === 2 ? 0.02 + 0.01 * Math.abs(r()) : -0.05 * Math.abs(r()) - 0.01));
    const pj = problem(W, dfree, 'unilateral');
    const res = improvedJacobi(pj, gsOptions(), plain, new ImprovedJacobiWork());
    expect(res.converged).to.equal(true);
    const pg = problem(W, dfree, 'unilateral');
    blockGaussSeidel(pg, gsOptions(), new GaussSeidelWork());
    let open = 0;
    for (let i = 0; i < n; i++) {
      let d = dfree[i];
      for (let k = 0; k < n; k++) d += W[i * n + k] * pj.force[k];
      expect(pj.force[i], `λ_${i}`).to.be.closeTo(pg.force[i], 1e-10);
      expect(pj.force[i]).to.be.at.least(0);
      expect(d, `δ_${i}`).to.be.greaterThan(-1e-10);
      expect(Math.abs(d * pj.force[i])).to.be.lessThan(1e-12);
      if (pj.force[i] === 0) open++;
    }
    expect(open, 'separated contacts in the problem').to.be.greaterThan(0);
  });

  it('friction contacts: converges to the Gauss-Seidel λ (unique for a small μ and a diagonally dominant W)', () => {
    const n = 9;
    const W = weaklyCoupled(7, n, 0.1);
    const r = rng(23);
    const dfree = Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? (i === 6 ? 0.03 : -0.05 * Math.abs(r()) - 0.01) : 0.04 * r()));
    const pj = problem(W, dfree, 'friction', 0.3);
    const res = improvedJacobi(pj, gsOptions(), plain, new ImprovedJacobiWork());
    expect(res.converged).to.equal(true);
    const pg = problem(W, dfree, 'friction', 0.3);
    blockGaussSeidel(pg, gsOptions(), new GaussSeidelWork());
    for (let i = 0; i < n; i++) expect(pj.force[i], `λ_${i}`).to.be.closeTo(pg.force[i], 1e-9);
    expect(pj.force[6]).to.equal(0);
  });

  describe("SOFA's stopping rule, by hand on W = [[2, 1], [1, 2]], δ_free = (−2, −2) (bilateral)", () => {
    // Jacobi: e_{k+1} = (I − D⁻¹W)·e_k = −e_k/2 (e = λ − λ*, λ* = (2/3, 2/3)), so the step of
    // iteration i is |Δλ| = 2⁻ⁱ on both rows. SOFA's error of a group is sqrt(Σ_k (W_jk·Δλ_k)²) with
    // the rows after it still holding the previous step: row 0 → sqrt((2·2⁻ⁱ)² + (2^{1−i})²) = 2√2·2⁻ⁱ
    // (i > 0; at i = 0 the previous step is 0: 2), row 1 → √5·2⁻ⁱ. Sum (i > 0): (2√2 + √5)·2⁻ⁱ.
    const W = [2, 1, 1, 2],
      dfree = [-2, -2];
    const c = 2 * Math.SQRT2 + Math.sqrt(5);

    it('tolerance 1e-3 unscaled: stops at i = 13 (c·2⁻¹² ≥ 1e-3 > c·2⁻¹³), 14 iterations, error c·2⁻¹³', () => {
      const p = problem(W, dfree, 'bilateral');
      const res = improvedJacobi(p, gsOptions({ tolerance: 1e-3, scaleTolerance: false }), plain, new ImprovedJacobiWork());
      expect(res.iterations).to.equal(14);
      expect(res.converged).to.equal(true);
      expect(res.error).to.be.closeTo(c / 2 ** 13, 1e-15);
      expect(p.force[0]).to.be.closeTo(2 / 3 + (-2 / 3) * (-0.5) ** 14, 1e-15);
    });

    it('scaleTolerance (default): the tolerance is 2·1e-3, 13 iterations', () => {
      const res = improvedJacobi(problem(W, dfree, 'bilateral'), gsOptions({ tolerance: 1e-3 }), plain, new ImprovedJacobiWork());
      expect(res.iterations).to.equal(13);
      expect(res.error).to.be.closeTo(c / 2 ** 12, 1e-15);
    });

    it('allVerified: every row below the tolerance (2√2·2⁻ⁱ < 1e-3 → i = 12), 13 iterations', () => {
      const res = improvedJacobi(
        problem(W, dfree, 'bilateral'),
        gsOptions({ tolerance: 1e-3, allVerified: true }),
        plain,
        new ImprovedJacobiWork(),
      );
      expect(res.iterations).to.equal(13);
      expect(res.converged).to.equal(true);
    });

    it('maxIterations reached: not converged, maxIterations iterations, the last error', () => {
      const res = improvedJacobi(
        problem(W, dfree, 'bilateral'),
        gsOptions({ tolerance: 1e-3, maxIterations: 5 }),
        plain,
        new ImprovedJacobiWork(),
      );
      expect(res.iterations).to.equal(5);
      expect(res.converged).to.equal(false);
      expect(res.error).to.be.closeTo(c / 2 ** 4, 1e-14);
    });

    it('spectral correction: SOFA takes r = max |eig|² = 9 (eigenvalues 1 and 3), ρ = factor·min(1, 1.8/9); the λ is the same', () => {
      const work = new ImprovedJacobiWork();
      const p = problem(W, dfree, 'bilateral');
      const res = improvedJacobi(p, gsOptions(), { ...plain, useSpectralCorrection: true, spectralCorrectionFactor: 1.5 }, work);
      expect(work.radius).to.be.closeTo(9, 1e-12);
      expect(work.rho).to.be.closeTo(1.5 * 0.2, 1e-14);
      expect(res.converged).to.equal(true);
      expect(p.force[0]).to.be.closeTo(2 / 3, 1e-12);
      expect(p.force[1]).to.be.closeTo(2 / 3, 1e-12);
    });

    it('conjugate residue: first step by hand (β₀ = 0, β₁ = (1/maxIterations)^speed), then the same λ', () => {
      const jo = { ...plain, useConjugateResidue: true, conjugateResidueSpeedFactor: 0.5 };
      // one iteration: λ₁ = −D⁻¹·δ_free = (1, 1); two: λ₂ = λ₁ − D⁻¹(δ_free + W·λ₁) + β₁·Δλ₁ = (1/2, 1/2) + β₁·(1, 1)
      const p1 = problem(W, dfree, 'bilateral');
      improvedJacobi(p1, gsOptions({ maxIterations: 1 }), jo, new ImprovedJacobiWork());
      expect(Array.from(p1.force)).to.deep.equal([1, 1]);
      const p2 = problem(W, dfree, 'bilateral');
      improvedJacobi(p2, gsOptions({ maxIterations: 2 }), jo, new ImprovedJacobiWork());
      const beta1 = Math.sqrt(1 / 2);
      expect(p2.force[0]).to.be.closeTo(0.5 + beta1, 1e-15);
      const p = problem(W, dfree, 'bilateral');
      const res = improvedJacobi(p, gsOptions({ maxIterations: 200 }), jo, new ImprovedJacobiWork());
      expect(res.converged).to.equal(true);
      expect(p.force[0]).to.be.closeTo(2 / 3, 1e-10);
    });
  });

  it('a diverging plain Jacobi (strongly coupled rows) converges with the spectral correction', () => {
    // W = [[1, .9, .9], [.9, 1, .9], [.9, .9, 1]]: eig(D⁻¹W) = 2.8, plain Jacobi diverges; r = 2.8² → ρ = 1.8/7.84
    const W = [1, 0.9, 0.9, 0.9, 1, 0.9, 0.9, 0.9, 1],
      dfree = [-1, -0.5, -0.2];
    const divergingWork = new ImprovedJacobiWork();
    const diverging = improvedJacobi(problem(W, dfree, 'bilateral'), gsOptions({ maxIterations: 200 }), plain, divergingWork);
    expect(diverging.converged).to.equal(false);
    expect(divergingWork.diverged, 'reported as diverging').to.equal(true);
    const p = problem(W, dfree, 'bilateral');
    const work = new ImprovedJacobiWork();
    const res = improvedJacobi(p, gsOptions({ maxIterations: 20000, tolerance: 1e-12 }), { ...plain, useSpectralCorrection: true }, work);
    expect(work.rho).to.be.closeTo(1.8 / 2.8 ** 2, 1e-12);
    expect(res.converged).to.equal(true);
    expect(work.diverged).to.equal(false);
    const oracle = (
      multiply(
        inv(
          matrix([
            [1, 0.9, 0.9],
            [0.9, 1, 0.9],
            [0.9, 0.9, 1],
          ]),
        ),
        matrix(dfree),
      ).toArray() as number[]
    ).map((x) => -x);
    for (let i = 0; i < 3; i++) expect(p.force[i]).to.be.closeTo(oracle[i], 1e-8);
  });

  it('the spectral radius of a symmetric matrix (Householder tridiagonal, Sturm bisection) is mathjs eigs’ largest |eigenvalue|', () => {
    const r = rng(29);
    for (const n of [1, 2, 3, 5, 12, 40]) {
      const A: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
      for (let i = 0; i < n; i++) for (let j = i; j < n; j++) A[i][j] = A[j][i] = r();
      const values = eigs(A).values as number[];
      const expected = Math.max(...values.map((v) => Math.abs(v)));
      expect(symmetricSpectralRadius(Float64Array.from(A.flat()), n, new Float64Array(n * n + 3 * n)), `n = ${n}`).to.be.closeTo(
        expected,
        1e-12 * Math.max(1, expected),
      );
    }
  });

  it('an empty problem: no iteration, converged', () => {
    const p = new ConstraintProblem();
    p.resize(0);
    expect(improvedJacobi(p, gsOptions(), plain, new ImprovedJacobiWork())).to.deep.equal({ iterations: 0, error: 0, converged: true });
  });
});
