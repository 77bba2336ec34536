import { expect } from 'chai';
import { eigs, inv, matrix, multiply, transpose } from 'mathjs';
import { FrictionContactResolution, UnilateralResolution } from '../model/resolutions.js';
import { ConstraintProblem } from './constraint-problem.js';
import { FrictionResidualWork, frictionResidual, maxEigenvalueSym3 } from './friction-residual.js';
import { GaussSeidelWork, blockGaussSeidel } from './gauss-seidel.js';
import { UzawaWork, bipotentialUzawa, type UzawaOptions } from './uzawa.js';

/** A problem of contacts with the given W (row-major), δ_free and μ (3 rows per contact, or 1 with frictionless). */
function problem(W: number[], dfree: number[], mu: number, rows: 1 | 3): ConstraintProblem {
  const p = new ConstraintProblem();
  p.resize(dfree.length);
  p.W.set(W);
  p.dfree.set(dfree);
  for (let i = 0; i < p.n; i += rows) p.resolutions[i] = rows === 3 ? new FrictionContactResolution(mu) : new UnilateralResolution();
  return p;
}

function residualOf(p: ConstraintProblem, force: number[]): { rel: number; abs: number } {
  p.force.set(force);
  const w = new FrictionResidualWork();
  const rel = frictionResidual(p, w);
  return { rel, abs: w.absolute };
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

/** m coupled contacts: W = J·M⁻¹·Jᵀ (mathjs), penetrating and separated contacts, tangential free motion. */
function coupled(seed: number, m: number, mu: number): ConstraintProblem {
  const r = rng(seed);
  const nd = 3 * m + 3,
    n = 3 * m;
  const J = Array.from({ length: n }, () => Array.from({ length: nd }, () => r()));
  const B = Array.from({ length: nd }, (_, i) => Array.from({ length: nd }, (_, j) => (i === j ? 2 : 0) + 0.2 * r()));
  const M = multiply(matrix(B), transpose(matrix(B)));
  const Wm = multiply(multiply(matrix(J), inv(M)), transpose(matrix(J))).toArray() as number[][];
  const dfree: number[] = [];
  for (let c = 0; c < m; c++) dfree.push(c % 3 === 2 ? 0.05 + 0.05 * Math.abs(r()) : -0.1 * Math.abs(r()) - 0.02, 0.08 * r(), 0.08 * r());
  return problem(Wm.flat(), dfree, mu, 3);
}

describe('constraint: friction residual (common accuracy measure of the friction solvers)', () => {
  // one contact, W = diag(2, 1, 1): ρ = 1/λ_max = 1/2; δ_n = −0.4 + 2·λ_n closes with λ_n = 0.2; μ = 0.5 allows ‖λ_t‖ ≤ 0.1
  const W1 = [2, 0, 0, 0, 1, 0, 0, 0, 1];
  it('single contact, sticking: λ = (0.2, −0.05, 0) for δ_free = (−0.4, 0.05, 0) has zero residual; λ = 0 has the hand value', () => {
    const p = problem(W1, [-0.4, 0.05, 0], 0.5, 3);
    expect(residualOf(p, [0.2, -0.05, 0]).abs).to.be.lessThan(1e-15);
    // λ = 0: ŭ = (−0.4 + 0.5·0.05, 0.05, 0), λ − ρŭ = (0.1875, −0.025, 0) inside the cone: R = (−0.1875, 0.025, 0), e = ‖R‖/ρ
    const r0 = residualOf(p, [0, 0, 0]);
    expect(r0.abs).to.be.closeTo(2 * Math.hypot(0.1875, 0.025), 1e-15);
    expect(r0.rel).to.be.closeTo((2 * Math.hypot(0.1875, 0.025)) / Math.hypot(0.4, 0.05), 1e-15);
  });

  it('single contact, sliding: λ = (0.2, −0.1, 0) for δ_free = (−0.4, 0.3, 0) has zero residual; the reversed friction force has the hand value', () => {
    const p = problem(W1, [-0.4, 0.3, 0], 0.5, 3);
    // δ = (0, 0.2, 0): sliding along +t, friction −μ·λ_n along t
    expect(residualOf(p, [0.2, -0.1, 0]).abs).to.be.lessThan(1e-15);
    // tangential sliding in another direction of the plane: δ_free = (−0.4, 0.18, −0.24) (‖·‖ = 0.3), λ_t = −0.1·(0.6, −0.8)
    const q = problem(W1, [-0.4, 0.18, -0.24], 0.5, 3);
    expect(residualOf(q, [0.2, -0.06, 0.08]).abs).to.be.lessThan(1e-15);
    // λ_t = +0.1 (wrong way): δ = (0, 0.4, 0), ŭ = (0.2, 0.4, 0), λ − ρŭ = (0.1, −0.1, 0) outside the cone and its
    // polar: projection n = (0.1 + 0.5·0.1)/1.25 = 0.12, t = −0.06; R = (0.08, 0.16, 0)
    const bad = residualOf(p, [0.2, 0.1, 0]);
    expect(bad.abs).to.be.closeTo(2 * Math.hypot(0.08, 0.16), 1e-14);
    expect(bad.rel).to.be.closeTo((2 * Math.hypot(0.08, 0.16)) / 0.5, 1e-14);
    // sticking force too large for the cone
    expect(residualOf(p, [0.2, -0.3, 0]).abs).to.be.greaterThan(0.1);
  });

  it('single contact, separation: λ = 0 when δ_free,n > 0; any push is a residual', () => {
    const p = problem(W1, [0.1, 0.3, 0], 0.5, 3);
    expect(residualOf(p, [0, 0, 0]).abs).to.equal(0);
    expect(residualOf(p, [0.05, 0, 0]).abs).to.be.greaterThan(0.05);
  });

  it('frictionless row: λ = −δ_free/W when penetrating, residual δ_free at λ = 0', () => {
    const p = problem([4], [-0.2], 0, 1);
    expect(residualOf(p, [0.05]).abs).to.be.lessThan(1e-16);
    const r0 = residualOf(p, [0]);
    expect(r0.abs).to.be.closeTo(0.2, 1e-16);
    expect(r0.rel).to.be.closeTo(1, 1e-15);
  });

  it('largest eigenvalue of a symmetric 3×3 matrix, against mathjs', () => {
    const r = rng(11);
    const cases: number[][] = [
      [2, 0, 0, 1, 0, 1],
      [1, 0, 0, 1, 0, 1],
      [3, 1, 0, 3, 0, 1],
      [1e-6, 2e-7, 0, 3e-6, 1e-7, 2e-6],
    ];
    for (let k = 0; k < 20; k++) cases.push([r(), r(), r(), r(), r(), r()]);
    for (const [a, b, c, d, e, f] of cases) {
      const A = [
        [a!, b!, c!],
        [b!, d!, e!],
        [c!, e!, f!],
      ];
      const values = eigs(A).values as unknown as number[] | { toArray(): number[] };
      const list = Array.isArray(values) ? values : values.toArray();
      const ref = Math.max(...list.map(Number));
      expect(maxEigenvalueSym3(a!, b!, c!, d!, e!, f!)).to.be.closeTo(ref, 1e-12 * Math.max(1, Math.abs(ref)));
    }
  });

  const uz = (method: 'local' | 'global', extra: Partial<UzawaOptions> = {}): UzawaOptions => ({
    method,
    maxIterations: 100000,
    tolerance: 0,
    localTolerance: 1e-14,
    maxLocalIterations: 2000,
    rho: 0,
    rhoFactor: 0.3,
    ...extra,
  });

  for (const seed of [1, 2]) {
    it(`coupled contacts (problem ${seed}, μ = 0.4): Gauss-Seidel, local and global Uzawa (one ρ or per contact) all reach a residual of 1e-10 at the same λ`, () => {
      const ref = coupled(seed, 4, 0.4);
      const gs = blockGaussSeidel(
        ref,
        { maxIterations: 50000, tolerance: 1e-15, sor: 1, scaleTolerance: false, allVerified: false },
        new GaussSeidelWork(),
      );
      expect(gs.converged).to.equal(true);
      expect(frictionResidual(ref)).to.be.lessThan(1e-10);
      for (const method of ['local', 'global'] as const) {
        for (const rhoPerContact of [false, true]) {
          const p = coupled(seed, 4, 0.4);
          const res = bipotentialUzawa(p, uz(method, { rhoPerContact, residualTolerance: 1e-10 }), new UzawaWork(), new GaussSeidelWork());
          expect(res.converged, `${method} ${rhoPerContact}`).to.equal(true);
          expect(res.error).to.be.lessThan(1e-10);
          expect(frictionResidual(p)).to.equal(res.error);
          const scale = Math.max(...Array.from(ref.force, Math.abs));
          for (let i = 0; i < p.n; i++) expect(p.force[i], `${method} ${rhoPerContact} λ_${i}`).to.be.closeTo(ref.force[i], 1e-6 * scale);
        }
      }
    });
  }

  it('rhoPerContact: ρ_α = rhoFactor / λ_max(W_αα) per contact (mathjs eigenvalues); off by default', () => {
    const p = coupled(3, 3, 0.3);
    const w = new UzawaWork();
    bipotentialUzawa(p, uz('global', { maxIterations: 1, rhoPerContact: true }), w, new GaussSeidelWork());
    const n = p.n;
    const refs = [0, 1, 2].map((c) => {
      const B = [0, 1, 2].map((i) => [0, 1, 2].map((j) => p.W[(3 * c + i) * n + 3 * c + j]));
      const v = eigs(B).values as unknown as number[] | { toArray(): number[] };
      return 0.3 / Math.max(...(Array.isArray(v) ? v : v.toArray()).map(Number));
    });
    for (let c = 0; c < 3; c++) expect(w.contacts[c].rho).to.be.closeTo(refs[c], 1e-12 * refs[c]);
    expect(w.rho).to.be.closeTo(Math.min(...refs), 1e-12 * w.rho);
    const w2 = new UzawaWork();
    bipotentialUzawa(coupled(3, 3, 0.3), uz('global', { maxIterations: 1 }), w2, new GaussSeidelWork());
    let wmax = 0;
    for (let i = 0; i < n; i++) wmax = Math.max(wmax, p.W[i * n + i]);
    for (const c of w2.contacts) expect(c.rho).to.equal(0.3 / wmax);
  });
});
