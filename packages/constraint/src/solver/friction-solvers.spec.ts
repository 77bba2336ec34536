import { expect } from 'chai';
import { inv, matrix, multiply, transpose } from 'mathjs';
import { FrictionContactResolution, UnilateralResolution } from '../model/resolutions.js';
import { ConstraintProblem } from './constraint-problem.js';
import { GaussSeidelWork, blockGaussSeidel } from './gauss-seidel.js';
import { LcpWork, gaussSeidelLcp1, nlcpGaussSeidel } from './lcp-kernels.js';
import { UzawaWork, bipotentialUzawa, projectOnCone, type UzawaMethod } from './uzawa.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

/**
 * A small friction contact problem: m contacts (rows n, t, s each) between a body of nd dofs and
 * the ground; W = J·M⁻¹·Jᵀ (mathjs) with J random contact frames on random dofs, M SPD; δ_free
 * mixes penetrating and separated contacts with tangential free displacements.
 */
function contactProblem(seed: number, m: number, rowsPerContact: 1 | 3): { W: Float64Array; dfree: Float64Array; n: number } {
  const r = rng(seed);
  const nd = 3 * m + 3;
  const n = rowsPerContact * m;
  const J: number[][] = [];
  for (let i = 0; i < n; i++) J.push(Array.from({ length: nd }, () => r()));
  const B: number[][] = Array.from({ length: nd }, (_, i) => Array.from({ length: nd }, (_, j) => (i === j ? 2 : 0) + 0.2 * r()));
  const M = multiply(matrix(B), transpose(matrix(B)));
  const Wm = multiply(multiply(matrix(J), inv(M)), transpose(matrix(J))).toArray() as number[][];
  const W = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) W[i * n + j] = Wm[i][j];
  const dfree = new Float64Array(n);
  for (let c = 0; c < m; c++) {
    const o = rowsPerContact * c;
    dfree[o] = c % 3 === 2 ? 0.05 + 0.05 * Math.abs(r()) : -0.1 * Math.abs(r()) - 0.02;
    if (rowsPerContact === 3) {
      dfree[o + 1] = 0.08 * r();
      dfree[o + 2] = 0.08 * r();
    }
  }
  return { W, dfree, n };
}

/** δ = δ_free + W·λ. */
function violation(W: Float64Array, dfree: Float64Array, f: Float64Array, n: number): Float64Array {
  const d = Float64Array.from(dfree);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) d[i] += W[i * n + j] * f[j];
  return d;
}

/** Signorini and Coulomb on every contact, within tol (forces and displacements of the problem's scale). */
function checkContactLaws(W: Float64Array, dfree: Float64Array, f: Float64Array, n: number, mu: number, rows: 1 | 3, tol: number): void {
  const d = violation(W, dfree, f, n);
  for (let c = 0; c < n / rows; c++) {
    const o = rows * c;
    const un = d[o],
      rn = f[o];
    // Signorini: u_n ≥ 0, r_n ≥ 0, u_n·r_n = 0
    expect(un, `u_n of contact ${c}`).to.be.greaterThan(-tol);
    expect(rn, `r_n of contact ${c}`).to.be.at.least(0);
    expect(Math.abs(un * rn), `u_n·r_n of contact ${c}`).to.be.lessThan(tol);
    if (rows === 1) continue;
    const rt = Math.hypot(f[o + 1], f[o + 2]);
    const ut = Math.hypot(d[o + 1], d[o + 2]);
    // Coulomb: ‖r_t‖ ≤ μ·r_n; sliding opposite to r_t, on the cone's boundary
    expect(rt, `‖r_t‖ of contact ${c}`).to.be.at.most(mu * rn + tol);
    if (ut > 10 * tol) {
      expect(rt, `sliding contact ${c} on the cone`).to.be.closeTo(mu * rn, 10 * tol);
      if (rt > tol) {
        const cos = (f[o + 1] * d[o + 1] + f[o + 2] * d[o + 2]) / (rt * ut);
        expect(cos, `r_t opposite to u_t at contact ${c}`).to.be.closeTo(-1, 1e-4);
      }
    }
  }
}

function problemWith(W: Float64Array, dfree: Float64Array, n: number, mu: number, rows: 1 | 3): ConstraintProblem {
  const p = new ConstraintProblem();
  p.resize(n);
  p.W.set(W);
  p.dfree.set(dfree);
  for (let i = 0; i < n; i += rows) p.resolutions[i] = rows === 3 ? new FrictionContactResolution(mu) : new UnilateralResolution();
  return p;
}

const tight = { maxIterations: 20000, tolerance: 1e-13, sor: 1, scaleTolerance: false, allVerified: false };

function solveGS(W: Float64Array, dfree: Float64Array, n: number, mu: number, rows: 1 | 3): Float64Array {
  const p = problemWith(W, dfree, n, mu, rows);
  const r = blockGaussSeidel(p, tight, new GaussSeidelWork());
  expect(r.converged).to.equal(true);
  return Float64Array.from(p.force);
}

function solveLCP(W: Float64Array, dfree: Float64Array, n: number, mu: number, rows: 1 | 3): Float64Array {
  const f = new Float64Array(n);
  const r =
    rows === 3
      ? nlcpGaussSeidel(n, dfree, W, f, mu, 1e-14, 20000, false, new LcpWork())
      : gaussSeidelLcp1(n, dfree, W, f, 1e-14, 20000, new LcpWork());
  expect(r.converged).to.equal(true);
  return f;
}

function solveUzawa(method: UzawaMethod, W: Float64Array, dfree: Float64Array, n: number, mu: number, rows: 1 | 3): Float64Array {
  const p = problemWith(W, dfree, n, mu, rows);
  const opts = {
    method,
    maxIterations: 200000,
    tolerance: method === 'local' ? 1e-13 : 1e-12,
    localTolerance: 1e-14,
    maxLocalIterations: 2000,
    rho: 0,
    rhoFactor: 0.3,
  };
  const r = bipotentialUzawa(p, opts, new UzawaWork(), new GaussSeidelWork());
  expect(r.converged).to.equal(true);
  return Float64Array.from(p.force);
}

describe('constraint: friction contact solvers on small problems (Signorini, Coulomb, agreement)', () => {
  const solvers = {
    'Gauss-Seidel (BlockGaussSeidel)': solveGS,
    'LCP (nlcp_gaussseidel)': solveLCP,
    'local Uzawa': (W: Float64Array, d: Float64Array, n: number, mu: number, rows: 1 | 3) => solveUzawa('local', W, d, n, mu, rows),
    'global Uzawa': (W: Float64Array, d: Float64Array, n: number, mu: number, rows: 1 | 3) => solveUzawa('global', W, d, n, mu, rows),
  };

  for (const mu of [0.1, 0.3, 0.8]) {
    for (const seed of [1, 2, 3]) {
      it(`μ = ${mu}, problem ${seed}: every solver satisfies Signorini and Coulomb, and they agree`, () => {
        const { W, dfree, n } = contactProblem(seed, 4, 3);
        const results: Float64Array[] = [];
        for (const [name, solve] of Object.entries(solvers)) {
          const f = solve(W, dfree, n, mu, 3);
          try {
            checkContactLaws(W, dfree, f, n, mu, 3, 1e-7);
          } catch (e) {
            throw new Error(`${name}: ${(e as Error).message}`, { cause: e });
          }
          results.push(f);
        }
        // the contact problems are small and well conditioned: one solution
        const scale = Math.max(...results[0].map(Math.abs));
        for (let s = 1; s < results.length; s++) {
          for (let i = 0; i < n; i++)
            expect(results[s][i], `λ_${i} of solver ${s} vs Gauss-Seidel`).to.be.closeTo(results[0][i], 1e-5 * scale);
        }
      });
    }
  }

  for (const seed of [4, 5]) {
    it(`frictionless contacts (one row each), problem ${seed}: Signorini holds for every solver, same λ`, () => {
      const { W, dfree, n } = contactProblem(seed, 5, 1);
      const results = Object.values(solvers).map((solve) => solve(W, dfree, n, 0, 1));
      for (const f of results) checkContactLaws(W, dfree, f, n, 0, 1, 1e-8);
      for (const f of results) for (let i = 0; i < n; i++) expect(f[i]).to.be.closeTo(results[0][i], 1e-6);
    });
  }

  it('projection on the Coulomb cone: stick inside, zero in the polar cone, nearest point on the boundary otherwise', () => {
    const out = new Float64Array(3);
    projectOnCone(out, Float64Array.of(2, 0.3, -0.4), 3, 0.5);
    expect(Array.from(out)).to.deep.equal([2, 0.3, -0.4]);
    projectOnCone(out, Float64Array.of(-3, 1, 1), 3, 0.5);
    expect(Array.from(out)).to.deep.equal([0, 0, 0]);
    // slip: the projection is the point of the cone nearest to r* (checked against a brute-force search)
    const rs = Float64Array.of(1, 2, -1);
    const mu = 0.4;
    projectOnCone(out, rs, 3, mu);
    expect(Math.hypot(out[1], out[2])).to.be.closeTo(mu * out[0], 1e-14);
    let best = Infinity;
    for (let k = 0; k <= 20000; k++) {
      const rn = (k / 20000) * 3;
      const dir = Math.hypot(rs[1], rs[2]);
      const px = rn,
        py = (mu * rn * rs[1]) / dir,
        pz = (mu * rn * rs[2]) / dir;
      best = Math.min(best, Math.hypot(px - rs[0], py - rs[1], pz - rs[2]));
    }
    expect(Math.hypot(out[0] - rs[0], out[1] - rs[1], out[2] - rs[2])).to.be.closeTo(best, 1e-3);
  });

  it('Uzawa: ρ defaults to rhoFactor / max diagonal of the contact blocks', () => {
    const { W, dfree, n } = contactProblem(7, 3, 3);
    const p = problemWith(W, dfree, n, 0.3, 3);
    const w = new UzawaWork();
    bipotentialUzawa(
      p,
      { method: 'global', maxIterations: 10, tolerance: 0, localTolerance: 0, maxLocalIterations: 1, rho: 0, rhoFactor: 0.3 },
      w,
      new GaussSeidelWork(),
    );
    let wmax = 0;
    for (let i = 0; i < n; i++) wmax = Math.max(wmax, W[i * n + i]);
    expect(w.rho).to.be.closeTo(0.3 / wmax, 1e-15);
  });
});
