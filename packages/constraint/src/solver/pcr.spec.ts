import { expect } from 'chai';
import { lusolve, matrix, multiply, transpose } from 'mathjs';
import { BilateralResolution, Bilateral3Resolution } from '../model/resolutions.js';
import { ConstraintProblem } from './constraint-problem.js';
import type { GaussSeidelOptions } from './gauss-seidel.js';
import { PcrWork, preconditionedConjugateResidual } from './pcr.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

function opts(over: Partial<GaussSeidelOptions> = {}): GaussSeidelOptions {
  return { maxIterations: 1000, tolerance: 1e-12, sor: 1, scaleTolerance: false, allVerified: false, ...over };
}

/** W = J·M⁻¹·Jᵀ (mathjs) of n rows on nd dofs with masses in [1, 3]: symmetric positive definite. */
function compliance(seed: number, n: number, nd: number): number[][] {
  const r = rng(seed);
  const J = Array.from({ length: n }, () => Array.from({ length: nd }, () => r()));
  const Minv = Array.from({ length: nd }, (_, i) => Array.from({ length: nd }, (_, k) => (i === k ? 1 / (2 + r()) : 0)));
  return multiply(multiply(matrix(J), matrix(Minv)), transpose(matrix(J))).toArray() as number[][];
}

function problem(W: number[][], dfree: number[], block = 1): ConstraintProblem {
  const p = new ConstraintProblem();
  p.resize(dfree.length);
  p.W.set(W.flat());
  p.dfree.set(dfree);
  for (let i = 0; i < dfree.length; i += block) p.resolutions[i] = block === 3 ? new Bilateral3Resolution() : new BilateralResolution();
  return p;
}

describe('PreconditionedConjugateResidual (conjugate residual on W·λ = −δ_free)', () => {
  it('gives the solution of the dense LU solve (mathjs) of W·λ = −δ_free', () => {
    const n = 9;
    const W = compliance(3, n, 14);
    const r = rng(11);
    const dfree = Array.from({ length: n }, () => r());
    const p = problem(W, dfree, 3);
    const res = preconditionedConjugateResidual(p, opts({ tolerance: 1e-9 }), new PcrWork());
    const exact = (lusolve(matrix(W), matrix(dfree.map((v) => [-v]))).toArray() as number[][]).map((row) => row[0]);
    expect(res.converged).to.equal(true);
    expect(res.iterations).to.be.at.most(n);
    for (let i = 0; i < n; i++) expect(p.force[i]).to.be.closeTo(exact[i], 1e-8 * (1 + Math.abs(exact[i])));
  });

  it('solves a diagonal W in one iteration step of the preconditioned system (M = I), λ_i = −δ_i/W_ii', () => {
    const W = [
      [4, 0, 0],
      [0, 0.25, 0],
      [0, 0, 9],
    ];
    const p = problem(W, [1, -2, 3]);
    // M = S·W·S = I: r_1 = 0 after the first iteration; the stopping test waits for the second
    const res = preconditionedConjugateResidual(p, opts(), new PcrWork());
    expect(Array.from(p.force)).to.deep.equal([-0.25, 8, -1 / 3]);
    expect(res.error).to.equal(0);
  });

  it('stops after min(maxIterations, n) iterations and reports it as not converged', () => {
    const n = 12;
    const W = compliance(5, n, 12);
    const dfree = Array.from({ length: n }, (_, i) => Math.sin(i + 1));
    const p = problem(W, dfree);
    const res = preconditionedConjugateResidual(p, opts({ maxIterations: 2 }), new PcrWork());
    expect(res.iterations).to.equal(2);
    expect(res.converged).to.equal(false);
    expect(res.error).to.be.greaterThan(1e-6);
  });

  it('refuses a non-positive diagonal entry (the preconditioner 1/√W_ii)', () => {
    const p = problem(
      [
        [1, 0],
        [0, 0],
      ],
      [1, 1],
    );
    expect(preconditionedConjugateResidual(p, opts(), new PcrWork()).badDiagonal).to.equal(1);
  });
});
